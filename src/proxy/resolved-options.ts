/**
 * How missing values of a shop's options (options.ts) are filled: provider credentials from the PAYIN_* environment
 * variables (read through `globalThis.process?.env`, so that a worker without `process` still starts), everything
 * else from the documented defaults. A proxy that could not sign or verify must not start at all, so a missing
 * secret, base URL, merchant id, token or callback URL throws here, naming it; so does a name no option has.
 */
import type { SignatureEncoding } from '../shared/hmac.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { clientAddressOf } from './http/client-address.js';
import { exactOrigin, originProblem } from './http/cors.js';
import { consoleLogger } from './logger.js';
import { type FoldingLogger, foldRepeats } from './infrastructure/folded-repeats.js';
import { createMemoryStore } from './infrastructure/memory-store.js';
import { nodeTransport } from './infrastructure/node-transport.js';
import { fetchTransport, type ServiceTransport } from './infrastructure/service-transport.js';
import type { ProxyStore } from './infrastructure/store.js';
import { guardedStore } from './infrastructure/store-failure.js';
import { ServiceClock } from './infrastructure/service-clock.js';
import { processEnv } from '../shared/env.js';
import { rotatedSecrets, rotationProblem } from './infrastructure/rotated-secrets.js';
import { clientNetwork } from '../shared/client-network.js';
import { asFetchRequest, type ProxyRequest } from './http/exchange.js';
import type { ConsoleOptions } from '../console-api/console-options.js';
import { optionNames, overDefaults, refuseUnknownNames } from '../shared/option-names.js';
import { DEFAULT_LIMITS, DEFAULT_TIMEOUTS, type PayinProxyOptions, type ProxyLimits, type ProxyTimeouts } from './options.js';

export interface ResolvedOptions {
  provider: {
    baseUrl: string;
    merchantId: string;
    token: string;
    /** The secret that signs: the first of `secrets`. */
    secret: string;
    /** What verifies: the secret that signs, then, during a rotation, the previous one (rotated-secrets.ts). */
    secrets: readonly string[];
    signatureEncoding: SignatureEncoding;
    verifyAnswers: boolean;
  };
  basePath: string;
  publicBasePath: string;
  callbackUrl: string;
  returnUrl: PayinProxyOptions['returnUrl'];
  sbpBanks: { url: string; ttlMs: number };
  resolveOrder: PayinProxyOptions['resolveOrder'];
  onPaymentUpdate: NonNullable<PayinProxyOptions['onPaymentUpdate']> | undefined;
  announceInBackground: boolean;
  reconcileEveryMs: number;
  methods: readonly string[];
  allowedOrigins: ReadonlySet<string>;
  store: ProxyStore;
  limits: ProxyLimits;
  timeouts: ProxyTimeouts;
  fetch: typeof fetch;
  /** The signed POSTs to the service: over `fetch`, or over node:http on Node when no fetch was given. */
  transport: ServiceTransport;
  clock: Clock;
  /** The service's clock, learned from its answers: `serverTime` beside its `expiresAt`, and the follow window. */
  serviceClock: ServiceClock;
  random: () => number;
  logger: FoldingLogger;
  clientId: (request: ProxyRequest) => string | undefined;
  console: ConsoleOptions | undefined;
}

/** The names the proxy's options take: another is refused at start (option-names.ts). */
const OPTION_NAMES = optionNames<PayinProxyOptions>({
  provider: true,
  sbpBanksUrl: true,
  sbpBanksTtlMs: true,
  basePath: true,
  publicBasePath: true,
  callbackUrl: true,
  returnUrl: true,
  resolveOrder: true,
  onPaymentUpdate: true,
  announceInBackground: true,
  reconcileEveryMs: true,
  methods: true,
  allowedOrigins: true,
  store: true,
  limits: true,
  timeouts: true,
  fetch: true,
  clock: true,
  random: true,
  logger: true,
  clientId: true,
  env: true,
  console: true,
});

/** The names `provider` and `console` take: another is refused at start (option-names.ts). */
const PROVIDER_NAMES = optionNames<NonNullable<PayinProxyOptions['provider']>>({
  baseUrl: true,
  merchantId: true,
  token: true,
  secret: true,
  signatureEncoding: true,
  verifyAnswers: true,
});
const CONSOLE_NAMES = optionNames<ConsoleOptions>({ authorizeOperator: true, operatorName: true, login: true });

export function resolveOptions(options: PayinProxyOptions): ResolvedOptions {
  if (typeof options?.resolveOrder !== 'function') {
    throw new TypeError('createPayinProxy needs resolveOrder(orderId, method, request): the shop prices its orders.');
  }
  // A misspelt option would be ignored: `onPaymentUpdates` leaves the shop hearing of no payment at all.
  refuseUnknownNames('createPayinProxy', options, OPTION_NAMES);
  // A misspelt name in a group is refused like a misspelt timeout: `provider: { merchantID }` would otherwise fall back
  // to PAYIN_MERCHANT_ID, or fail as missing though it was given; `console: { operatorname }` would sign the audit log
  // as "operator". The limits and timeouts are checked where their defaults are filled in.
  refuseUnknownNames('createPayinProxy: provider', options.provider, PROVIDER_NAMES);
  refuseUnknownNames('createPayinProxy: console', options.console, CONSOLE_NAMES);
  const env = options.env ?? processEnv();
  const pick = (value: string | undefined, name: string) => (value ?? env[name] ?? '').trim();
  const secrets = rotatedSecrets(pick(options.provider?.secret, 'PAYIN_SECRET'));
  const provider = {
    baseUrl: pick(options.provider?.baseUrl, 'PAYIN_BASE_URL').replace(/\/+$/, ''),
    merchantId: pick(options.provider?.merchantId, 'PAYIN_MERCHANT_ID'),
    token: pick(options.provider?.token, 'PAYIN_TOKEN'),
    secret: secrets[0] ?? '',
    secrets,
    signatureEncoding: options.provider?.signatureEncoding ?? 'hex',
    verifyAnswers: options.provider?.verifyAnswers ?? true,
  };
  const callbackUrl = pick(options.callbackUrl, 'PAYIN_CALLBACK_URL');
  const missing = [
    ['provider.secret', 'PAYIN_SECRET', provider.secret],
    ['provider.baseUrl', 'PAYIN_BASE_URL', provider.baseUrl],
    ['provider.merchantId', 'PAYIN_MERCHANT_ID', provider.merchantId],
    ['provider.token', 'PAYIN_TOKEN', provider.token],
    ['callbackUrl', 'PAYIN_CALLBACK_URL', callbackUrl],
  ].filter(([, , value]) => !value);
  if (missing.length) {
    const names = missing.map(([option, variable]) => `${option} (or ${variable})`).join(', ');
    throw new TypeError(`createPayinProxy: missing ${names}.`);
  }
  const secretsProblem = rotationProblem(secrets, 'provider.secret (PAYIN_SECRET)');
  if (secretsProblem) throw new TypeError(`createPayinProxy: ${secretsProblem}.`);
  assertHttpUrl(provider.baseUrl, 'provider.baseUrl (PAYIN_BASE_URL)');
  assertHttpUrl(callbackUrl, 'callbackUrl (PAYIN_CALLBACK_URL)');
  const basePath = normalBasePath(options.basePath ?? '/payin');
  const publicProblem = options.publicBasePath === undefined ? undefined : publicPathProblem(options.publicBasePath);
  if (publicProblem) throw new TypeError(`createPayinProxy: publicBasePath ${publicProblem}.`);
  const publicBasePath = options.publicBasePath === undefined ? basePath : normalBasePath(options.publicBasePath);
  const clock = options.clock ?? systemClock;
  if (typeof (options.fetch ?? globalThis.fetch) !== 'function') {
    throw new TypeError('createPayinProxy: no fetch in this runtime; pass options.fetch.');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    provider,
    basePath,
    publicBasePath,
    callbackUrl,
    returnUrl: options.returnUrl,
    sbpBanks: {
      url: pick(options.sbpBanksUrl, 'PAYIN_SBP_BANKS_URL') || 'https://qr.nspk.ru/proxyapp/c2bmembers.json',
      ttlMs: options.sbpBanksTtlMs ?? 24 * 60 * 60_000,
    },
    resolveOrder: options.resolveOrder,
    onPaymentUpdate: options.onPaymentUpdate,
    announceInBackground: options.announceInBackground === true,
    reconcileEveryMs: Math.max(0, options.reconcileEveryMs ?? 30_000),
    methods: options.methods?.length ? [...options.methods] : ['upi', 'sbp', 'c2c'],
    allowedOrigins: new Set((options.allowedOrigins ?? []).map(allowedOrigin)),
    store: guardedStore(options.store ?? createMemoryStore({ clock })),
    limits: overDefaults('createPayinProxy: limits', DEFAULT_LIMITS, options.limits),
    timeouts: checkedTimeouts(options.timeouts),
    // Called unbound: some runtimes (workerd) throw "Illegal invocation" when fetch is called as a method.
    fetch: (input, init) => fetchImpl(input, init),
    transport: (options.fetch ? undefined : nodeTransport()) ?? fetchTransport((input, init) => fetchImpl(input, init)),
    clock,
    serviceClock: new ServiceClock(clock),
    random: options.random ?? Math.random,
    // Folded: a line repeated within a minute (a flood of forged callbacks, an outage seen by every poll) is written
    // once, then counted (infrastructure/folded-repeats.ts).
    logger: foldRepeats(options.logger ?? consoleLogger, clock),
    clientId: countedAsClient(options.clientId ? shopClientId(options.clientId) : clientAddressOf),
    console: options.console,
  };
}

/** The shop's own clientId gets a Fetch Request, whatever the runtime handed the proxy. */
function shopClientId(clientId: (request: Request) => string | undefined) {
  return (request: ProxyRequest) => clientId(asFetchRequest(request));
}

/**
 * Whoever names the client (the runtime's peer address, or the shop's clientId reading its reverse proxy's header,
 * as docs/security.md shows), an address is counted one way: an IPv6 one by its /64 and without a port, or each
 * shopper could take fresh quotas at will (client-network.ts). An identity that is no address stays as it is.
 */
function countedAsClient(identify: (request: ProxyRequest) => string | undefined) {
  return (request: ProxyRequest) => {
    const id = identify(request)?.trim();
    return id && clientNetwork(id);
  };
}

function allowedOrigin(text: string): string {
  const origin = exactOrigin(text);
  if (origin === undefined) throw new TypeError(`createPayinProxy: allowedOrigins: ${originProblem(text)}.`);
  return origin;
}

/** The base path as the proxy serves it: one leading slash, no trailing one ('payin/' -> '/payin'; '/' -> ''). */
export function normalBasePath(path: string): string {
  return `/${path.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, '');
}

/**
 * What is wrong with a public base path, or undefined: it becomes a cookie's Path, where a `;` or a space would end
 * the attribute or add another, and a `?` or `#` is never part of the path the browser matches; a whole URL
 * would be taken for a path beginning `/https:`. The browser matches the Path, unresolved, against the path it
 * sends, percent-encoded and with its dot segments resolved: a path written otherwise (`/магазин`, a `"`, a `..`)
 * is matched by nothing, and one beyond Latin-1 cannot even be sent in a header, so each is refused, naming the
 * path to write instead.
 */
export function publicPathProblem(path: unknown): string | undefined {
  if (typeof path !== 'string') return `must be a path such as '/shop/payin', not ${typeof path}`;
  if (/^[a-z][\w+.-]*:/i.test(path)) return `must be the path alone, such as '/shop/payin', not a URL (${JSON.stringify(path)})`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  const bad = /[\s;,?#\\\x00-\x1f\x7f]/.test(path);
  if (bad) return `must be a path such as '/shop/payin' (no spaces, ;, ",", ?, # or \\), not ${JSON.stringify(path)}`;
  const written = normalBasePath(path);
  const sent = normalBasePath(new URL(`${written}/`, 'http://host.invalid').pathname);
  return sent === written ? undefined : `must be written as the browser sends it: ${JSON.stringify(sent)}, not ${JSON.stringify(path)}`;
}

/** The longest delay a timer takes: Node fires a longer one after 1 ms (with a warning), and so do browsers. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The timeouts given over the defaults, a name they do not have refused (option-names.ts): a misspelt
 * `hookTimeoutMs` would leave a hung hook without the deadline its shop meant to set. The hook's deadline is what keeps a
 * hung hook from stalling the outbox, so one that is not a usable delay (0, negative, NaN, Infinity, a string from a
 * configuration file, or past what a timer can wait) stops the start too.
 */
function checkedTimeouts(given: Partial<ProxyTimeouts> | undefined): ProxyTimeouts {
  const timeouts = overDefaults('createPayinProxy: timeouts', DEFAULT_TIMEOUTS, given);
  const { hookMs } = timeouts;
  if (typeof hookMs !== 'number' || !(hookMs > 0 && hookMs <= LONGEST_TIMER_MS)) {
    throw new TypeError(
      `createPayinProxy: timeouts.hookMs must be a number of milliseconds from 1 to ${LONGEST_TIMER_MS}, not ${typeof hookMs === 'string' ? JSON.stringify(hookMs) : String(hookMs)}.`,
    );
  }
  return timeouts;
}

function assertHttpUrl(value: string, name: string): void {
  let ok = false;
  try {
    ok = /^https?:$/.test(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw new TypeError(`createPayinProxy: ${name} must be an http(s) URL.`);
}
