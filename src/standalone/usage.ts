/**
 * What `payin-checkout proxy --help` prints: how to run the server and every setting it reads, each with a line on
 * what it is, so that an operator at a terminal need not open the docs to find, for one, the variable that moves
 * the port. Each line is kept beside its setting's name (settings.ts), so a setting cannot come without one.
 */
import { SETTING_LINES } from './settings.js';

export function proxyUsage(): string {
  const width = Math.max(...Object.keys(SETTING_LINES).map((name) => name.length));
  return [
    'Usage: payin-checkout proxy [--config payin.json]',
    '',
    'The standalone proxy server, for shops whose server is not JavaScript (docs/standalone.md). Its settings are',
    'environment variables, or the keys of the JSON object in the --config file, which win:',
    ...Object.entries(SETTING_LINES).map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
  ].join('\n');
}
