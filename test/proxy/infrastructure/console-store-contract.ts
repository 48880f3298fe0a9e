/**
 * The console's part of the store contract (src/proxy/console-store.ts), run by describeStoreContract on every
 * store: listing newest first with a cursor, filters by outcome and trouble, by order, counts, timelines and the
 * operator audit log.
 */
import { expect, it } from 'vitest';
import { isConsoleStore, type ConsoleStore } from '../../../src/proxy/infrastructure/console-store.js';
import type { PaymentRecord, ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import { markContradicted, markResolved } from '../../../src/proxy/ledger/contradiction-marks.js';
import { markRefunded } from '../../../src/proxy/ledger/refund-marks.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import type { StoreFixture } from './store-contract.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What a release before the contradiction marks wrote: 'late-money', whose timeline noted two contradictions (the
 * newest: finished, at 900), and 'quiet', whose timeline only mentions the word. Upgraded, a store marks the first.
 */
export async function writeNotedContradictions(store: ProxyStore & ConsoleStore): Promise<void> {
  await store.putPayment(listed('late-money', 10, { outcome: 'expired' }), 0);
  await store.putPayment(listed('quiet', 11, { outcome: 'expired' }), 0);
  const line = { kind: 'contradiction', state: 'finished', recorded: 'expired', outcome: 'expired' } as const;
  await store.appendHistory('late-money', { at: 500, ...line, state: 'dispute' });
  await store.appendHistory('late-money', { at: 900, ...line });
  await store.appendHistory('quiet', { at: 600, kind: 'announcement', state: 'expired', ok: false, error: 'no "contradiction" here' });
}

/** A payment as the ledger stores it: listed at `listedAt`, expiring an hour later unless said otherwise. */
export function listed(
  id: string,
  listedAt: number,
  extra: {
    outcome?: string;
    orderId?: string;
    expiresAt?: number;
    finalAt?: number;
    secondPaymentOf?: string;
    refunded?: PaymentRecord['refunded'];
    version?: number;
  } = {},
): PaymentRecord {
  const outcome = (extra.outcome ?? 'waiting') as PaymentRecord['view']['outcome'];
  const final = outcome !== 'waiting' && outcome !== 'checking';
  const state = { waiting: 'pending', checking: 'in_check', paid: 'finished', underpaid: 'finished', superseded: 'finished' }[
    outcome as string
  ];
  return {
    view: {
      id,
      orderId: extra.orderId ?? `order-${id}`,
      method: 'upi',
      state: state ?? outcome,
      outcome,
      final,
      amount: '250.00',
      currency: 'INR',
      createdAt: iso(listedAt),
      expiresAt: iso(extra.expiresAt ?? listedAt + 3_600_000),
    },
    priced: { amount: '250.00', currency: 'INR' },
    version: extra.version ?? 1,
    updatedAt: listedAt,
    listedAt,
    ...(extra.finalAt === undefined ? {} : { finalAt: extra.finalAt }),
    ...(extra.secondPaymentOf === undefined ? {} : { secondPaymentOf: extra.secondPaymentOf }),
    ...(extra.refunded === undefined ? {} : { refunded: extra.refunded }),
  };
}

type Fixture = () => Promise<StoreFixture>;

const ids = (records: PaymentRecord[]) => records.map((r) => r.view.id);

export function consoleContract(fixture: Fixture): void {
  /**
   * A test of the console's operations. Every store the contract runs on implements them (memory, SQLite, Redis,
   * PostgreSQL), so a store without them fails here rather than being skipped: the console would refuse it.
   */
  const cit = (name: string, body: (store: ProxyStore & ConsoleStore, close: (() => Promise<void>) | undefined) => Promise<void>) =>
    it(name, async () => {
      const { store, close } = await fixture();
      if (!isConsoleStore(store)) {
        await close?.();
        expect.fail('the store does not implement the console block (ConsoleStore in console-store.ts)');
      }
      await body(store, close);
    });

  cit('lists every payment newest first, paged by a cursor that neither repeats nor skips when new ones arrive', async (store, close) => {
    for (let i = 0; i < 7; i++) await store.putPayment(listed(`p${i}`, 1_000 + Math.floor(i / 2)), 0);
    const first = await store.listPayments({ filter: 'all', limit: 3, now: 0 });
    expect(ids(first.payments)).toEqual(['p6', 'p5', 'p4']);
    expect(first.next).toBeDefined();
    await store.putPayment(listed('p-new', 9_000), 0); // arrives between two pages
    const second = await store.listPayments({ filter: 'all', limit: 3, now: 0, cursor: first.next! });
    expect(ids(second.payments)).toEqual(['p3', 'p2', 'p1']);
    const third = await store.listPayments({ filter: 'all', limit: 3, now: 0, cursor: second.next! });
    expect(ids(third.payments)).toEqual(['p0']);
    expect(third.next).toBeUndefined();
    await expect(store.listPayments({ filter: 'all', limit: 3, now: 0, cursor: 'not-a-cursor' })).rejects.toThrow(RangeError);
    await close?.();
  });

  cit('filters by outcome, late, second payment and order, and moves a payment between filters when it changes', async (store, close) => {
    await store.putPayment(listed('open', 10), 0);
    await store.putPayment(listed('paid', 11, { outcome: 'paid', finalAt: 20 }), 0);
    await store.putPayment(listed('late', 12, { outcome: 'paid', expiresAt: 15, finalAt: 30 }), 0);
    await store.putPayment(listed('under', 13, { outcome: 'underpaid', orderId: 'A-1' }), 0);
    await store.putPayment(listed('second', 14, { outcome: 'paid', orderId: 'A-1', secondPaymentOf: 'under', finalAt: 20 }), 0);
    await store.putPayment(listed('gone', 15, { outcome: 'expired' }), 0);
    await store.putPayment(listed('sup', 16, { outcome: 'superseded' }), 0);
    await store.putPayment(listed('fail', 17, { outcome: 'failed' }), 0);
    const list = async (filter: Parameters<ConsoleStore['listPayments']>[0]['filter'], orderId?: string) =>
      ids((await store.listPayments({ filter, limit: 50, now: 0, ...(orderId ? { orderId } : {}) })).payments);
    expect(await list('open')).toEqual(['open']);
    expect(await list('paid')).toEqual(['second', 'late', 'paid']);
    expect(await list('late')).toEqual(['late']);
    expect(await list('underpaid')).toEqual(['under']);
    expect(await list('second')).toEqual(['second']);
    expect(await list('expired')).toEqual(['gone']);
    expect(await list('superseded')).toEqual(['sup']);
    expect(await list('failed')).toEqual(['fail']);
    expect(await list('all', 'A-1')).toEqual(['second', 'under']);
    expect(await list('paid', 'A-1')).toEqual(['second']);
    expect(await list('all', 'no-such-order')).toEqual([]);
    // The open payment is paid: it leaves `open` and joins `paid`.
    expect(await store.putPayment(listed('open', 10, { outcome: 'paid', finalAt: 11, version: 2 }), 1)).toBe(true);
    expect(await list('open')).toEqual([]);
    expect(await list('paid')).toEqual(['second', 'late', 'paid', 'open']);
    await close?.();
  });

  cit(
    'takes a second payment marked refunded off the refund to-do filter and its count, lists it under refunded, and keeps the mark',
    async (store, close) => {
      const second = (version: number, refunded?: PaymentRecord['refunded']) =>
        listed('second', 14, {
          outcome: 'paid',
          orderId: 'A-1',
          secondPaymentOf: 'first',
          finalAt: 20,
          version,
          ...(refunded ? { refunded } : {}),
        });
      await store.putPayment(listed('first', 13, { outcome: 'paid', orderId: 'A-1', finalAt: 20 }), 0);
      await store.putPayment(second(1), 0);
      await store.putPayment(listed('other-second', 12, { outcome: 'paid', orderId: 'A-2', secondPaymentOf: 'x', finalAt: 20 }), 0);
      const list = async (filter: 'second' | 'refunded' | 'paid' | 'all', orderId?: string) =>
        ids((await store.listPayments({ filter, limit: 50, now: 0, ...(orderId ? { orderId } : {}) })).payments);
      expect(await list('second')).toEqual(['second', 'other-second']);
      expect(await list('refunded')).toEqual([]);

      const mark = { at: 1_000, operator: 'ana', reference: 're_3Nx' };
      expect(await store.putPayment(second(2, mark), 1)).toBe(true);
      expect(await list('second')).toEqual(['other-second']);
      expect(await list('refunded')).toEqual(['second']);
      expect(await list('refunded', 'A-1')).toEqual(['second']);
      expect(await list('refunded', 'A-2')).toEqual([]);
      // Still a paid payment of its order, found by the order and under Paid.
      expect(await list('paid')).toEqual(['second', 'first', 'other-second']);
      expect(await list('all', 'A-1')).toEqual(['second', 'first']);
      expect(await store.countPayments(0)).toMatchObject({ all: 3, paid: 3, second: 1, refunded: 1 });
      expect((await store.getPayment('second'))?.refunded).toEqual(mark);
      await close?.();
    },
  );

  cit(
    'lets one of two operators marking a second payment at once win, tells the other whose mark it is, and marks nothing else',
    async (store, close) => {
      const clock = new ManualClock(5_000);
      await store.putPayment(listed('first', 13, { outcome: 'paid', orderId: 'A-1', finalAt: 20 }), 0);
      await store.putPayment(listed('second', 14, { outcome: 'paid', orderId: 'A-1', secondPaymentOf: 'first', finalAt: 20 }), 0);
      const tries = await Promise.all(
        ['ana', 'bo', 'cy', 'di'].map((operator) => markRefunded({ store, clock }, 'second', { operator, reference: `re-${operator}` })),
      );
      const won = tries.filter((t) => 'marked' in t);
      expect(won).toHaveLength(1);
      const mark = (await store.getPayment('second'))!.refunded!;
      expect(mark).toEqual({ at: 5_000, operator: expect.any(String), reference: `re-${mark.operator}` });
      expect(tries.filter((t) => 'already' in t)).toEqual([{ already: mark }, { already: mark }, { already: mark }]);
      expect(await markRefunded({ store, clock }, 'second', { operator: 'ana' })).toEqual({ already: mark });
      expect(await markRefunded({ store, clock }, 'first', { operator: 'ana' })).toEqual({ refused: 'not-second' });
      expect(await markRefunded({ store, clock }, 'nowhere', { operator: 'ana' })).toEqual({ refused: 'unknown' });
      expect((await store.getPayment('first'))!.refunded).toBeUndefined();
      expect((await store.countPayments(0)).refunded).toBe(1);
      await close?.();
    },
  );

  cit(
    'lists a final payment the service contradicted until an operator marks it resolved, and again for a new contradiction',
    async (store, close) => {
      const clock = new ManualClock(5_000);
      await store.putPayment(listed('late-money', 13, { outcome: 'expired', orderId: 'A-1' }), 0);
      await store.putPayment(listed('reversed', 14, { outcome: 'paid', orderId: 'A-2', finalAt: 20 }), 0);
      await store.putPayment(listed('quiet', 15, { outcome: 'paid', finalAt: 20 }), 0);
      const list = async (filter: 'contradicted' | 'resolved' | 'expired' | 'paid', orderId?: string) =>
        ids((await store.listPayments({ filter, limit: 50, now: 0, ...(orderId ? { orderId } : {}) })).payments);
      expect(await list('contradicted')).toEqual([]);

      await markContradicted({ store, clock }, 'late-money', 'finished');
      await markContradicted({ store, clock }, 'reversed', 'dispute');
      expect(await list('contradicted')).toEqual(['reversed', 'late-money']);
      expect(await list('contradicted', 'A-1')).toEqual(['late-money']);
      // The outcome the shop was told stands: still expired, still paid.
      expect(await list('expired')).toEqual(['late-money']);
      expect(await list('paid')).toEqual(['quiet', 'reversed']);
      const marked = await store.getPayment('late-money');
      expect(marked).toMatchObject({ contradicted: { at: 5_000, state: 'finished' }, version: 2, view: { outcome: 'expired' } });
      // The same contradiction again (a callback delivered again) writes nothing.
      await markContradicted({ store, clock }, 'late-money', 'finished');
      expect((await store.getPayment('late-money'))!.version).toBe(2);

      await clock.advance(1_000);
      const tries = await Promise.all(
        ['ana', 'bo'].map((operator) => markResolved({ store, clock }, 'late-money', { operator, note: `refunded by ${operator}` })),
      );
      expect(tries.filter((t) => 'marked' in t)).toHaveLength(1);
      const mark = (await store.getPayment('late-money'))!.contradictionResolved!;
      expect(mark).toEqual({
        at: 6_000,
        operator: expect.any(String),
        state: 'finished',
        contradictedAt: 5_000,
        note: `refunded by ${mark.operator}`,
      });
      expect(tries.filter((t) => 'already' in t)).toEqual([{ already: mark }]);
      expect(await markResolved({ store, clock }, 'quiet', { operator: 'ana' })).toEqual({ refused: 'not-contradicted' });
      expect(await markResolved({ store, clock }, 'nowhere', { operator: 'ana' })).toEqual({ refused: 'unknown' });
      expect(await list('contradicted')).toEqual(['reversed']);
      expect(await list('resolved')).toEqual(['late-money']);
      expect(await store.countPayments(0)).toMatchObject({ all: 3, contradicted: 1, resolved: 1 });

      // The service says something else again: a new contradiction, work again, the operator's mark kept.
      await markContradicted({ store, clock }, 'late-money', 'dispute');
      expect(await list('contradicted')).toEqual(['reversed', 'late-money']);
      expect(await list('resolved')).toEqual([]);
      expect((await store.getPayment('late-money'))!.contradictionResolved).toEqual(mark);
      expect(await store.countPayments(0)).toMatchObject({ contradicted: 2, resolved: 0 });

      // And then what was resolved once more: a contradiction after the one resolved, so work again.
      await clock.advance(1_000);
      await markContradicted({ store, clock }, 'late-money', 'finished');
      expect(await list('contradicted')).toEqual(['reversed', 'late-money']);
      expect(await list('resolved')).toEqual([]);
      expect(await store.countPayments(0)).toMatchObject({ contradicted: 2, resolved: 0 });
      await close?.();
    },
  );

  cit(
    'finds stuck payments (open past expiry) and those whose announcement keeps failing, and counts every filter',
    async (store, close) => {
      await store.putPayment(listed('fresh', 100, { expiresAt: 5_000 }), 0);
      await store.putPayment(listed('stuck', 101, { expiresAt: 1_000 }), 0);
      await store.putPayment(listed('paid', 102, { outcome: 'paid', expiresAt: 1_000, finalAt: 500 }), 0);
      const list = async (filter: 'stuck' | 'failing', now: number) => ids((await store.listPayments({ filter, limit: 50, now })).payments);
      expect(await list('stuck', 2_000)).toEqual(['stuck']);
      expect(await list('stuck', 900)).toEqual([]);
      await store.enqueueAnnouncement('paid', 'finished', 0);
      expect(await list('failing', 2_000)).toEqual([]); // queued, not tried yet
      expect(await store.claimAnnouncement('paid', 'finished', 10_000)).toBeDefined();
      await store.rescheduleAnnouncement('paid', 'finished', 60_000);
      expect(await list('failing', 2_000)).toEqual(['paid']);
      expect(await store.countPayments(2_000)).toEqual({
        all: 3,
        open: 2,
        paid: 1,
        late: 0,
        underpaid: 0,
        superseded: 0,
        expired: 0,
        failed: 0,
        second: 0,
        refunded: 0,
        contradicted: 0,
        resolved: 0,
        failing: 1,
        stuck: 1,
      });
      expect(await store.claimAnnouncement('paid', 'finished', 10_000)).toBeDefined();
      await store.commitAnnouncement('paid', 'finished');
      expect(await list('failing', 2_000)).toEqual([]);
      expect((await store.countPayments(2_000)).failing).toBe(0);
      await close?.();
    },
  );

  cit(
    'stops listing a payment as failing once a newer state replaces the one the hook failed on, however long its retry is',
    async (store, close) => {
      const failing = async () => ids((await store.listPayments({ filter: 'failing', limit: 50, now: 0 })).payments);
      const failingCount = async () => (await store.countPayments(0)).failing;
      const failOnce = async (state: string) => {
        expect(await store.claimAnnouncement('moved-on', state, 10_000)).toBeDefined();
        await store.rescheduleAnnouncement('moved-on', state, 300_000);
      };
      await store.putPayment(listed('moved-on', 100), 0);
      await store.enqueueAnnouncement('moved-on', 'pending', 0);
      await failOnce('pending');
      expect([await failing(), await failingCount()]).toEqual([['moved-on'], 1]);

      // Paid, and not tried yet: the pending state will never be told (an overtaken state is skipped), so nothing fails.
      await store.putPayment(listed('moved-on', 100, { outcome: 'paid', finalAt: 500, version: 2 }), 1);
      await store.enqueueAnnouncement('moved-on', 'finished', 0);
      expect([await failing(), await failingCount()]).toEqual([[], 0]);
      // The current state failing is listed, once.
      await failOnce('finished');
      expect([await failing(), await failingCount()]).toEqual([['moved-on'], 1]);
      // Heard: nothing fails, though the pending state's entry waits 5 minutes for its retry to skip it.
      expect(await store.claimAnnouncement('moved-on', 'finished', 10_000)).toBeDefined();
      await store.commitAnnouncement('moved-on', 'finished');
      expect([await failing(), await failingCount()]).toEqual([[], 0]);
      await close?.();
    },
  );

  cit("keeps a payment's timeline oldest first, the newest 200 entries", async (store, close) => {
    expect(await store.paymentHistory('p1')).toEqual([]);
    await store.appendHistory('p1', { at: 1, kind: 'state', state: 'pending', outcome: 'waiting', source: 'create' });
    await store.appendHistory('p1', { at: 2, kind: 'announcement', state: 'pending', ok: false, error: 'hook answered 500' });
    await store.appendHistory('p2', { at: 3, kind: 'state', state: 'finished', outcome: 'paid', source: 'callback' });
    expect(await store.paymentHistory('p1')).toEqual([
      { at: 1, kind: 'state', state: 'pending', outcome: 'waiting', source: 'create' },
      { at: 2, kind: 'announcement', state: 'pending', ok: false, error: 'hook answered 500' },
    ]);
    for (let i = 0; i < 205; i++) await store.appendHistory('p3', { at: i, kind: 'announcement', state: 'finished', ok: false });
    const long = await store.paymentHistory('p3');
    expect(long).toHaveLength(200);
    expect(long[0]!.at).toBe(5);
    await close?.();
  });

  cit('keeps the operator audit log, newest first, for one payment or all', async (store, close) => {
    await store.appendAudit({ at: 1, operator: 'ana', action: 'recheck', paymentId: 'p1', result: 'paid' });
    await store.appendAudit({ at: 2, operator: 'bo', action: 'export', result: '12 rows' });
    await store.appendAudit({ at: 3, operator: 'ana', action: 'redeliver', paymentId: 'p1', result: 'sent' });
    expect(await store.auditLog('p1', 10)).toEqual([
      { at: 3, operator: 'ana', action: 'redeliver', paymentId: 'p1', result: 'sent' },
      { at: 1, operator: 'ana', action: 'recheck', paymentId: 'p1', result: 'paid' },
    ]);
    expect((await store.auditLog(undefined, 2)).map((e) => e.at)).toEqual([3, 2]);
    expect(await store.auditLog('p9', 10)).toEqual([]);
    await close?.();
  });
}
