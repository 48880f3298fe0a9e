/**
 * Whether the proxy's store can be used now, for health routes (the standalone server's `/healthz`, a shop's own
 * route through `proxy.checkStore()`). A load balancer that keeps sending shoppers to an instance whose database
 * is gone loses their payments to error screens; one that asks this sends them elsewhere.
 *
 * The answer comes from the store's optional `ping()` (one cheap round trip), bounded by a timeout so that a
 * hanging store never hangs the check. A health route must not become a way to hammer the database: checks asked
 * while one is under way share it, and an answer is kept for `freshMs` (about a second) before the next round
 * trip. A store without `ping()` (a shop's own) is reported as not checked, never as healthy or unhealthy. The log
 * hears of a change (ok -> unreachable and back), not of every check.
 */
import { type Clock, within } from '../../shared/clock.js';
import { describe } from '../http/errors.js';
import type { ProxyLogger } from '../logger.js';
import { storeName } from './store-failure.js';
import type { ProxyStore } from './store.js';

export type StoreState = 'ok' | 'unreachable' | 'unchecked';

/** A health answer: `ok` is false only when the store is unreachable (a store that cannot be checked is not). */
export interface StoreCheck {
  ok: boolean;
  store: StoreState;
}

export interface StoreHealthOptions {
  clock: Clock;
  logger: ProxyLogger;
  /** How long a ping may take before the store counts as unreachable. Default 2 s. */
  timeoutMs?: number;
  /** How long an answer is reused before the store is asked again. Default 1 s. */
  freshMs?: number;
}

export class StoreHealth {
  readonly #store: ProxyStore;
  readonly #options: Required<StoreHealthOptions>;
  #pending: Promise<StoreCheck> | undefined;
  #last: { at: number; check: StoreCheck } | undefined;

  constructor(store: ProxyStore, options: StoreHealthOptions) {
    this.#store = store;
    this.#options = { timeoutMs: 2_000, freshMs: 1_000, ...options };
  }

  /** The store's state: from the last answer while it is fresh, else from one round trip shared by all who ask. */
  check(): Promise<StoreCheck> {
    const { clock, freshMs } = this.#options;
    if (this.#last && clock.now() - this.#last.at < freshMs) return Promise.resolve(this.#last.check);
    this.#pending ??= this.#probe().then((check) => {
      this.#pending = undefined;
      this.#last = { at: clock.now(), check };
      return check;
    });
    return this.#pending;
  }

  async #probe(): Promise<StoreCheck> {
    const store = this.#store;
    if (typeof store.ping !== 'function') return { ok: true, store: 'unchecked' };
    const failure = await this.#pingWithin(store.ping.bind(store));
    const check: StoreCheck = failure === undefined ? { ok: true, store: 'ok' } : { ok: false, store: 'unreachable' };
    const before = this.#last?.check.store;
    if (failure !== undefined && before !== 'unreachable') {
      this.#options.logger.error(`the ${storeName(store)} store is unreachable; health checks answer 503`, { error: failure });
    } else if (failure === undefined && before === 'unreachable') {
      this.#options.logger.info(`the ${storeName(store)} store is reachable again`);
    }
    return check;
  }

  /** Undefined when the ping succeeded in time; else what went wrong, in words for the log. */
  async #pingWithin(ping: () => Promise<void>): Promise<string | undefined> {
    const { clock, timeoutMs } = this.#options;
    let failure: string | undefined;
    const failed = (error: unknown) => {
      failure = describe(error) ?? 'failed';
    };
    let pinged: Promise<void>;
    try {
      pinged = ping().catch(failed);
    } catch (error) {
      // A ping that throws at once failed as one that rejects does.
      pinged = Promise.resolve(failed(error));
    }
    return (await within(clock, pinged, timeoutMs)) ? failure : `no answer within ${timeoutMs} ms`;
  }
}
