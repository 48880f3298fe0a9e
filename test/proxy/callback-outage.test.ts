/**
 * A captured signed callback posted again and again while the service is down (its gateway failing every call, or
 * answering slowly and then failing): the copies share the failing status call and the failure for the coalescing
 * window after it, so posting it N times costs the struggling service one call per window, not one per copy.
 * Every copy is still answered 502, so that the service delivers it again; nothing unconfirmed is recorded; and
 * the service's own redelivery after the window asks afresh, so a "paid" it confirms then is recorded and
 * announced once. The real sandbox serves; the proxy's clock stands still unless moved, so the window is exact.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { startLive, type Live } from './sandbox-harness.js';

const COALESCE_MS = 3_000;
/**
 * One attempt per status call: the first retry's backoff (100 ms at least) is past this deadline. The attempt's own
 * time-out is on the standing clock, so a slow answer is waited for.
 */
const TIMEOUTS = { statusMs: 5_000, statusDeadlineMs: 50, coalesceMs: COALESCE_MS };
const GATEWAY_DOWN = { errorRate: 1, htmlErrors: true };
const COPIES = 20;

interface Captured {
  body: string;
  signature: string;
}

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/**
 * The proxy and the sandbox, and the service's "finished" callback of an open payment as it was delivered once
 * while the gateway failed (and answered 502): the bytes and Signature an attacker on the way could have kept.
 * With `redeliverAfterMs` the sandbox delivers it once more that long after, on the proxy's clock.
 */
async function paidDuringOutage(faults: SandboxOptions['faults'], redeliverAfterMs?: number) {
  const clock = new ManualClock(Date.now());
  const delivered: Captured[] = [];
  const redelivery = redeliverAfterMs === undefined ? {} : { clock, callbackAttempts: 2, callbackRetryDelayMs: redeliverAfterMs };
  live = await startLive(
    { clock, timeouts: TIMEOUTS, reconcileEveryMs: 0, random: () => 0 },
    {
      callbackAttempts: 1,
      ...redelivery,
      fetch: async (url, init) => {
        delivered.push({ body: String(init?.body), signature: new Headers(init?.headers).get('signature') ?? '' });
        return fetch(url, init);
      },
    },
  );
  const { body } = await live.create('A-1');
  const id = body.payment.id as string;
  live.sandbox.setFaults(faults ?? {});
  live.sandbox.act(id, 'pay');
  await live.sandbox.idle();
  const paid = delivered.filter((d) => JSON.parse(d.body).state === 'finished').at(-1)!;
  expect(finishedDeliveries(live, id)).toEqual([502]);
  return { live, clock, id, paid, statusCalls: () => live!.apiCalls.filter((c) => c.path === '/api/v2/status').length };
}

/** What the proxy answered each delivery of the payment's "finished" callback. */
const finishedDeliveries = (to: Live, id: string) =>
  to.sandbox
    .payment(id)!
    .deliveries.filter((d) => d.state === 'finished')
    .map((d) => d.httpStatus);

function post(to: Live, captured: Captured): Promise<number> {
  return fetch(`${to.proxyUrl}/payin/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', signature: captured.signature },
    body: captured.body,
  }).then(async (response) => {
    await response.body?.cancel();
    return response.status;
  });
}

/** How often the shop heard "paid" (what it heard of the open payment before is no business of these tests). */
const paidAnnouncements = (to: Live) => to.updates.filter((u) => u.payment.outcome === 'paid').length;

/** `COPIES` copies one after another, then as many at once; every answer status. */
async function replay(to: Live, captured: Captured): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < COPIES; i++) answers.push(await post(to, captured));
  answers.push(...(await Promise.all(Array.from({ length: COPIES }, () => post(to, captured)))));
  return answers;
}

describe('a captured "paid" callback replayed while the service is down', () => {
  it('costs the failing service one status call per window, not one per copy, and every copy is answered 502', async () => {
    const t = await paidDuringOutage(GATEWAY_DOWN);
    const before = t.statusCalls();
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(502));
    expect(t.statusCalls() - before).toBe(0); // the delivery's own failed call, a moment ago, answers them
    await t.clock.advance(COALESCE_MS);
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(502));
    expect(t.statusCalls() - before).toBe(1);
    expect(paidAnnouncements(t.live)).toBe(0);
  });

  it('shares a slow failing call with the copies that arrive while it is held and right after it failed', async () => {
    const t = await paidDuringOutage({ ...GATEWAY_DOWN, latencyMs: 200 });
    await t.clock.advance(COALESCE_MS);
    const before = t.statusCalls();
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(502));
    expect(t.statusCalls() - before).toBe(1);
  });

  it("asks afresh on the service's redelivery after the window, and records and announces paid once the service is back", async () => {
    const t = await paidDuringOutage(GATEWAY_DOWN);
    await replay(t.live, t.paid);
    t.live.sandbox.setFaults({});
    expect(await post(t.live, t.paid)).toBe(502); // still within the window of the failure
    await t.clock.advance(COALESCE_MS);
    const before = t.statusCalls();
    expect(await post(t.live, t.paid)).toBe(200);
    expect(t.statusCalls() - before).toBe(1);
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(200));
    expect(paidAnnouncements(t.live)).toBe(1);
  });

  it("records the service's own redelivery a second later, inside the window of the failure: it is other bytes, asked about at once", async () => {
    const t = await paidDuringOutage(GATEWAY_DOWN, 1_000);
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(502));
    t.live.sandbox.setFaults({});
    // The redelivery carries the second it is sent in (`datetime`), so its Signature is another, and no failure of
    // the captured copy's answers it; 1 s of the proxy's 3 s window has passed.
    await t.clock.advance(1_000);
    await t.live.sandbox.idle();
    expect(finishedDeliveries(t.live, t.id)).toEqual([502, 200]);
    expect(paidAnnouncements(t.live)).toBe(1);
  });
});

describe('a captured callback replayed about a payment the store has no record of, while the service is down', () => {
  it('costs one status call per window, answers every copy 502, and adopts the payment once the service is back', async () => {
    const t = await paidDuringOutage(GATEWAY_DOWN);
    await t.live.restart(); // a fresh memory store: the proxy knows nothing of the payment now
    await t.clock.advance(COALESCE_MS);
    const before = t.statusCalls();
    expect(await replay(t.live, t.paid)).toEqual(Array(2 * COPIES).fill(502));
    expect(t.statusCalls() - before).toBe(1);
    t.live.sandbox.setFaults({});
    await t.clock.advance(COALESCE_MS);
    expect(await post(t.live, t.paid)).toBe(200);
    expect(t.statusCalls() - before).toBe(2);
    expect(paidAnnouncements(t.live)).toBe(1);
  });
});
