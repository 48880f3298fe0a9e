/**
 * Browsers polling one open payment while the service is down (its gateway failing every call, or a call held
 * until it times out): the polls share the failed status call for the coalescing window after it, so shoppers'
 * tabs (or a script replaying a status URL with its token) cost the struggling service one call per window, not
 * one per poll. Every poll still gets the retryable answer a failed call gives (502, or 504 for a time-out, as
 * before), never a state; and once the window has passed the next poll asks afresh, so a service that is back is
 * heard at once. The event streams' pings refresh the payment the same way and share the failure too. The real
 * sandbox serves; the proxy's clock stands still unless moved, so the window is exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/proxy/index.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { PaymentRecord } from '../../src/proxy/infrastructure/store.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { eventually, startLive, type Live, type ProxyAnswer } from './sandbox-harness.js';

const COALESCE_MS = 3_000;
const PING_MS = 8_000;
/**
 * One attempt per status call: the first retry's backoff (100 ms at least) is past this deadline, which is also the
 * attempt's time-out. Both are on the standing clock, so a slow answer is waited for until the test moves the clock.
 */
const TIMEOUTS = { statusMs: 5_000, statusDeadlineMs: 50, coalesceMs: COALESCE_MS, pingMs: PING_MS };
const GATEWAY_DOWN = { errorRate: 1, htmlErrors: true };
/** Polls of one payment, one after another, spread over 2 s of the proxy's clock: within one window. */
const POLLS = 20;
const POLL_GAP_MS = 100;

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** A store on a database that refuses the next write over a recorded payment, as a dropped connection does. */
class FlakyStore extends MemoryStore {
  refuseNextUpdate = false;

  override async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    if (expectedVersion > 0 && this.refuseNextUpdate) {
      this.refuseNextUpdate = false;
      throw new Error('Connection terminated unexpectedly');
    }
    return super.putPayment(record, expectedVersion);
  }
}

/** A store that has lost a payment's record (a memory store restarted, an open record dropped as scratch). */
class ForgetfulStore extends MemoryStore {
  readonly lost = new Set<string>();

  override getPaymentNow(id: string): PaymentRecord | undefined {
    return this.lost.has(id) ? undefined : super.getPaymentNow(id);
  }
}

/** The proxy and the sandbox, and an open payment whose create's own call has left the window. */
async function openPayment({ store = new MemoryStore(), sandbox = {} }: { store?: MemoryStore; sandbox?: SandboxOptions } = {}) {
  const clock = new ManualClock(Date.now());
  live = await startLive(
    {
      clock,
      store,
      timeouts: TIMEOUTS,
      reconcileEveryMs: 0,
      random: () => 0,
      limits: { statusPerMinute: 10_000, streamsPerClient: 100 },
    },
    sandbox,
  );
  const { body } = await live.create('A-1');
  if (sandbox.clock instanceof ManualClock) await sandbox.clock.advance(0); // the requisites come a timer tick after the create
  await clock.advance(COALESCE_MS);
  const statusCalls = () => live!.apiCalls.filter((c) => c.path === '/api/v2/status').length;
  return { live, clock, id: body.payment.id as string, token: body.token as string, statusCalls };
}

/** What a browser can tell of an answer: its status, error code and Retry-After. */
const seen = (answer: ProxyAnswer) => ({ status: answer.status, code: answer.body.error?.code, retryAfter: answer.retryAfter });

/** An answer that comes within `ms` of real time; one waiting on a call of its own to the held service does not. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('browsers polling an open payment while the service is down', () => {
  it('costs the failing service one status call per window, not one per poll, and every poll is answered 502 as the first', async () => {
    const t = await openPayment();
    t.live.sandbox.setFaults(GATEWAY_DOWN);
    const before = t.statusCalls();
    const first = await t.live.status(t.id, t.token);
    expect(seen(first)).toEqual({ status: 502, code: 'upstream_error', retryAfter: null });
    const answers: ProxyAnswer[] = [];
    for (let i = 1; i < POLLS; i++) {
      await t.clock.advance(POLL_GAP_MS);
      answers.push(await t.live.status(t.id, t.token));
    }
    answers.push(...(await Promise.all(Array.from({ length: POLLS }, () => t.live.status(t.id, t.token)))));
    expect(answers.map(seen)).toEqual(Array(answers.length).fill(seen(first)));
    expect(t.statusCalls() - before).toBe(1);
  });

  it('asks afresh once the window has passed, and answers the state the service gives once it is back', async () => {
    const t = await openPayment();
    t.live.sandbox.setFaults(GATEWAY_DOWN);
    const before = t.statusCalls();
    expect((await t.live.status(t.id, t.token)).status).toBe(502);
    await t.clock.advance(COALESCE_MS);
    expect((await t.live.status(t.id, t.token)).status).toBe(502); // the window's end: a call of its own, failing too
    expect(t.statusCalls() - before).toBe(2);

    t.live.sandbox.setFaults({});
    await t.clock.advance(COALESCE_MS - 1);
    expect((await t.live.status(t.id, t.token)).status).toBe(502); // within the window of the last failure
    await t.clock.advance(1);
    const back = await t.live.status(t.id, t.token);
    expect(back.status).toBe(200);
    expect(back.body.payment).toMatchObject({ id: t.id, state: t.live.sandbox.payment(t.id)!.state, final: false });
    expect(t.statusCalls() - before).toBe(3);
  });

  it('answers "paid" at once when a callback the service confirms records it within the window of a failure', async () => {
    const t = await openPayment();
    t.live.sandbox.setFaults(GATEWAY_DOWN);
    expect((await t.live.status(t.id, t.token)).status).toBe(502);
    t.live.sandbox.setFaults({});
    t.live.sandbox.act(t.id, 'pay');
    await t.live.sandbox.idle();
    const paid = await t.live.status(t.id, t.token);
    expect(paid.status).toBe(200);
    expect(paid.body.payment).toMatchObject({ id: t.id, state: 'finished', outcome: 'paid', final: true });
  });

  it("keeps no fault of the proxy's own store: a poll right after the store refused to record the answer asks again", async () => {
    const store = new FlakyStore();
    const t = await openPayment({ store, sandbox: { callbackAttempts: 1 } });
    t.live.sandbox.setFaults({ errorRate: 1 }); // its callback cannot be confirmed: only a poll records "paid"
    t.live.sandbox.act(t.id, 'pay');
    await t.live.sandbox.idle();
    t.live.sandbox.setFaults({});
    store.refuseNextUpdate = true;
    const before = t.statusCalls();
    expect(seen(await t.live.status(t.id, t.token))).toEqual({ status: 503, code: 'unavailable', retryAfter: '5' });
    const paid = await t.live.status(t.id, t.token);
    expect(paid.status).toBe(200);
    expect(paid.body.payment).toMatchObject({ state: 'finished', outcome: 'paid' });
    expect(t.statusCalls() - before).toBe(2);
  });

  it('shares a call that timed out: every poll in the window is answered 504 at once, without a call of its own', async () => {
    // The service holds each request on its own clock, which never moves: a call ends only by the proxy's time-out.
    const t = await openPayment({ sandbox: { clock: new ManualClock(Date.now()) } });
    t.live.sandbox.setFaults({ latencyMs: 60_000 });
    const before = t.statusCalls();
    const pending = t.live.status(t.id, t.token);
    await eventually(() => t.statusCalls() > before, 5_000, 'the status call to reach the service');
    await t.clock.advance(TIMEOUTS.statusDeadlineMs); // the attempt's time-out: the deadline's, the shorter
    const first = await pending;
    expect(seen(first)).toEqual({ status: 504, code: 'upstream_timeout', retryAfter: null });
    for (let i = 1; i < POLLS; i++) {
      await t.clock.advance(POLL_GAP_MS);
      expect(seen(await within(t.live.status(t.id, t.token), 2_000, `poll ${i + 1}`))).toEqual(seen(first));
    }
    expect(t.statusCalls() - before).toBe(1);
  });
});

describe('polls of a payment the store has lost, while the service is down', () => {
  it('cost the failing service one status call per window too: the token is good, so each poll looks the payment up', async () => {
    const store = new ForgetfulStore();
    const t = await openPayment({ store });
    store.lost.add(t.id);
    t.live.sandbox.setFaults(GATEWAY_DOWN);
    const before = t.statusCalls();
    const answers: ProxyAnswer[] = [];
    for (let i = 0; i < POLLS; i++) {
      answers.push(await t.live.status(t.id, t.token));
      await t.clock.advance(POLL_GAP_MS);
    }
    expect(answers.map(seen)).toEqual(Array(POLLS).fill({ status: 502, code: 'upstream_error', retryAfter: null }));
    expect(t.statusCalls() - before).toBe(1);
  });
});

describe("the event streams' status refreshes while the service is down", () => {
  it('share the failed call of the first ping with the pings of the other streams in the window', async () => {
    const t = await openPayment();
    // Tabs opened 200 ms apart, so that their pings come 200 ms apart too, each after the one before has failed.
    const streams: Response[] = [];
    for (let i = 0; i < 10; i++) {
      streams.push(await fetch(`${t.live.proxyUrl}/payin/events?paymentId=${t.id}&token=${t.token}`));
      await t.clock.advance(200);
    }
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    t.live.sandbox.setFaults(GATEWAY_DOWN);
    const before = t.statusCalls();
    await t.clock.advance(PING_MS - 10 * 200);
    for (let i = 0; i < 10; i++) {
      await eventually(() => t.live.apiCalls.every((c) => c.answered), 5_000, 'the failing call to be answered');
      await t.clock.advance(200);
    }
    expect(t.statusCalls() - before).toBe(1);
    // A poll in the window shares the pings' failure as well.
    expect((await t.live.status(t.id, t.token)).status).toBe(502);
    expect(t.statusCalls() - before).toBe(1);
    for (const stream of streams) await stream.body?.cancel();
  });
});
