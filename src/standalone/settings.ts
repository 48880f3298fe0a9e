/**
 * The names of every setting the standalone server reads: its own (config.ts) and the proxy's, which it reads from
 * the same variables. A name that is none of them is a typo as often as not (PAYIN_ALLOWED_ORIGIN for
 * PAYIN_ALLOWED_ORIGINS, "port" in a --config file), and the server would otherwise run without the setting and say
 * nothing: a --config file's key is refused, a PAYIN_ variable is warned of (the shop's own programs may share the
 * prefix), each with the setting it most likely meant.
 */

export const SETTINGS = [
  'PORT',
  'HOST',
  'PAYIN_BASE_PATH',
  'PAYIN_BASE_URL',
  'PAYIN_MERCHANT_ID',
  'PAYIN_TOKEN',
  'PAYIN_SECRET',
  'PAYIN_CALLBACK_URL',
  'PAYIN_SBP_BANKS_URL',
  'PAYIN_STORE_URL',
  'PAYIN_REDIS_URL',
  'PAYIN_RESOLVE_URL',
  'PAYIN_ORDER_TOKEN_SECRET',
  'PAYIN_WEBHOOK_URL',
  'PAYIN_WEBHOOK_SECRET',
  'PAYIN_ALLOWED_ORIGINS',
  'PAYIN_CLIENT_IP_HEADER',
  'PAYIN_CONSOLE_TOKEN',
] as const;

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
