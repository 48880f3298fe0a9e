// How figures are written: sizes in kB (1,000 bytes, as the bundle budget is stated), times in ms, ratios with
// two digits, and the two table shapes, one for the terminal and one for BENCHMARKS.md.

export const kB = (bytes) => (bytes === undefined ? 'n/a' : `${(bytes / 1000).toFixed(1)} kB`);

export function ms(value, digits = value < 10 ? 2 : value < 100 ? 1 : 0) {
  return value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(digits)} ms`;
}

export const ratio = (value) => (value === undefined || !Number.isFinite(value) ? 'n/a' : `${value.toFixed(2)}x`);

export const count = (value) => (value === undefined ? 'n/a' : Math.round(value).toLocaleString('en-US'));

export const bytesPer = (bytes) => (bytes === undefined ? 'n/a' : bytes >= 10_000 ? kB(bytes) : `${Math.round(bytes)} B`);

export const mb = (bytes) => (bytes === undefined ? 'n/a' : `${(bytes / 1e6).toFixed(1)} MB`);

/** 'pass' / 'miss' for a check, 'n/a' when the figure could not be measured or has no target. */
export function verdict(ok) {
  return ok === undefined ? 'n/a' : ok ? 'pass' : 'miss';
}

/** Columns padded for a terminal; the first column left-aligned, the rest right-aligned. */
export function consoleTable(header, rows) {
  const cells = rows.map((row) => row.map((cell) => String(cell ?? '')));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** A GitHub-flavoured Markdown table; pipes inside cells are escaped. */
export function markdownTable(header, rows) {
  const escapeCell = (cell) => String(cell ?? '').replaceAll('|', '\\|');
  return [
    `| ${header.map(escapeCell).join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
  ].join('\n');
}
