/** What the script build's plugins share to edit TypeScript source through the parser Vite exports. */
/** Calls `visit` on every object in a parsed program (nodes and their lists), each before what it holds. */
export function walk(node: unknown, visit: (node: object) => void): void {
  if (!node || typeof node !== 'object') return;
  visit(node);
  for (const value of Object.values(node)) walk(value, visit);
}

/** A replacement of the source text from `start` to `end`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `code` with `edits` made, which must not overlap; the last first, so that earlier offsets stay right. */
export function applyEdits(code: string, edits: Edit[]): string {
  let out = code;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

export interface TemplateLiteral {
  quasis: { start: number; value: { raw: string } }[];
}
