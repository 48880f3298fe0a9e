// Types of budgets.mjs, for the TypeScript tests that import it.
export interface MeasuredFile {
  name: string;
  file: string;
  gzip: number;
}
export interface ScriptSizes {
  core: number;
  parts: MeasuredFile[];
  languages: MeasuredFile[];
}
export interface Budgets {
  core: number;
  corePlusParts: number;
  part: number;
  language: number;
}
export const BUDGETS: Budgets;
export function measureScript(dist: URL): ScriptSizes;
export function overBudget(sizes: ScriptSizes, budgets?: Budgets): string[];
