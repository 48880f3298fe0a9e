/**
 * What a shop passes to createPayinProxy: the options, their types and the documented defaults of the limits and
 * timeouts. resolved-options.ts fills in what is missing and refuses what cannot work.
 */
import type { ConsoleOptions } from '../console-api/console-options.js';
import type { Clock } from '../shared/clock.js';
import type { SignatureEncoding } from '../shared/hmac.js';
import type { PaymentView } from '../shared/payment-view.js';
import type { ProxyStore } from './infrastructure/store.js';
import type { ProxyLogger } from './logger.js';

export interface PricedOrder {
  /** The sum to pay, a decimal string ("250.00") or a number with at most two decimals. */
  amount: string | number;
  /** Three-letter code, such as "INR" or "RUB". */
  currency: string;
}

/** The path that found the state: a browser's create, status or event stream, a callback, a reconcile sweep, or a retry. */
export type PaymentUpdateSource = 'create' | 'status' | 'callback' | 'events' | 'reconcile' | 'outbox';

/** What the hook hears besides the payment. */
export interface PaymentUpdateInfo {
  source: PaymentUpdateSource;
  /**
   * Set on a paid payment of an order that another payment (this id) had already paid: the shopper paid twice
   * (say, switched method and paid both). Do not ship twice; refund this one.
   */
  secondPaymentOf?: string;
  /**
   * Aborted when this call's deadline (`timeouts.hookMs`) passes, with the error that says so as its reason: the
   * proxy has then stopped waiting, counts the call as failed and will call again, perhaps while this one still runs.
   * Hand it to the HTTP calls the hook makes (`fetch(url, { signal: info.signal })`), so that a backend that went
   * quiet does not keep them open for good. `payin.close()` does not abort it: a call under way may finish.
   */
  signal: AbortSignal;
}

/** What resolveOrder is told besides the order and method. */
export interface ResolveOrderExtra {
  /** The signed order token the page rendered (`order-token` on the element), when it sent one. */
  orderToken?: string;
}

export interface PayinProxyOptions {
  /** The payment service and this shop's credentials there. Each field falls back to its PAYIN_* variable. */
  provider?: {
    baseUrl?: string;
    merchantId?: string;
    token?: string;
    /**
     * The HMAC key the service gave you. While you rotate it, the new one and the old one, space-separated: the
     * new one signs requests and the read tokens issued from then on, and either verifies a token, a callback or
     * an answer, so the checkouts opened before the restart go on (docs/proxy.md says when to drop the old one).
     */
    secret?: string;
    /** How the service writes `Signature`: lowercase hex (default) or base64. */
    signatureEncoding?: SignatureEncoding;
    /**
     * Believe create and status answers only with a valid `Signature` (default true: the service signs every
     * answer). Turn off only for a service that does not sign; a present but wrong signature is refused anyway.
     */
    verifyAnswers?: boolean;
  };
  /**
   * Where the NSPK member list for the SBP bank chooser is fetched from (GET {basePath}/sbp-banks). Default
   * PAYIN_SBP_BANKS_URL, else NSPK's own list; the sandbox serves one at /proxyapp/c2bmembers.json.
   */
  sbpBanksUrl?: string;
  /** How long the member list is kept before it is fetched again. Default 24 hours. */
  sbpBanksTtlMs?: number;
  /** Where the proxy is mounted. Default `/payin`. */
  basePath?: string;
  /**
   * The path at which the browser sees `basePath`, when something in front serves the proxy under a longer one that
   * the proxy never sees: Next's `basePath: '/shop'` (taken off `request.url`) or a front server that strips
   * `/shop` make it `'/shop/payin'`. Default `basePath`. Only the console's cookies need it (a cookie's Path is never
   * resolved against the page): the bank list's logos and the console's links, forms, scripts and redirects are
   * written relative to the request, and hold under any prefix without it.
   */
  publicBasePath?: string;
  /** The public URL of `{basePath}/callback`, sent to the service as `callbackUri`. Falls back to PAYIN_CALLBACK_URL. */
  callbackUrl?: string;
  /**
   * Where the payer's bank app sends them back after paying (or giving up): the page of the order's checkout, which
   * resumes it and shows the truth. Sent to the service as `successUri` and `failUri`, the create fields its
   * documentation names; absent (undefined) sends neither. Built by the shop, never taken from the browser.
   */
  returnUrl?: (order: { orderId: string; method: string }) => string | undefined;
  /**
   * The shop prices and authorises the order: the amount and currency of `orderId`, or null when this request
   * may not pay it (unknown order, not this shopper's cart). The browser never chooses the amount.
   */
  resolveOrder: (
    orderId: string,
    method: string,
    request: Request,
    extra: ResolveOrderExtra,
  ) => PricedOrder | null | Promise<PricedOrder | null>;
  /**
   * Called once for each new state a payment reaches (always for the final one), wherever it was first seen,
   * after the state is recorded. Ship the order when `payment.outcome === 'paid'` and `info.secondPaymentOf` is
   * not set. A throw (or a rejected promise) means "not taken": the proxy calls again with backoff until it
   * succeeds, never twice at once for one payment and state, never again after a success. So does a call that has
   * not returned within `timeouts.hookMs` (30 s): `info.signal` is aborted then, its retry may run beside it if it
   * goes on, and what it answers is ignored. Pass `info.signal` to the hook's own fetch calls.
   */
  onPaymentUpdate?: (payment: PaymentView, info: PaymentUpdateInfo) => void | Promise<void>;
  /**
   * When true, a request that finds a new state (a create, a status call, a callback) answers without waiting for
   * `onPaymentUpdate`, which goes on after the answer (retried as ever); `close()` waits for it. For a long-lived
   * server whose hook may be slow (the standalone server's webhooks to the shop's backend). Default false: a
   * serverless runtime may freeze the work a request leaves running after its answer.
   */
  announceInBackground?: boolean;
  /**
   * How often the proxy sweeps open payments and due announcements by itself on a long-lived server (Node, Bun,
   * Deno). Default 30 s; 0 turns it off (workers and serverless call `proxy.reconcile()` from a cron instead).
   */
  reconcileEveryMs?: number;
  /** Payment methods the browser may ask for. Default ['upi', 'sbp', 'c2c']. */
  methods?: readonly string[];
  /** Exact origins (`https://shop.example`) allowed to call the proxy from another origin. Default none. */
  allowedOrigins?: readonly string[];
  /** Shared state. Default: an in-memory store (one process). */
  store?: ProxyStore;
  limits?: Partial<ProxyLimits>;
  timeouts?: Partial<ProxyTimeouts>;
  /**
   * The fetch used for the service (tests inject one). Default globalThis.fetch, except that on Node the signed
   * POSTs then go over node:http(s) with kept-alive sockets (node-transport.ts).
   */
  fetch?: typeof fetch;
  clock?: Clock;
  /** Random numbers in [0, 1) for retry jitter. */
  random?: () => number;
  /**
   * Where the proxy's lines go. Default consoleLogger. A line repeated word for word (level, message and fields)
   * within a minute reaches it once, then as its count a minute later (`repeats`, `inLastSeconds`), so that nobody
   * outside can flood it (infrastructure/folded-repeats.ts).
   */
  logger?: ProxyLogger;
  /**
   * Who a request comes from, for per-client limits. Default: the address given as `proxy(request,
   * {clientAddress})`, else the peer address toNodeListener attached. Undefined means "unknown": the limits then
   * apply per order and per payment instead, never to the whole shop as one client. An address answered here is
   * counted like the default's: an IPv6 one by its /64, a port after it left out.
   */
  clientId?: (request: Request) => string | undefined;
  /** Where PAYIN_* variables are read. Default `globalThis.process?.env`. */
  env?: Record<string, string | undefined>;
  /**
   * The operator's console at `{basePath}/console`: every payment, its timeline, re-check and redeliver. Off when
   * absent. `authorizeOperator(request)` decides who may enter (the shop's own session or SSO); for a shared
   * token with a login form, pass `consoleTokenAuth(token)`.
   */
  console?: ConsoleOptions;
}

export interface ProxyLimits {
  bodyBytes: number;
  callbackBodyBytes: number;
  createsPerMinute: number;
  statusPerMinute: number;
  /** Bank logos fetched through the proxy (a bank chooser shows a few dozen; the browser keeps them a day). */
  logosPerMinute: number;
  streamsPerClient: number;
}

export interface ProxyTimeouts {
  /** One create request to the service. */
  createMs: number;
  /** One status request to the service. */
  statusMs: number;
  /** All attempts of a status lookup together, retries included. */
  statusDeadlineMs: number;
  /**
   * Status requests for one payment arriving this soon after an answer share it. The default is the element's
   * poll interval, so that any number of pollers cost at most one status call to the service per interval; a
   * callback still reaches every poller at once, since the store answers them. A failed call is shared as long, so
   * that pollers of a payment cost a service that is down one call per window too (ledger.ts, `refresh`). The copies
   * of one callback (the same signed bytes) that need a status call share it, or its failure, for as long
   * (use-cases/callback-confirmations.ts).
   */
  coalesceMs: number;
  /** Comment lines on open event streams, and a status refresh while the payment is open. */
  pingMs: number;
  /** An event stream is closed after this long; the browser reconnects with Last-Event-ID. */
  streamMaxMs: number;
  /** How long an order's claim may be held by a create that crashed. */
  claimLeaseMs: number;
  /**
   * How long one call of onPaymentUpdate may run. Past it the call counts as failed (in the log and the payment's
   * timeline), its `info.signal` is aborted, it is retried with backoff, and what it answers later is ignored: a hook
   * hung on an HTTP call without a timeout would otherwise hold its announcement, and the reconcile sweep that made
   * it, for good.
   */
  hookMs: number;
  /** How long one call of onPaymentUpdate may hold its announcement before another instance may try it. */
  hookLeaseMs: number;
  /** How long one reconcile sweep may hold the sweep lease. */
  sweepLeaseMs: number;
  /**
   * How long past its expiry an open payment is still followed, for late payments (then until the service answers
   * once more, or, while the service is still checking it, a window at a time until it decides).
   */
  lateGraceMs: number;
}

export const DEFAULT_LIMITS: ProxyLimits = {
  bodyBytes: 16 * 1024,
  callbackBodyBytes: 64 * 1024,
  createsPerMinute: 30,
  statusPerMinute: 600,
  logosPerMinute: 300,
  streamsPerClient: 10,
};

export const DEFAULT_TIMEOUTS: ProxyTimeouts = {
  createMs: 15_000,
  statusMs: 5_000,
  statusDeadlineMs: 10_000,
  coalesceMs: 3_000,
  pingMs: 8_000,
  streamMaxMs: 30 * 60_000,
  claimLeaseMs: 60_000,
  hookMs: 30_000,
  hookLeaseMs: 5 * 60_000,
  sweepLeaseMs: 5 * 60_000,
  lateGraceMs: 30 * 60_000,
};
