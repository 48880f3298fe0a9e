import { afterEach, describe, expect, it } from 'vitest';
import { signBody } from '../../src/shared/hmac.js';
import type { ProxyLogger } from '../../src/proxy/logger.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';

// Whatever a shop plugs in as its logger (a file, a log service) must never receive what could take money:
// the merchant secret, the Bearer token, a browser's payment token or a signature.
describe("the proxy's log lines", () => {
  let live: Live | undefined;
  afterEach(async () => {
    await live?.close();
    live = undefined;
  });

  it('never carry the secret, the Bearer token, a payment token or a signature, even when everything goes wrong', async () => {
    const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
    const logger: ProxyLogger = {
      info: (message, fields) => void lines.push({ level: 'info', message, fields }),
      warn: (message, fields) => void lines.push({ level: 'warn', message, fields }),
      error: (message, fields) => void lines.push({ level: 'error', message, fields }),
    };
    let hookFailures = 1;
    live = await startLive({
      logger,
      timeouts: { coalesceMs: 0, statusDeadlineMs: 10_000 },
      // Every retry after the shortest backoff: the lines under test are the same, without seconds of waiting.
      random: () => 0,
      onPaymentUpdate: (payment) => {
        if (payment.outcome === 'paid' && hookFailures-- > 0) throw new Error('warehouse offline');
      },
    });
    const created = await live.create('A-log');
    const token = created.body.token as string;
    const paymentId = created.body.payment.id as string;

    const post = (path: string, body: string, headers: Record<string, string>) =>
      fetch(`${live!.proxyUrl}/payin${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const forged = JSON.stringify({ id: paymentId, state: 'finished' });
    const forgedSignature = 'ab'.repeat(32);
    expect((await post('/callback', forged, { signature: forgedSignature })).status).toBe(401);
    const unknown = JSON.stringify({ id: 'ffffffffffff0', state: 'finished' });
    expect((await post('/callback', unknown, { signature: await signBody('demo-secret', unknown) })).status).toBe(200);
    expect((await live.status(paymentId, 'wrong-token')).status).toBe(404);

    live.sandbox.setFaults({ errorRate: 0.5, malformedRate: 0.3 });
    for (let i = 0; i < 4; i++) await live.status(paymentId, token);
    live.sandbox.setFaults({});
    live.sandbox.act(paymentId, 'pay');
    await eventually(() => hookFailures < 0 || lines.some((l) => /hook/i.test(l.message)), 5_000, 'the failing hook to be logged');
    await live.sandbox.idle();

    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.some((l) => l.level === 'warn' && /Signature/i.test(l.message))).toBe(true);
    const text = JSON.stringify(lines);
    for (const secret of ['demo-secret', 'demo-token', token, forgedSignature, 'wrong-token']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/[0-9a-f]{64}/i); // no signature of any body
    expect(text).not.toMatch(/Bearer/i);
  });
});
