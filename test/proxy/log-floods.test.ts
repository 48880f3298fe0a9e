import { describe, expect, it } from 'vitest';
import { capturingLogger, drive, setup } from './harness.js';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { ManualClock } from '../../src/shared/manual-clock.js';

// Anyone can post to the callback route, and every open checkout polls status: a line per request would let a
// stranger fill the operator's disk, and an outage bury the one line that says what to do.
describe("the proxy's log under a flood", () => {
  it('writes the first of a thousand forged callbacks, saying what to check, and then their count, not a line each', async () => {
    const { lines, logger } = capturingLogger();
    const t = setup({ logger, clientId: () => 'one-client' });
    const { body } = await t.create('A-flood');
    const forged = (signature: string | null) => t.callback({ id: body.payment.id, state: 'finished' }, signature);
    for (let i = 0; i < 1_000; i++) expect((await forged(i % 2 ? 'ab'.repeat(32) : null)).status).toBe(401);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Signature does not verify.*PAYIN_SECRET.*re-serialised/);

    await t.clock.advance(60_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"repeats":999');
    // A flood that lasts costs a line a minute; a quiet minute ends it, and the next forged callback is said at once.
    for (let i = 0; i < 10; i++) await forged(null);
    await t.clock.advance(60_000);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain('"repeats":10');
    await t.clock.advance(60_000);
    await forged(null);
    expect(lines).toHaveLength(4);
    expect(lines[3]).not.toContain('repeats');
  });

  it('says once that the service cannot be reached while a checkout polls it, then how often', async () => {
    const { lines, logger } = capturingLogger();
    const t = setup({ logger, clientId: () => 'one-client', limits: { statusPerMinute: 10_000 }, timeouts: { coalesceMs: 0 } });
    const { body } = await t.create('A-down');
    t.service.onStatus = () => 'network-error';
    const started = t.clock.now();
    // Each call asks the service again after a short backoff on the test's clock, which drive() moves.
    for (let i = 0; i < 50; i++) expect((await drive(t.clock, t.status(body.payment.id, body.token), 1_000)).response.status).toBe(502);
    const minutes = Math.ceil((t.clock.now() - started) / 60_000);
    const down = lines.filter((line) => line.includes('fetch failed'));
    // Two lines say it (the route's answer and the sweep's own status call), each once and then once a minute.
    expect(down.length).toBeLessThanOrEqual(2 * (1 + minutes));
    await t.clock.advance(120_000);
    expect(lines.some((line) => line.includes('fetch failed') && /"repeats":\d+/.test(line))).toBe(true);
  });

  it('names the payment and order of a callback it cannot confirm, folds its copies, and says another payment at once', async () => {
    const { lines, logger } = capturingLogger();
    // Every copy asks the service anew (no coalescing window), so each 502 is a failure of its own.
    const t = setup({ logger, reconcileEveryMs: 0, timeouts: { coalesceMs: 0 } });
    const a = (await t.create('A-stuck')).body.payment.id;
    const b = (await t.create('B-stuck')).body.payment.id;
    t.service.onStatus = () => 'network-error';
    const paid = (id: string) => t.callback({ ...t.service.payments.get(id)!, state: 'finished', status: true });
    for (let i = 0; i < 10; i++) expect((await drive(t.clock, paid(a), 1_000)).status).toBe(502);
    expect((await drive(t.clock, paid(b), 1_000)).status).toBe(502);
    // Each line said at once, the first for its payment; the counts of repeats follow (by the minute, and at close).
    const said = (id: string) => lines.filter((line) => line.includes('could not be used just now') && line.includes(id));
    const first = (id: string) => said(id).filter((line) => !line.includes('repeats'));
    expect(first(a)).toHaveLength(1);
    expect(first(a)[0]).toContain(`"paymentId":"${a}","orderId":"A-stuck","code":"upstream_error"`);
    expect(first(b)).toHaveLength(1);
    expect(first(b)[0]).toContain(`"paymentId":"${b}","orderId":"B-stuck"`);
    await t.proxy.close();
    const repeats = said(a).map((line) => Number(/"repeats":(\d+)/.exec(line)?.[1] ?? 0));
    expect(repeats.reduce((sum, n) => sum + n)).toBe(9);
  });

  it('names the payment and order of a status call the service cannot answer, never its token', async () => {
    const { lines, logger } = capturingLogger();
    const t = setup({ logger, reconcileEveryMs: 0, timeouts: { coalesceMs: 0 } });
    const { body } = await t.create('A-polled');
    t.service.onStatus = () => 'network-error';
    expect((await drive(t.clock, t.status(body.payment.id, body.token), 1_000)).response.status).toBe(502);
    const stuck = lines.filter((line) => line.includes('could not be used just now'));
    expect(stuck).toHaveLength(1);
    expect(stuck[0]).toContain(`"paymentId":"${body.payment.id}","orderId":"A-polled"`);
    expect(lines.join('\n')).not.toContain(body.token);
  });

  it('says once that the store failed while every request fails on it, then how often', async () => {
    const { lines, logger } = capturingLogger();
    const clock = new ManualClock();
    const down = new DownStore({ clock });
    const t = setup({ logger, store: down, clock, clientId: () => 'one-client' });
    const { body } = await t.create('A-store');
    down.failing = true;
    for (let i = 0; i < 200; i++) expect((await t.status(body.payment.id, body.token)).response.status).toBe(503);
    expect(lines.filter((line) => line.includes('store failed'))).toHaveLength(1);
    await clock.advance(60_000);
    expect(lines.filter((line) => line.includes('store failed')).at(-1)).toContain('"repeats":199');
  });

  it('still writes each genuine failure of another payment at once', async () => {
    const { lines, logger } = capturingLogger();
    const t = setup({ logger });
    for (const id of ['p-1', 'p-2', 'p-3']) expect((await t.callback({ id, state: 42 })).status).toBe(400);
    expect(lines.filter((line) => line.includes('cannot be read'))).toHaveLength(3);
  });
});

/** A database store (a subclass of the memory one, so that the proxy guards it) whose reads fail on demand. */
class DownStore extends MemoryStore {
  failing = false;
  override async getPayment(id: string) {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    return super.getPayment(id);
  }
}
