/**
 * Everything `createSandbox` can be told, documented where it is declared, and the one function that fills in
 * the defaults and refuses a configuration that could only fail later (an empty secret, two merchants sharing a
 * token). The demo merchant's credentials are public on purpose: they let a shop try the checkout without an
 * account, and they mean nothing to a real payment service.
 */
import { systemClock, type Clock } from '../shared/clock.js';
import type { Faults } from './faults.js';

export interface SandboxMerchant {
  /** The `merchantId` the merchant puts in every request body. */
  id: string;
  /** The token of `Authorization: Bearer <token>`. */
  token: string;
  /** The HMAC-SHA256 key of every signature: requests, answers and callbacks. */
  secret: string;
  /**
   * False emulates a merchant the service holds no secret for: its answers and callbacks carry an EMPTY
   * `Signature` header, which a receiver must refuse. Its requests are still checked. Default true.
   */
  signAnswers?: boolean;
  /** The `userId` of its payments when a create request has no `payer.userId`. Default "1001". */
  userId?: string;
}

/** Public demo credentials, printed by the CLI and used when no merchants are configured. */
export const DEMO_MERCHANT = Object.freeze({
  id: 'demo-merchant',
  token: 'demo-token',
  secret: 'demo-secret',
}) satisfies SandboxMerchant;

export type SbpShape = 'phone' | 'c2b' | 'both';
export const SBP_SHAPES: readonly SbpShape[] = ['phone', 'c2b', 'both'];

export interface SandboxOptions {
  /** Who may call the API. Default: the demo merchant alone. */
  merchants?: readonly SandboxMerchant[];
  /**
   * The sandbox's public base URL (no trailing slash), used for the hosted payment page link. When it is set,
   * the request's Host header is never trusted; without it the base comes from the request URL.
   */
  publicUrl?: string;
  /** Seconds from creation to `expired_at`. Default 900. */
  ttlSeconds?: number;
  /** How long a payment stays `created` before requisites are assigned and it turns `pending`. Default 1000. */
  requisitesDelayMs?: number;
  /** Time for expiry, requisites and callback retries; tests pass a ManualClock. Default the system clock. */
  clock?: Clock;
  /** Randomness in [0, 1) for requisites and fault rates; tests pass their own to be deterministic. */
  random?: () => number;
  /** Used to deliver callbacks. Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Attempts per callback before giving up. Default 8. */
  callbackAttempts?: number;
  /** Delay before the first retry; it doubles after each failed attempt. Default 1000. */
  callbackRetryDelayMs?: number;
  /**
   * An attempt with no answer after this long counts as failed. Measured on `clock`, and at least the smaller of
   * this and 1 s of real time, so that a test moving its clock minutes ahead at once does not time out a callback
   * its server answers over the network in a few milliseconds. Default 10000.
   */
  callbackTimeoutMs?: number;
  /** How long the `reorderCallbacks` fault holds back the callback of a non-final state. Default 3000. */
  reorderDelayMs?: number;
  /** 'envelope' (default): the documented `{status, result, url}` answer; 'payment': a bare Payment object. */
  createAnswer?: 'envelope' | 'payment';
  /** Put a well-formed (fake) qr.nspk.ru link in `media` of sbp payments: the same as `sbpShape: 'c2b'`. */
  sbpQr?: boolean;
  /**
   * What an sbp payment hands over: 'phone' a phone number, bank and recipient (the default); 'c2b' those and a
   * C2B link `https://qr.nspk.ru/<ID>?type=02&...` in `media`; 'both' alternates, the first sbp payment 'c2b'.
   */
  sbpShape?: SbpShape;
  /**
   * How many payments to keep: past it the oldest final payments are forgotten, so that a sandbox left running
   * (a demo, a shop's CI) does not grow without end. Open payments are never dropped. Default 10000.
   */
  maxPayments?: number;
  /** The `rate` field of every payment. Default 1. */
  rate?: number;
  /** Commission in percent of the amount; `amount_commission_less` is what remains. Default 0. */
  commissionPercent?: number;
  /** Faults in force from the start (see faults.ts). Default none. */
  faults?: Partial<Faults>;
  /** Told about unexpected errors (a bug, never bad input); the client gets a bare 500 either way. */
  onError?: (error: unknown) => void;
}

export interface ResolvedOptions {
  merchants: readonly Required<SandboxMerchant>[];
  publicUrl: string | undefined;
  ttlMs: number;
  requisitesDelayMs: number;
  clock: Clock;
  random: () => number;
  fetch: typeof fetch;
  callbackAttempts: number;
  callbackRetryDelayMs: number;
  callbackTimeoutMs: number;
  reorderDelayMs: number;
  createAnswer: 'envelope' | 'payment';
  sbpShape: SbpShape;
  maxPayments: number;
  rate: number;
  commissionPercent: number;
  onError: (error: unknown) => void;
}

function count(name: string, value: number | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new RangeError(`createSandbox: ${name} must be a number from ${min} to ${max}, got ${v}`);
  }
  return v;
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const merchants = (options.merchants?.length ? options.merchants : [DEMO_MERCHANT]).map((m) => {
    for (const key of ['id', 'token', 'secret'] as const) {
      if (typeof m[key] !== 'string' || m[key].trim() === '') {
        throw new TypeError(`createSandbox: every merchant needs a non-empty ${key}`);
      }
    }
    return { signAnswers: true, userId: '1001', ...m };
  });
  for (const key of ['id', 'token'] as const) {
    if (new Set(merchants.map((m) => m[key])).size !== merchants.length) {
      throw new TypeError(`createSandbox: two merchants share one ${key}`);
    }
  }
  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    const url = new URL(options.publicUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('createSandbox: publicUrl must be http(s)');
    publicUrl = url.href.replace(/\/+$/, '');
  }
  return {
    merchants,
    publicUrl,
    ttlMs: count('ttlSeconds', options.ttlSeconds, 900, 1) * 1000,
    requisitesDelayMs: count('requisitesDelayMs', options.requisitesDelayMs, 1000, 0),
    clock: options.clock ?? systemClock,
    random: options.random ?? Math.random,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    callbackAttempts: Math.floor(count('callbackAttempts', options.callbackAttempts, 8, 1)),
    callbackRetryDelayMs: count('callbackRetryDelayMs', options.callbackRetryDelayMs, 1000, 0),
    callbackTimeoutMs: count('callbackTimeoutMs', options.callbackTimeoutMs, 10_000, 1),
    reorderDelayMs: count('reorderDelayMs', options.reorderDelayMs, 3000, 0),
    createAnswer: options.createAnswer === 'payment' ? 'payment' : 'envelope',
    sbpShape: sbpShapeOf(options),
    maxPayments: Math.floor(count('maxPayments', options.maxPayments, 10_000, 1)),
    rate: count('rate', options.rate, 1, 0),
    commissionPercent: count('commissionPercent', options.commissionPercent, 0, 0, 100),
    onError: options.onError ?? (() => {}),
  };
}

function sbpShapeOf(options: SandboxOptions): SbpShape {
  const shape = options.sbpShape ?? (options.sbpQr ? 'c2b' : 'phone');
  if (!SBP_SHAPES.includes(shape))
    throw new TypeError(`createSandbox: sbpShape must be one of ${SBP_SHAPES.join(', ')}, got ${String(shape)}`);
  return shape;
}
