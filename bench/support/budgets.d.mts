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
export const CORE_AIM: number;
export const JOURNEYS: Record<string, string[]>;
export const FALLBACKS: string[];
export function measureScript(dist: URL): ScriptSizes;
export function journeyTotals(
  sizes: ScriptSizes,
  journeys?: Record<string, string[]>,
  fallbacks?: string[],
): { journey: string; total: number }[];
export function overBudget(sizes: ScriptSizes, budgets?: Budgets, journeys?: Record<string, string[]>, fallbacks?: string[]): string[];
