/**
 * The standalone server's configuration, from the PAYIN_* variables (or a JSON file of the same names, given
 * with `--config`): the proxy's own settings, the store (SQLite by default), how orders are priced and where
 * webhooks go. PAYIN_STORE_URL takes sqlite:, redis(s)://, postgres(ql):// and memory:. Every mistake is reported
 * at once, naming the variable, before anything listens; a secret is never echoed.
 */
import { exactOrigin, originProblem } from '../proxy/http/cors.js';
import { normalBasePath, publicPathProblem } from '../proxy/resolved-options.js';
import { rotatedSecrets, rotationProblem } from '../proxy/infrastructure/rotated-secrets.js';
import { storeUrlProblem } from '../server/store-url.js';
import { isHeaderName } from './client-ip-header.js';
import { reusedSecretProblems } from './secret-reuse.js';
import type { Pricing } from './shop-backend.js';

export interface StandaloneConfig {
  port: number;
  host: string;
  basePath: string;
  /** Where the browser sees basePath, when a web server in front strips a prefix (PAYIN_PUBLIC_BASE_PATH): the console's cookies' Path. */
  publicBasePath?: string;
  /** Exact origins of the shop's pages, when they are not served from this server's origin (PAYIN_ALLOWED_ORIGINS). */
  allowedOrigins: string[];
  storeUrl: string;
  pricing: Pricing;
  webhookUrl: string;
  webhookSecret: string;
  /** The operator console's sign-in token (PAYIN_CONSOLE_TOKEN): the console at {basePath}/console is on when set. */
  consoleToken?: string;
  /** The header the shop's web server sets to the shopper's address (PAYIN_CLIENT_IP_HEADER), for the per-client limits. */
  clientIpHeader?: string;
  /** Handed to the proxy, which reads the PAYIN_* provider settings and PAYIN_CALLBACK_URL from it. */
  env: Record<string, string | undefined>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`the payin proxy cannot start:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function readStandaloneConfig(env: Record<string, string | undefined>): StandaloneConfig {
  const problems: string[] = [];
  const value = (name: string) => env[name]?.trim() || undefined;
  const need = (name: string, why: string) => {
    const v = value(name);
    if (!v) problems.push(`${name} is not set (${why})`);
    return v ?? '';
  };
  // As the proxy serves it, so that the log and the help name the real addresses.
  const basePath = normalBasePath(value('PAYIN_BASE_PATH') ?? '/payin');
  const publicBasePath = value('PAYIN_PUBLIC_BASE_PATH');
  const publicProblem = publicBasePath === undefined ? undefined : publicPathProblem(publicBasePath);
  if (publicProblem) problems.push(`PAYIN_PUBLIC_BASE_PATH ${publicProblem}`);
  for (const [name, why] of [
    ['PAYIN_BASE_URL', "the payment service's address"],
    ['PAYIN_MERCHANT_ID', 'your merchant id at the service'],
    ['PAYIN_TOKEN', 'the Bearer token the service gave you'],
    ['PAYIN_SECRET', 'the signing secret the service gave you'],
    ['PAYIN_CALLBACK_URL', `the public URL of ${basePath}/callback on this server`],
  ] as const) {
    need(name, why);
  }
  // Two, space-separated, while it is rotated (the new one and the old one): the proxy signs with the new one and
  // believes either, so checkouts opened before the restart keep their read tokens (rotated-secrets.ts).
  const secretProblem = rotationProblem(rotatedSecrets(value('PAYIN_SECRET') ?? ''), 'PAYIN_SECRET');
  if (secretProblem) problems.push(secretProblem);
  const webhookUrl = need('PAYIN_WEBHOOK_URL', "your backend's endpoint for payment updates");
  // Two, space-separated, while it is rotated (the new one and the old one): every call is signed with each.
  const webhookSecret = need('PAYIN_WEBHOOK_SECRET', 'a whsec_... secret shared with your backend');
  const webhookSecrets = rotatedSecrets(webhookSecret);
  const webhookSecretsProblem = rotationProblem(webhookSecrets, 'PAYIN_WEBHOOK_SECRET');
  if (webhookSecretsProblem) problems.push(webhookSecretsProblem);
  else if (!webhookSecrets.every(isWebhookSecret)) {
    problems.push(
      'PAYIN_WEBHOOK_SECRET must look like whsec_<padded base64 of at least 12 random bytes> (a random one: echo whsec_$(openssl rand -base64 24))',
    );
  }
  const resolveUrl = value('PAYIN_RESOLVE_URL');
  const tokenSecret = value('PAYIN_ORDER_TOKEN_SECRET');
  let pricing: Pricing = { kind: 'url', url: '' };
  // Two, space-separated, while it is rotated (the new one and the old one): the shop's backend signs with the new
  // one and the proxy believes either, so pages rendered before the switch still pay (order-token.ts).
  const tokenKeys = rotatedSecrets(tokenSecret ?? '');
  const tokenKeysProblem = rotationProblem(tokenKeys, 'PAYIN_ORDER_TOKEN_SECRET');
  if (tokenKeysProblem) problems.push(tokenKeysProblem);
  // A page's token is a sample anyone can test guesses of the key against, offline: a short key forges prices.
  if (tokenKeys.some((key) => key.length < 16)) {
    problems.push(
      `PAYIN_ORDER_TOKEN_SECRET must be at least 16 characters${tokenKeys.length > 1 ? ', each of its two' : ''}: a short key can be guessed from any token a page shows (a random one: openssl rand -base64 24)`,
    );
  }
  if (resolveUrl && tokenSecret) problems.push('set PAYIN_RESOLVE_URL or PAYIN_ORDER_TOKEN_SECRET, not both');
  else if (resolveUrl) pricing = { kind: 'url', url: resolveUrl };
  else if (tokenSecret) pricing = { kind: 'token', secret: tokenSecret };
  else problems.push('neither PAYIN_RESOLVE_URL (your pricing endpoint) nor PAYIN_ORDER_TOKEN_SECRET (signed order tokens) is set');
  // Checked here, with everything else, so that the operator sees every mistake in one list before anything opens.
  for (const name of ['PAYIN_BASE_URL', 'PAYIN_CALLBACK_URL', 'PAYIN_WEBHOOK_URL', 'PAYIN_RESOLVE_URL']) {
    const url = value(name);
    if (url && !isHttpUrl(url)) problems.push(`${name} must be an http(s) URL, such as https://example.com/...`);
  }
  const storeUrl = value('PAYIN_STORE_URL') ?? value('PAYIN_REDIS_URL') ?? 'sqlite:./payin.db';
  const storeProblem = storeUrlProblem(storeUrl);
  if (storeProblem) problems.push(storeProblem);
  const consoleToken = value('PAYIN_CONSOLE_TOKEN');
  if (consoleToken && consoleToken.length < 16)
    problems.push('PAYIN_CONSOLE_TOKEN must be at least 16 characters (a random one: openssl rand -base64 24)');
  problems.push(...reusedSecretProblems(value));
  const clientIpHeader = value('PAYIN_CLIENT_IP_HEADER');
  if (clientIpHeader && !isHeaderName(clientIpHeader)) {
    problems.push('PAYIN_CLIENT_IP_HEADER must be a header name, such as X-Real-IP or X-Forwarded-For');
  }
  const allowedOrigins: string[] = [];
  for (const entry of (value('PAYIN_ALLOWED_ORIGINS') ?? '').split(/[\s,]+/).filter(Boolean)) {
    const origin = exactOrigin(entry);
    if (origin) allowedOrigins.push(origin);
    else problems.push(`PAYIN_ALLOWED_ORIGINS: ${originProblem(entry)}`);
  }
  const portText = value('PORT') ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push(`PORT must be a port number, got "${portText}"`);
  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    host: value('HOST') ?? '127.0.0.1',
    basePath,
    ...(publicBasePath ? { publicBasePath: normalBasePath(publicBasePath) } : {}),
    allowedOrigins,
    storeUrl,
    pricing,
    webhookUrl,
    webhookSecret,
    ...(consoleToken ? { consoleToken } : {}),
    ...(clientIpHeader ? { clientIpHeader } : {}),
    env,
  };
}

function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * `whsec_` and padded base64 of 12 bytes or more. Unpadded or misplaced padding is refused: Node's decoder reads
 * something from it (stopping at a stray `=`), Python's refuses it, so the proxy and the shop's helper would sign
 * with different keys and every webhook would be turned away.
 */
function isWebhookSecret(secret: string): boolean {
  const match = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/.exec(secret);
  if (!match) return false;
  const base64 = match[1]!;
  const bytes = (base64.length / 4) * 3 - (base64.match(/=/g)?.length ?? 0);
  return bytes >= 12;
}
