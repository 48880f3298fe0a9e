/**
 * A shop's onPaymentUpdate that never returns (a hung HTTP call in the shop's code): each call has a deadline
 * (`timeouts.hookMs`), past which the delivery counts as failed and the outbox goes on. Without it one hung hook held
 * its lease for good and stalled the sweep that called it, and with it every later sweep of the process: no more
 * payments asked about, none announced, and a payment whose callbacks were lost never heard of. The memory and SQLite
 * stores, on a manual clock shared with the proxy.
 */
import { describe, expect, it } from 'vitest';
import type { PayinProxyOptions } from '../../../src/proxy/index.js';
import type { ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import { MemoryStore } from '../../../src/proxy/infrastructure/memory-store.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import { createSqliteStore } from '../../../src/sqlite/index.js';
import { consoleSetup } from '../../console-api/console-harness.js';
import { startQuietBackend } from '../../support/quiet-backend.js';
import { capturingLogger, setup, until } from '../harness.js';

const HOOK_MS = 5_000;
const SWEEP_EVERY_MS = 30_000;

const stores: [string, (clock: ManualClock) => ProxyStore][] = [
  ['memory', (clock) => new MemoryStore({ clock })],
  ['SQLite', (clock) => createSqliteStore({ path: ':memory:', clock })],
];

/**
 * A hook that hangs on the calls `hangs` picks, until `answerLate()`; every other call is taken at once. `taken`
 * lists the calls that returned, as `id state`.
 */
function hangingHook(hangs: (payment: PaymentView, call: number) => boolean) {
  const calls: string[] = [];
  const taken: string[] = [];
  let answerLate = () => {};
  const late = new Promise<void>((resolve) => (answerLate = resolve));
  const hook = async (payment: PaymentView) => {
    const call = `${payment.id} ${payment.state}`;
    calls.push(call);
    if (hangs(payment, calls.filter((c) => c === call).length)) await late;
    taken.push(call);
  };
  return { hook, calls, taken, answerLate: () => answerLate() };
}

/**
 * Moves the clock a second at a time, with a turn of the real event loop between (the store and the fake service
 * answer on it), until `done()` holds or `maxSteps` seconds have passed; whether it held. Bounded, so that the old
 * code, which never got there, fails on an assertion instead of hanging the test run.
 */
async function stepUntil(clock: ManualClock, done: () => boolean, maxSteps: number): Promise<boolean> {
  for (let step = 0; step < maxSteps && !done(); step++) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    await clock.advance(1_000);
  }
  return done();
}

/** Whether `promise` has settled yet, asked synchronously. */
function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  const mark = () => void (settled = true);
  promise.then(mark, mark);
  return () => settled;
}

/** A proxy over the fake service on `makeStore`'s store; `close()` lets the hung calls go and closes all. */
function world(makeStore: (clock: ManualClock) => ProxyStore, hook: ReturnType<typeof hangingHook>, overrides: Partial<PayinProxyOptions>) {
  const clock = new ManualClock();
  const store = makeStore(clock);
  const log = capturingLogger();
  const t = setup({ clock, store, logger: log.logger, onPaymentUpdate: hook.hook, timeouts: { hookMs: HOOK_MS }, ...overrides });
  const close = async () => {
    hook.answerLate();
    await t.proxy.close();
    await store.close?.();
  };
  return { ...t, clock, store, log, close };
}

describe.each(stores)('a hook that never returns (%s store)', (_name, makeStore) => {
  it('does not stop the next sweep from announcing another payment', async () => {
    let stuckId = '';
    const shop = hangingHook((payment) => payment.id === stuckId && payment.state === 'finished');
    const t = world(makeStore, shop, { reconcileEveryMs: SWEEP_EVERY_MS });
    try {
      const stuck = (await t.create('A-1')).body.payment.id;
      const other = (await t.create('A-2')).body.payment.id;
      stuckId = stuck;
      // Both paid, their callbacks lost: only the sweeps can hear of them.
      t.service.set(stuck, { state: 'finished', status: true });
      // The first sweep: the hook hangs on the stuck payment.
      expect(await stepUntil(t.clock, () => shop.calls.includes(`${stuck} finished`), 40)).toBe(true);
      t.service.set(other, { state: 'finished', status: true });
      // Past the deadline, the next sweep hears of the other payment and announces it.
      expect(await stepUntil(t.clock, () => shop.taken.includes(`${other} finished`), (2 * (HOOK_MS + SWEEP_EVERY_MS)) / 1_000)).toBe(true);
      expect(await t.store.wasAnnounced(other, 'finished')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('counts the call as failed at its deadline, in the log and the timeline, and retries it until the hook answers', async () => {
    // The first call for the paid state hangs; the retry is answered.
    const shop = hangingHook((payment, call) => payment.state === 'finished' && call === 1);
    const t = world(makeStore, shop, { reconcileEveryMs: 0 });
    try {
      const id = (await t.create('A-1')).body.payment.id;
      t.service.set(id, { state: 'finished', status: true });
      const sweep = t.proxy.reconcile();
      expect(await stepUntil(t.clock, settledFlag(sweep), (2 * HOOK_MS) / 1_000)).toBe(true);
      expect((await sweep).checked).toBe(1);
      // The outbox's retry, with its usual backoff (0.5 to 1 s after a first failure), is answered.
      expect(await stepUntil(t.clock, () => shop.taken.includes(`${id} finished`), 10)).toBe(true);
      await t.clock.advance(0);
      expect(await t.store.wasAnnounced(id, 'finished')).toBe(true);
      // The timeline: the call that passed its deadline, said so, then the retry that was taken.
      const tries = (await t.store.paymentHistory?.(id))?.flatMap((entry) =>
        entry.kind === 'announcement' && entry.state === 'finished' ? [[entry.ok, entry.error?.includes(`within ${HOOK_MS} ms`)]] : [],
      );
      expect(tries).toEqual([
        [false, true],
        [true, undefined],
      ]);
      expect(t.log.lines.filter((line) => line.includes(id) && line.includes(`within ${HOOK_MS} ms`))).toHaveLength(1);

      // The hung call answers at last: too late to count, and nothing changes.
      const history = await t.store.paymentHistory?.(id);
      shop.answerLate();
      await t.clock.advance(10 * HOOK_MS);
      expect(await t.store.paymentHistory?.(id)).toEqual(history);
      expect(shop.calls.filter((call) => call === `${id} finished`)).toHaveLength(2);
      expect(await t.store.wasAnnounced(id, 'finished')).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('the deadline of a hook call by default', () => {
  it('is 30 s', async () => {
    const shop = hangingHook((payment) => payment.state === 'finished');
    const t = world((clock) => new MemoryStore({ clock }), shop, { reconcileEveryMs: 0, timeouts: {} });
    try {
      const id = (await t.create('A-1')).body.payment.id;
      t.service.set(id, { state: 'finished', status: true });
      const sweep = t.proxy.reconcile();
      await until(() => shop.calls.includes(`${id} finished`), 'the hook to be called');
      const settled = settledFlag(sweep);
      expect(await stepUntil(t.clock, settled, 29)).toBe(false);
      expect(await stepUntil(t.clock, settled, 3)).toBe(true);
      expect(t.log.lines.filter((line) => line.includes(id) && line.includes('within 30000 ms'))).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe("the console's redelivery to a hook that never returns", () => {
  it('answers that the hook did not take it once the deadline has passed', async () => {
    let hang = false;
    const shop = hangingHook(() => hang);
    const t = consoleSetup({ onPaymentUpdate: shop.hook, reconcileEveryMs: 0, timeouts: { hookMs: HOOK_MS } });
    try {
      await t.signIn();
      const id = (await t.create('A-1')).body.payment.id; // its pending state announced
      hang = true;
      const redelivery = t.post<{ result: string }>(`/api/payments/${id}/redeliver`);
      expect(await stepUntil(t.clock, settledFlag(redelivery), (2 * HOOK_MS) / 1_000)).toBe(true);
      expect((await redelivery).body.result).toBe("the shop's hook did not take it");
    } finally {
      shop.answerLate();
      await t.proxy.close();
    }
  });
});

describe('two operators redelivering to a hook slower than its lease', () => {
  it('sends one: the lease of a redelivery still running is renewed, not let lapse under it', async () => {
    // A deadline past the lease: the shop allows its hook 10 s, and the lease is 3 s.
    const hookMs = 10_000;
    let hang = false;
    const shop = hangingHook(() => hang);
    const t = consoleSetup({ onPaymentUpdate: shop.hook, reconcileEveryMs: 0, timeouts: { hookMs, hookLeaseMs: 3_000 } });
    try {
      await t.signIn();
      const id = (await t.create('A-1')).body.payment.id; // its pending state announced
      hang = true;
      const first = t.post<{ result: string }>(`/api/payments/${id}/redeliver`);
      expect(await stepUntil(t.clock, () => shop.calls.length === 2, 5)).toBe(true);
      await stepUntil(t.clock, () => false, 4); // past the lease, within the hook's deadline
      const pressed = t.post<{ error?: { code: string } }>(`/api/payments/${id}/redeliver`);
      expect(await stepUntil(t.clock, settledFlag(pressed), (2 * hookMs) / 1_000)).toBe(true);
      const second = await pressed;
      expect([second.answer.status, second.body.error?.code, shop.calls.length]).toEqual([409, 'busy', 2]);
      shop.answerLate();
      expect(await stepUntil(t.clock, settledFlag(first), 5)).toBe(true);
    } finally {
      shop.answerLate();
      await t.proxy.close();
    }
  });
});

describe('a hook that hands info.signal to its own fetch, to a backend that never answers', () => {
  it("sees the signal aborted at the call's deadline, not before, and its request ended", async () => {
    const erp = await startQuietBackend();
    const signals: AbortSignal[] = [];
    const failures: unknown[] = [];
    const clock = new ManualClock();
    const t = setup({
      clock,
      reconcileEveryMs: 0,
      timeouts: { hookMs: HOOK_MS },
      onPaymentUpdate: async (payment, info) => {
        if (payment.state !== 'finished') return;
        signals.push(info.signal);
        // The shop's ERP call with no timeout of its own: only the signal can end it.
        await fetch(`${erp.url}/orders/${payment.orderId}/paid`, { method: 'POST', body: payment.id, signal: info.signal }).catch(
          (error: unknown) => {
            failures.push(error);
            throw error;
          },
        );
      },
    });
    try {
      const id = (await t.create('A-1')).body.payment.id;
      t.service.set(id, { state: 'finished', status: true });
      const sweep = t.proxy.reconcile();
      await until(() => erp.requests.length === 1, 'the hook to reach the backend');
      await clock.advance(HOOK_MS - 1);
      expect(signals[0]?.aborted).toBe(false);
      expect(erp.requests[0]!.closedAt).toBeUndefined();
      await clock.advance(1);
      expect(signals[0]?.aborted).toBe(true);
      expect(String(signals[0]?.reason)).toContain(`did not return within ${HOOK_MS} ms (timeouts.hookMs)`);
      // The hook's fetch ends with that reason, and the backend sees the request given up.
      await until(() => failures.length === 1 && erp.requests[0]!.closedAt !== undefined, 'the request to be ended');
      expect(String(failures[0])).toContain(`within ${HOOK_MS} ms`);
      expect((await sweep).checked).toBe(1);
    } finally {
      await erp.close(); // first: a request still open would hold the sweep, and close() waits for the sweep
      await t.proxy.close();
    }
  });
});
