/**
 * What `payin-checkout proxy --help` prints: how to run the server and every setting it reads, each with a line on
 * what it is, so that an operator at a terminal need not open the docs to find, for one, the variable that moves
 * the port. The record is keyed by SETTINGS, so a setting added there without its line here does not compile.
 */
import type { SETTINGS } from './settings.js';

const WHAT: Record<(typeof SETTINGS)[number], string> = {
  PORT: 'the port it listens on (default 8787)',
  HOST: 'the address it listens on (default 127.0.0.1: only this machine)',
  PAYIN_BASE_PATH: 'the path it serves the proxy under (default /payin)',
  PAYIN_BASE_URL: "the payment service's address",
  PAYIN_MERCHANT_ID: 'your merchant id at the service',
  PAYIN_TOKEN: 'the Bearer token the service gave you',
  PAYIN_SECRET: 'the signing secret the service gave you',
  PAYIN_CALLBACK_URL: 'the public URL of <base path>/callback on this server',
  PAYIN_SBP_BANKS_URL: "where the SBP bank list comes from (default NSPK's)",
  PAYIN_STORE_URL: 'the ledger: sqlite:<file> (default sqlite:./payin.db), postgres://... or redis://...',
  PAYIN_REDIS_URL: 'the older name of PAYIN_STORE_URL',
  PAYIN_RESOLVE_URL: 'your pricing endpoint (or PAYIN_ORDER_TOKEN_SECRET, not both)',
  PAYIN_ORDER_TOKEN_SECRET: "the key of your pages' signed order tokens, 16 characters or more",
  PAYIN_WEBHOOK_URL: "your backend's endpoint for payment updates",
  PAYIN_WEBHOOK_SECRET: 'whsec_... shared with your backend (two, space-separated, while you rotate it)',
  PAYIN_ALLOWED_ORIGINS: 'space-separated origins of your pages, when they are not this server',
  PAYIN_CLIENT_IP_HEADER: "the header your web server sets to the shopper's address",
  PAYIN_CONSOLE_TOKEN: "turns on the operator's console, behind a login for this token (16 characters or more)",
};

export function proxyUsage(): string {
  const width = Math.max(...Object.keys(WHAT).map((name) => name.length));
  return [
    'Usage: payin-checkout proxy [--config payin.json]',
    '',
    'The standalone proxy server, for shops whose server is not JavaScript (docs/standalone.md). Its settings are',
    'environment variables, or the keys of the JSON object in the --config file, which win:',
    ...Object.entries(WHAT).map(([name, what]) => `  ${name.padEnd(width)}  ${what}`),
  ].join('\n');
}
