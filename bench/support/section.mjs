// What every bench script hands back: a section with one row per figure (its value, its target, the figure it
// is compared with from the same run, pass/miss, and the command behind it), a note that says how it was
// measured, and the raw numbers. Run alone, a script prints its table; run by bench/run.mjs (forked, with an
// IPC channel), it also sends the section to the parent, which writes BENCHMARKS.md and results/latest.json.
import { consoleTable } from './format.mjs';

export const COLUMNS = ['figure', 'value', 'target', 'compared with (same run)', 'verdict'];

/**
 * @param {{figure: string, value: string, target?: string, compared?: string, verdict?: string}} row
 * @returns {string[]}
 */
export const cellsOf = (row) => [row.figure, row.value, row.target ?? '', row.compared ?? '', row.verdict ?? 'n/a'];

/** BENCHMARKS.md adds the command behind each figure. */
export const MARKDOWN_COLUMNS = [...COLUMNS, 'command'];
export const markdownCellsOf = (row) => [...cellsOf(row), row.command ? `\`${row.command}\`` : ''];

/** Prints the section and, under bench/run.mjs, sends it to the parent; resolves once it is sent. */
export async function report(section) {
  console.log(`\n${section.title}\n${consoleTable(COLUMNS, section.rows.map(cellsOf))}`);
  if (section.note) console.log(`\n${section.note}`);
  if (process.send) await new Promise((resolve) => process.send({ type: 'section', section }, () => resolve()));
}

/** The section of a script that cannot measure on this machine: `why` is its note and its one row's value. */
export function notMeasured({ id, title, figure, command }, why) {
  return { id, title, note: why, rows: [{ figure, value: why, verdict: 'n/a', command }], raw: {} };
}

/** Why a script that drives Chromium measured nothing. */
export const NO_CHROME = 'not measured: no Chrome or Chromium (install chromium or set CHROME_PATH)';

/** The command line that reruns one script, for the table. */
export function commandOf(script, env = {}) {
  const vars = Object.entries(env)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`);
  return [...vars, `node bench/${script}`].join(' ');
}

/** A whole number from the environment, or the fallback; a bad value stops the run with its name. */
export function envNumber(name, fallback, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}) {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}
