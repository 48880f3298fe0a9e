/**
 * The behaviour every ProxyStore must have, as one suite that each implementation runs (memory, SQLite, Redis and
 * PostgreSQL): `describeStoreContract(name, makeStore)`. `makeStore` gets a ManualClock when the store
 * can use one; a store that keeps its own time (Redis) gets real waits instead, through `wait`.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import type { PaymentRecord, ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import { consoleContract } from './console-store-contract.js';

export interface StoreFixture {
  store: ProxyStore;
  /** Lets `ms` of store time pass (a ManualClock's advance, or a real sleep). */
  wait(ms: number): Promise<void>;
  close?(): Promise<void>;
}

export type MakeStore = (clock: ManualClock) => StoreFixture | Promise<StoreFixture>;

/** A payment record as the proxy stores it, for store tests. */
export function record(id: string, version: number, state = 'pending'): PaymentRecord {
  return {
    view: { id, orderId: 'A-1', method: 'upi', state, outcome: 'waiting', final: false, amount: '250.00', currency: 'INR' },
    priced: { amount: '250.00', currency: 'INR' },
    version,
    updatedAt: 0,
  };
}

export function describeStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name} (store contract)`, () => {
    const fixture = async () => makeStore(new ManualClock());
    const unique = () => `k-${Math.random().toString(36).slice(2)}`;

    consoleContract(fixture);

    it('answers a ping while it can be used, so that health checks can tell it is up', async () => {
      const { store, close } = await fixture();
      expect(typeof store.ping).toBe('function');
      await expect(store.ping!()).resolves.toBeUndefined();
      await close?.();
    });

    it('lets exactly one of many concurrent claimers hold an order', async () => {
      const { store, close } = await fixture();
      const order = unique();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim(order, `owner-${i}`, 10_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
      await close?.();
    });

    it('releases a claim only for its owner', async () => {
      const { store, close } = await fixture();
      const order = unique();
      expect(await store.claim(order, 'a', 10_000)).toBe(true);
      await store.release(order, 'b');
      expect(await store.claim(order, 'b', 10_000)).toBe(false);
      await store.release(order, 'a');
      expect(await store.claim(order, 'b', 10_000)).toBe(true);
      await close?.();
    });

    it('lets a claim lapse after its lease, so a crashed create never locks an order for good', async () => {
      const { store, wait, close } = await fixture();
      const order = unique();
      expect(await store.claim(order, 'crashed', 200)).toBe(true);
      await wait(300);
      expect(await store.claim(order, 'next', 10_000)).toBe(true);
      await close?.();
    });

    it('renews a claim for its owner only, so a create at work keeps its order and a lapsed one gets nothing back', async () => {
      const { store, wait, close } = await fixture();
      expect(typeof store.extend).toBe('function');
      const order = unique();
      expect(await store.claim(order, 'working', 400)).toBe(true);
      expect(await store.extend!(order, 'other', 10_000)).toBe(false);
      await wait(250);
      expect(await store.extend!(order, 'working', 400)).toBe(true);
      await wait(250); // past the first term, within the renewed one
      expect(await store.claim(order, 'other', 10_000)).toBe(false);
      await wait(300);
      expect(await store.extend!(order, 'working', 10_000)).toBe(false);
      expect(await store.claim(order, 'other', 10_000)).toBe(true);
      expect(await store.extend!(order, 'working', 10_000)).toBe(false);
      await close?.();
    });

    it('keeps orders and payments, and no change to a record written or read reaches the stored one', async () => {
      const { store, close } = await fixture();
      const id = unique();
      await store.putOrder({ orderId: id, payments: [{ id: 'p1', method: 'upi' }] });
      expect(await store.getOrder(id)).toEqual({ orderId: id, payments: [{ id: 'p1', method: 'upi' }] });
      expect(await store.getOrder(unique())).toBeUndefined();
      const written = record(id, 1);
      written.view.requisites = { address: 'payee@okdemo' };
      expect(await store.putPayment(written, 0)).toBe(true);
      written.view.state = 'expired';
      const read = (await store.getPayment(id))!;
      expect(read.view.state).toBe('pending');
      // A store hands out a copy, or a frozen record that refuses the change (the memory store shares one).
      try {
        read.view.state = 'finished';
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      try {
        read.view.requisites!.address = 'changed@okdemo';
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      const again = (await store.getPayment(id))!;
      expect(again.view.state).toBe('pending');
      expect(again.view.requisites!.address).not.toBe('changed@okdemo');
      await close?.();
    });

    it('writes a payment only over the version that was read', async () => {
      const { store, close } = await fixture();
      const id = unique();
      expect(await store.putPayment(record(id, 1), 0)).toBe(true);
      expect(await store.putPayment(record(id, 1), 0)).toBe(false);
      const writes = await Promise.all([store.putPayment(record(id, 2, 'in_check'), 1), store.putPayment(record(id, 2, 'expired'), 1)]);
      expect(writes.filter(Boolean)).toHaveLength(1);
      expect(await store.putPayment(record(id, 3), 1)).toBe(false);
      expect((await store.getPayment(id))!.version).toBe(2);
      await close?.();
    });

    it('reads a payment at once (getPaymentNow, where the store has it) exactly as getPayment reads it', async (test) => {
      const { store, close } = await fixture();
      if (!store.getPaymentNow) {
        await close?.();
        test.skip();
        return;
      }
      const id = unique();
      expect(store.getPaymentNow(id)).toBeUndefined();
      expect(await store.putPayment(record(id, 1), 0)).toBe(true);
      expect(store.getPaymentNow(id)).toEqual(await store.getPayment(id));
      expect(await store.putPayment(record(id, 2, 'finished'), 1)).toBe(true);
      const read = store.getPaymentNow(id)!;
      expect(read).toEqual(await store.getPayment(id));
      expect(read.version).toBe(2);
      try {
        read.view.state = 'expired';
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
      }
      expect(store.getPaymentNow(id)!.view.state).toBe('finished');
      await close?.();
    });

    it('writes a payment and queues its announcement in one step (putPaymentAndEnqueue, where the store has it)', async (test) => {
      const { store, close } = await fixture();
      if (!store.putPaymentAndEnqueue) {
        await close?.();
        test.skip();
        return;
      }
      const id = unique();
      const mine = async () => (await store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 10_000)).filter((e) => e.paymentId === id);
      expect(await store.putPaymentAndEnqueue(record(id, 1), 0, 10)).toBe(true);
      expect(await mine()).toEqual([{ paymentId: id, state: 'pending', attempts: 0, dueAt: 10 }]);
      // The version moved: neither the payment nor an announcement is written.
      expect(await store.putPaymentAndEnqueue(record(id, 2, 'expired'), 5, 20)).toBe(false);
      expect((await store.getPayment(id))!.version).toBe(1);
      expect((await mine()).map((e) => e.state)).toEqual(['pending']);
      // A state announced before is not queued again; the payment is still written.
      await store.enqueueAnnouncement(id, 'finished', 0);
      await store.commitAnnouncement(id, 'finished');
      expect(await store.putPaymentAndEnqueue({ ...record(id, 2, 'finished'), followUntil: 99 }, 1, 30)).toBe(true);
      expect((await store.getPayment(id))!.view.state).toBe('finished');
      expect((await mine()).map((e) => e.state)).toEqual(['pending']);
      expect(await store.followedPayments(10_000)).toContain(id);
      const concurrent = await Promise.all([
        store.putPaymentAndEnqueue(record(id, 3, 'in_check'), 2, 40),
        store.putPaymentAndEnqueue(record(id, 3, 'dispute'), 2, 40),
      ]);
      expect(concurrent.filter(Boolean)).toHaveLength(1);
      expect((await mine()).map((e) => e.state).sort()).toEqual(['pending', concurrent[0] ? 'in_check' : 'dispute'].sort());
      await close?.();
    });

    it('queues an announcement once, and never again after it was committed', async () => {
      const { store, close } = await fixture();
      const id = unique();
      const first = await Promise.all([1, 2, 3].map(() => store.enqueueAnnouncement(id, 'finished', 0)));
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await store.enqueueAnnouncement(id, 'pending', 0)).toBe(true);
      expect(await store.claimAnnouncement(id, 'finished', 10_000)).toMatchObject({ paymentId: id, state: 'finished', attempts: 0 });
      await store.commitAnnouncement(id, 'finished');
      expect(await store.wasAnnounced(id, 'finished')).toBe(true);
      expect(await store.wasAnnounced(id, 'pending')).toBe(false);
      expect(await store.enqueueAnnouncement(id, 'finished', 0)).toBe(false);
      expect(await store.claimAnnouncement(id, 'finished', 10_000)).toBeUndefined();
      await close?.();
    });

    it('hands an outbox entry to exactly one of many concurrent claimers', async () => {
      const { store, close } = await fixture();
      const id = unique();
      await store.enqueueAnnouncement(id, 'finished', 0);
      const claims = await Promise.all(Array.from({ length: 10 }, () => store.claimAnnouncement(id, 'finished', 10_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimAnnouncement(unique(), 'finished', 10_000)).toBeUndefined();
      await close?.();
    });

    it('reschedules a failed delivery: attempts grow, the entry is due again later, and the claim is given back', async () => {
      const { store, close } = await fixture();
      const id = unique();
      await store.enqueueAnnouncement(id, 'finished', 0);
      expect(await store.claimAnnouncement(id, 'finished', 10_000)).toBeDefined();
      const due = async (now: number) => (await store.dueAnnouncements(now, 1_000)).filter((e) => e.paymentId === id);
      expect(await due(1)).toEqual([]); // held
      await store.rescheduleAnnouncement(id, 'finished', 5_000);
      expect(await due(4_999)).toEqual([]);
      expect(await due(5_000)).toEqual([{ paymentId: id, state: 'finished', attempts: 1, dueAt: 5_000 }]);
      expect(await store.claimAnnouncement(id, 'finished', 10_000)).toMatchObject({ attempts: 1 });
      await close?.();
    });

    it('reschedules a delivery that waited for its busy order without counting it an attempt', async () => {
      const { store, close } = await fixture();
      const id = unique();
      await store.enqueueAnnouncement(id, 'finished', 0);
      await store.claimAnnouncement(id, 'finished', 10_000);
      await store.rescheduleAnnouncement(id, 'finished', 5_000); // the hook failed once
      await store.claimAnnouncement(id, 'finished', 10_000);
      await store.rescheduleAnnouncement(id, 'finished', 6_000, false); // then its order was busy
      const due = (await store.dueAnnouncements(6_000, 1_000)).filter((e) => e.paymentId === id);
      expect(due).toEqual([{ paymentId: id, state: 'finished', attempts: 1, dueAt: 6_000 }]);
      await close?.();
    });

    it('leaves a held entry out of the due list, whatever time the list is asked for', async () => {
      // The outbox asks for the next entry of all (due at the end of time) to set its retry timer: a held one, whose
      // due time has passed, would have it wake at once, again and again, for as long as the hook runs.
      const { store, close } = await fixture();
      const id = unique();
      await store.enqueueAnnouncement(id, 'finished', 0);
      expect(await store.claimAnnouncement(id, 'finished', 10_000)).toBeDefined();
      const due = await store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 1_000);
      expect(due.filter((e) => e.paymentId === id)).toEqual([]);
      await close?.();
    });

    it('lists due entries oldest first, and lets a held entry lapse after its lease', async () => {
      const { store, wait, close } = await fixture();
      const [a, b] = [unique(), unique()];
      await store.enqueueAnnouncement(a, 'pending', 20);
      await store.enqueueAnnouncement(b, 'pending', 10);
      const ids = (await store.dueAnnouncements(Number.MAX_SAFE_INTEGER, 1_000)).map((e) => e.paymentId).filter((x) => x === a || x === b);
      expect(ids).toEqual([b, a]);
      expect(await store.claimAnnouncement(a, 'pending', 200)).toBeDefined();
      expect(await store.claimAnnouncement(a, 'pending', 200)).toBeUndefined();
      await wait(300);
      expect(await store.claimAnnouncement(a, 'pending', 200)).toBeDefined();
      await close?.();
    });

    it('extends a held outbox entry while its deliverer works, and not one whose lease lapsed', async () => {
      const { store, wait, close } = await fixture();
      const id = unique();
      await store.enqueueAnnouncement(id, 'finished', 0);
      expect(await store.extendAnnouncement(id, 'finished', 1_000)).toBe(false); // not held
      expect(await store.claimAnnouncement(id, 'finished', 1_000)).toBeDefined();
      await wait(500);
      expect(await store.extendAnnouncement(id, 'finished', 1_000)).toBe(true);
      await wait(700); // past the first lease, inside the extended one
      expect(await store.claimAnnouncement(id, 'finished', 1_000)).toBeUndefined();
      await wait(1_000);
      expect(await store.extendAnnouncement(id, 'finished', 1_000)).toBe(false); // lapsed: the deliverer is taken for gone
      expect(await store.claimAnnouncement(id, 'finished', 1_000)).toBeDefined();
      expect(await store.extendAnnouncement(unique(), 'finished', 1_000)).toBe(false);
      await close?.();
    });

    it('keeps a follow index of payments with followUntil, in id order, paged', async () => {
      const { store, close } = await fixture();
      const prefix = unique();
      const ids = ['c', 'a', 'b', 'd'].map((x) => `${prefix}-${x}`);
      for (const id of ids) expect(await store.putPayment({ ...record(id, 1), followUntil: 1_000 }, 0)).toBe(true);
      const mine = (list: string[]) => list.filter((id) => id.startsWith(prefix));
      expect(mine(await store.followedPayments(10_000))).toEqual([...ids].sort());
      const firstPage = mine(await store.followedPayments(10_000)).slice(0, 2);
      expect(mine(await store.followedPayments(2, `${prefix}-b`))).toEqual([`${prefix}-c`, `${prefix}-d`]);
      expect(firstPage).toEqual([`${prefix}-a`, `${prefix}-b`]);
      // A record written without followUntil leaves the index.
      expect(await store.putPayment(record(`${prefix}-a`, 2, 'finished'), 1)).toBe(true);
      expect(mine(await store.followedPayments(10_000))).toEqual([`${prefix}-b`, `${prefix}-c`, `${prefix}-d`]);
      await close?.();
    });

    it('keeps an order paidBy and the rest of the order record', async () => {
      const { store, close } = await fixture();
      const id = unique();
      await store.putOrder({ orderId: id, payments: [{ id: 'p1', method: 'upi' }], paidBy: 'p1' });
      expect(await store.getOrder(id)).toEqual({ orderId: id, payments: [{ id: 'p1', method: 'upi' }], paidBy: 'p1' });
      await close?.();
    });

    it('counts atomically and forgets a counter after its expiry', async () => {
      const { store, wait, close } = await fixture();
      const key = unique();
      const values = await Promise.all(Array.from({ length: 10 }, () => store.count(key, 1, 500)));
      expect([...values].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await store.count(key, -3, 500)).toBe(7);
      await wait(600);
      expect(await store.count(key, 1, 500)).toBe(1);
      await close?.();
    });

    it('counts at once (countNow, where the store has it) on the same counters as count, with the same expiry', async (test) => {
      const { store, wait, close } = await fixture();
      if (!store.countNow) {
        await close?.();
        test.skip();
        return;
      }
      const key = unique();
      expect(await store.count(key, 1, 500)).toBe(1);
      expect(store.countNow(key, 1, 500)).toBe(2);
      expect(await store.count(key, 1, 500)).toBe(3);
      await wait(600);
      expect(store.countNow(key, 1, 500)).toBe(1);
      expect(await store.count(key, -1, 500)).toBe(0);
      await close?.();
    });

    it('delivers published messages to live subscribers of the channel only', async () => {
      const { store, close } = await fixture();
      const channel = unique();
      const got: string[] = [];
      const other: string[] = [];
      const stop = await store.subscribe(channel, (m) => got.push(m));
      const stopOther = await store.subscribe(unique(), (m) => other.push(m));
      await store.publish(channel, 'one');
      for (let i = 0; i < 200 && got.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
      await stop();
      await store.publish(channel, 'two');
      await new Promise((r) => setTimeout(r, 50));
      expect(got).toEqual(['one']);
      expect(other).toEqual([]);
      await stopOther();
      await close?.();
    });
  });
}
