/**
 * Every setting the standalone server reads, by name: its own (config.ts) and the proxy's, which it reads from
 * the same variables. A name that is none of them is a typo as often as not (PAYIN_ALLOWED_ORIGIN for
 * PAYIN_ALLOWED_ORIGINS, "port" in a --config file), and the server would otherwise run without the setting and say
 * nothing: a --config file's key is refused, a PAYIN_ variable is warned of (the shop's own programs may share the
 * prefix), each with the setting it most likely meant.
 */

/** Every setting, with the line `payin-checkout proxy --help` prints for it (usage.ts). */
export const SETTING_LINES = {
  PORT: 'the port it listens on (default 8787)',
  HOST: 'the address it listens on (default 127.0.0.1: only this machine)',
  PAYIN_BASE_PATH: 'the path it serves the proxy under (default /payin)',
  PAYIN_PUBLIC_BASE_PATH: 'the path browsers see it at, when your web server strips a prefix (e.g. /shop/payin)',
  PAYIN_BASE_URL: "the payment service's address",
  PAYIN_MERCHANT_ID: 'your merchant id at the service',
  PAYIN_TOKEN: 'the Bearer token the service gave you',
  PAYIN_SECRET: 'the signing secret the service gave you (the new one and the old one, space-separated, while you rotate it)',
  PAYIN_CALLBACK_URL: 'the public URL of <base path>/callback on this server',
  PAYIN_SBP_BANKS_URL: "where the SBP bank list comes from (default NSPK's)",
  PAYIN_STORE_URL: 'the ledger: sqlite:<file> (default sqlite:./payin.db), postgres://... or redis://...',
  PAYIN_REDIS_URL: 'the older name of PAYIN_STORE_URL',
  PAYIN_RESOLVE_URL: 'your pricing endpoint (or PAYIN_ORDER_TOKEN_SECRET, not both)',
  PAYIN_ORDER_TOKEN_SECRET:
    "the key of your pages' signed order tokens, 16 characters or more (the new one and the old one, space-separated, while you rotate it)",
  PAYIN_WEBHOOK_URL: "your backend's endpoint for payment updates",
  PAYIN_WEBHOOK_SECRET: 'whsec_... shared with your backend (two, space-separated, while you rotate it)',
  PAYIN_ALLOWED_ORIGINS: 'space-separated origins of your pages, when they are not this server',
  PAYIN_CLIENT_IP_HEADER: "the header your web server sets to the shopper's address",
  PAYIN_CONSOLE_TOKEN: "turns on the operator's console, behind a login for this token (16 characters or more)",
} as const;

export const SETTINGS = Object.keys(SETTING_LINES) as (keyof typeof SETTING_LINES)[];

const KNOWN: ReadonlySet<string> = new Set(SETTINGS);

export function isSetting(name: string): boolean {
  return KNOWN.has(name);
}

/** "X is not a setting of this server (did you mean Y?)", for a name that is none. */
export function notASetting(name: string, quoted = false): string {
  const meant = closestSetting(name);
  const shown = quoted ? `"${name}"` : name;
  return `${shown} is not a setting of this server${meant ? ` (did you mean ${meant}?)` : ''}`;
}

/** The PAYIN_ variables of an environment that the server does not read. */
export function unknownPayinVariables(env: Record<string, string | undefined>): string[] {
  return Object.keys(env).filter((name) => name.startsWith('PAYIN_') && !isSetting(name) && env[name] !== undefined);
}

/** The setting spelt the same in other letters' case, or within two edits of the name. */
function closestSetting(name: string): string | undefined {
  const upper = name.toUpperCase();
  let best: { setting: string; distance: number } | undefined;
  for (const setting of SETTINGS) {
    const distance = setting === upper ? 0 : editDistance(upper, setting);
    if (distance <= 2 && (!best || distance < best.distance)) best = { setting, distance };
  }
  return best?.setting;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
