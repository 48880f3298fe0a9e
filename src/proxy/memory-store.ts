/**
 * The default store: everything in this process's memory, for a shop that runs one proxy instance. Every map is
 * bounded (the oldest entry goes first when full) and every entry expires, so that a stream of orders or of
 * abusive clients cannot grow the process without limit. Listeners are called asynchronously, like a real
 * pub/sub, so that code written against this store does not come to rely on synchronous delivery.
 */
import { systemClock, type Clock } from '../server/clock.js';
import type { OrderRecord, PaymentRecord, ProxyStore } from './store.js';

export interface MemoryStoreOptions {
  clock?: Clock;
  /** How long payments, orders and announcements are kept after their last write. Default 24 hours. */
  ttlMs?: number;
  /** Entries per kind (payments, orders, claims, counters) before the oldest are dropped. Default 10,000. */
  maxEntries?: number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/** A Map with expiry and a size bound; re-setting a key moves it to the young end. */
class ExpiringMap<T> {
  #map = new Map<string, Entry<T>>();
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries: number,
  ) {}

  get(key: string): T | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock.now()) {
      this.#map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: T, ttlMs: number): void {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt: this.clock.now() + ttlMs });
    while (this.#map.size > this.maxEntries) this.#map.delete(this.#map.keys().next().value!);
  }

  delete(key: string): void {
    this.#map.delete(key);
  }
}

type Announcement = { committed: boolean };

/** One map key per (payment, state) pair. */
const announcementKey = (paymentId: string, state: string) => `${paymentId}\u0000${state}`;

export class MemoryStore implements ProxyStore {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #payments: ExpiringMap<PaymentRecord>;
  readonly #orders: ExpiringMap<OrderRecord>;
  readonly #claims: ExpiringMap<string>;
  readonly #announcements: ExpiringMap<Announcement>;
  readonly #counters: ExpiringMap<number>;
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  constructor(options: MemoryStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    const max = options.maxEntries ?? 10_000;
    this.#payments = new ExpiringMap(this.#clock, max);
    this.#orders = new ExpiringMap(this.#clock, max);
    this.#claims = new ExpiringMap(this.#clock, max);
    this.#announcements = new ExpiringMap(this.#clock, max);
    this.#counters = new ExpiringMap(this.#clock, max);
  }

  async claimOrder(orderId: string, owner: string, leaseMs: number): Promise<boolean> {
    if (this.#claims.get(orderId) !== undefined) return false;
    this.#claims.set(orderId, owner, leaseMs);
    return true;
  }

  async releaseOrder(orderId: string, owner: string): Promise<void> {
    if (this.#claims.get(orderId) === owner) this.#claims.delete(orderId);
  }

  async getOrder(orderId: string): Promise<OrderRecord | undefined> {
    return clone(this.#orders.get(orderId));
  }

  async putOrder(order: OrderRecord): Promise<void> {
    this.#orders.set(order.orderId, clone(order), this.#ttlMs);
  }

  async getPayment(id: string): Promise<PaymentRecord | undefined> {
    return clone(this.#payments.get(id));
  }

  async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    const current = this.#payments.get(record.view.id);
    if ((current?.version ?? 0) !== expectedVersion) return false;
    this.#payments.set(record.view.id, clone(record), this.#ttlMs);
    return true;
  }

  async claimAnnouncement(paymentId: string, state: string, leaseMs: number): Promise<boolean> {
    const key = announcementKey(paymentId, state);
    if (this.#announcements.get(key)) return false;
    this.#announcements.set(key, { committed: false }, leaseMs);
    return true;
  }

  async commitAnnouncement(paymentId: string, state: string): Promise<void> {
    this.#announcements.set(announcementKey(paymentId, state), { committed: true }, this.#ttlMs);
  }

  async releaseAnnouncement(paymentId: string, state: string): Promise<void> {
    const key = announcementKey(paymentId, state);
    if (this.#announcements.get(key)?.committed === false) this.#announcements.delete(key);
  }

  async count(key: string, delta: number, ttlMs: number): Promise<number> {
    const value = (this.#counters.get(key) ?? 0) + delta;
    this.#counters.set(key, value, ttlMs);
    return value;
  }

  async publish(channel: string, message: string): Promise<void> {
    const listeners = this.#channels.get(channel);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      queueMicrotask(() => {
        try {
          listener(message);
        } catch {
          // One broken subscriber must not keep the message from the others.
        }
      });
    }
  }

  async subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    const own = (message: string) => listener(message);
    listeners.add(own);
    return async () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /** Open subscriptions, for tests that check that streams let go of theirs. */
  get subscriptionCount(): number {
    let n = 0;
    for (const set of this.#channels.values()) n += set.size;
    return n;
  }
}

/** Callers get copies, as they would from a real store: mutating a read record must not change the stored one. */
function clone<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

export function createMemoryStore(options?: MemoryStoreOptions): MemoryStore {
  return new MemoryStore(options);
}
