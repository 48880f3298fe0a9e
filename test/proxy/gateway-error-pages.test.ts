/**
 * A real gateway in front of the service (nginx, a load balancer) answers its own 502, 503 or 504: an HTML page with
 * no Signature header, not the service's signed JSON refusal. The proxy must take it as the service failing for now:
 * the browser hears a retryable upstream_error, never a crash; no state is recorded that the service did not sign;
 * a lost create is found by its order, not made twice; each failure is one log line without the page, and a repeat
 * of one is folded. The sandbox's htmlErrors fault answers that way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from './harness.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';

const GATEWAY_DOWN = { errorRate: 1, htmlErrors: true };
/** Short status deadlines, so that each call the fault fails gives up after a retry or two. */
const TIMEOUTS = { statusMs: 200, statusDeadlineMs: 300, coalesceMs: 0 };

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

describe("the service's gateway answering its own HTML 5xx", () => {
  it('fails creates with a retryable 502, and a create that took effect is found by its order once the service is back', async () => {
    const log = capturingLogger();
    // Every draw 0.6: each request the gateway fails is a 502 after the service acted on it, the worst case for a
    // create (the payment exists, its answer is lost); a 500 or 503 before the effect makes nothing to find.
    live = await startLive({ logger: log.logger, timeouts: TIMEOUTS }, { faults: GATEWAY_DOWN, random: () => 0.6 });
    const orders = ['A-1', 'A-2', 'A-3', 'A-4'];
    for (const orderId of orders) {
      const answer = await live.create(orderId);
      expect(answer.status, orderId).toBe(502);
      expect(answer.body.error.code).toBe('upstream_error');
    }
    expect(live.sandbox.payments()).toHaveLength(orders.length);

    live.sandbox.setFaults({});
    for (const orderId of orders) {
      const answer = await live.create(orderId);
      // The payment its lost create made, and no second one: found by this create's look-up at the service (201),
      // or recorded already from the service's callback of it, checked once the gateway let status calls through (200).
      expect([200, 201], orderId).toContain(answer.status);
      const atService = live.sandbox.payments().filter((p) => p.orderId === orderId);
      expect(atService.map((p) => p.id)).toEqual([answer.body.payment.id]);
    }
    expect(live.sandbox.payments()).toHaveLength(orders.length);
    expectPlainLines(log.lines);
  });

  it('answers a status call 502 and a sweep changes nothing, so an unconfirmed payment stays open until the service answers', async () => {
    const log = capturingLogger();
    live = await startLive({ logger: log.logger, timeouts: TIMEOUTS }, { callbackAttempts: 1 });
    const { body } = await live.create('A-1');
    const id = body.payment.id;
    live.sandbox.setFaults(GATEWAY_DOWN);
    // Its one callback reaches the proxy, which cannot confirm "paid" with the service: 502, and nothing recorded.
    live.sandbox.act(id, 'pay');
    await live.sandbox.idle();
    const finished = live.sandbox.payment(id)!.deliveries.filter((d) => d.state === 'finished');
    expect(finished.map((d) => d.httpStatus)).toEqual([502]);

    // Each a retryable failure: the gateway's page (502), or, on a loaded machine, a retry that ran out of the short
    // deadline before the page came (504); never an answer of a state.
    const failed = (answer: { status: number; body: { error: { code: string } } }) => [answer.status, answer.body.error.code];
    const gatewayOrLate = [
      [502, 'upstream_error'],
      [504, 'upstream_timeout'],
    ];
    for (let i = 0; i < 8; i++) expect(gatewayOrLate).toContainEqual(failed(await live.status(id, body.token)));
    expect(await live.proxy.reconcile()).toEqual({ checked: 0, changed: 0, announced: 0 });
    expect(gatewayOrLate).toContainEqual(failed(await live.status(id, body.token)));
    expect(live.updates.map((u) => u.payment.state)).toEqual(['pending']);

    // Nine failing status calls and a sweep: a line for each distinct failure (the gateway's four statuses, the
    // sweep's), never the same line twice within the minute.
    const statusLines = log.lines.filter((line) => line.includes('/api/v2/status with HTTP'));
    expect(statusLines.length).toBeGreaterThan(0);
    expect(statusLines.length).toBeLessThanOrEqual(5);
    expect(new Set(statusLines).size).toBe(statusLines.length);
    expectPlainLines(log.lines);

    live.sandbox.setFaults({});
    expect(await live.proxy.reconcile()).toMatchObject({ checked: 1, changed: 1 });
    await eventually(() => live!.updates.length === 2, 2_000, 'the paid announcement');
    expect(live.updates.map((u) => u.payment.outcome)).toEqual(['waiting', 'paid']);
    expect((await live.status(id, body.token)).body.payment).toMatchObject({ state: 'finished', final: true });
  });
});

/** No log line carries the gateway's page, or any line break that would split it in a log collector. */
function expectPlainLines(lines: string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).not.toMatch(/<html|<title|nginx/i);
    expect(line).not.toContain('\n');
  }
}
