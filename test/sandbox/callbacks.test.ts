import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { verifySignature } from '../../src/shared/hmac.js';
import { parseCallbackBody } from '../../src/shared/provider-messages.js';
import { createSandbox, DEMO_MERCHANT, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createPayment, signedRequest, until } from './helpers.js';

interface Received {
  contentType: string | null;
  signature: string | null;
  body: string;
}

/** A real HTTP receiver on loopback that answers with the statuses it is given, then 200. */
async function receiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = await serve(async (request) => {
    const body = await request.text();
    received.push({ contentType: request.headers.get('content-type'), signature: request.headers.get('signature'), body });
    const status = statuses.shift() ?? 200;
    return new Response(status === 204 ? null : 'ok', { status });
  });
  return { server, received };
}

let running: RunningServer[] = [];
let sandboxes: Sandbox[] = [];
afterEach(async () => {
  for (const s of sandboxes) s.close();
  await Promise.all(running.map((r) => r.close()));
  running = [];
  sandboxes = [];
});

async function start(statuses: number[] = [], options: SandboxOptions = {}, fields: Record<string, unknown> = {}) {
  const { server, received } = await receiver(statuses);
  running.push(server);
  const clock = new ManualClock();
  const sandbox = createSandbox({ clock, ...options });
  sandboxes.push(sandbox);
  const id = await createPayment(sandbox, { callbackUri: `${server.url}/payin/callback`, ...fields });
  return { sandbox, clock, received, id, server };
}

describe('callbacks', () => {
  it('are POSTed as JSON with a valid Signature of the exact body, one per state change', async () => {
    const { sandbox, clock, received, id } = await start();
    expect(received).toHaveLength(0); // creation itself is not a change
    await clock.advance(1000);
    await sandbox.idle();
    sandbox.act(id, 'in-check');
    await sandbox.idle();
    await clock.advance(30_000);
    sandbox.act(id, 'pay', { amount: '249.00' });
    await sandbox.idle();
    expect(received.map((r) => JSON.parse(r.body).state)).toEqual(['pending', 'in_check', 'finished']);
    for (const r of received) {
      expect(r.contentType).toBe('application/json');
      expect(await verifySignature(DEMO_MERCHANT.secret, r.body, r.signature)).toBe(true);
      expect(parseCallbackBody(JSON.parse(r.body)).ok).toBe(true);
    }
    const last = JSON.parse(received[2]!.body);
    expect(last).toMatchObject({ id, status: true, amount: '249.00', init_amount: '250.00', type: 'payin' });
    expect(last.datetime).toBe(Math.floor(clock.now() / 1000));
    expect(JSON.parse(received[0]!.body).datetime).toBe(last.datetime - 30);
  });

  it('leave out an empty media and carry amount_commission_less as a string, as callbacks of the service may', async () => {
    const { sandbox, clock, received, id } = await start([], { commissionPercent: 5 });
    await clock.advance(1000);
    await sandbox.idle();
    const notice = JSON.parse(received[0]!.body);
    expect(notice).toMatchObject({ id, state: 'pending', amount_commission_less: '237.50', commission: 12.5 });
    expect(notice).not.toHaveProperty('media');
    const asked = await sandbox(await signedRequest('/api/v2/status', { merchantId: DEMO_MERCHANT.id, paymentId: id }));
    expect(await asked.json()).toMatchObject({ amount_commission_less: 237.5, media: [] });
  });

  it('keep a media that holds something, such as the C2B link of an sbp payment', async () => {
    const { sandbox, clock, received } = await start([], { sbpShape: 'c2b' }, { method: 'sbp', currency: 'RUB' });
    await clock.advance(1000);
    await sandbox.idle();
    expect(JSON.parse(received[0]!.body).media).toEqual([expect.stringMatching(/^https:\/\/qr\.nspk\.ru\//)]);
  });

  it('are retried with doubling delays while the receiver answers 500, and every attempt is recorded', async () => {
    const { sandbox, clock, received, id } = await start([500, 500, 503]);
    await clock.advance(1000); // pending: attempt 1 -> 500
    await sandbox.idle();
    expect(received).toHaveLength(1);
    await clock.advance(999);
    await sandbox.idle();
    expect(received).toHaveLength(1);
    await clock.advance(1); // +1000: attempt 2 -> 500
    await sandbox.idle();
    await clock.advance(1999);
    await sandbox.idle();
    expect(received).toHaveLength(2);
    await clock.advance(1); // +2000: attempt 3 -> 503
    await sandbox.idle();
    await clock.advance(4000); // +4000: attempt 4 -> 200
    await sandbox.idle();
    await clock.advance(60_000);
    await sandbox.idle();
    expect(received).toHaveLength(4);
    const deliveries = sandbox.payment(id)!.deliveries;
    expect(deliveries.map((d) => [d.attempt, d.httpStatus, d.ok, d.state])).toEqual([
      [1, 500, false, 'pending'],
      [2, 500, false, 'pending'],
      [3, 503, false, 'pending'],
      [4, 200, true, 'pending'],
    ]);
    const times = deliveries.map((d) => Date.parse(d.at));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([1000, 2000, 4000]);
    expect(deliveries.every((d) => d.durationMs >= 0 && d.callback === deliveries[0]!.callback)).toBe(true);
  });

  it('count only a 200 as delivered: a 204 or a 202, which the service does not expect, is tried again', async () => {
    const { sandbox, clock, received, id } = await start([204, 202]);
    await clock.advance(1000); // pending: attempt 1 -> 204
    await sandbox.idle();
    await clock.advance(1000); // attempt 2 -> 202
    await sandbox.idle();
    await clock.advance(2000); // attempt 3 -> 200
    await sandbox.idle();
    await clock.advance(60_000);
    await sandbox.idle();
    expect(received).toHaveLength(3);
    const deliveries = sandbox.payment(id)!.deliveries;
    expect(deliveries.map((d) => [d.attempt, d.httpStatus, d.ok])).toEqual([
      [1, 204, false],
      [2, 202, false],
      [3, 200, true],
    ]);
  });

  it('give up after callbackAttempts and record why an unreachable receiver failed', async () => {
    const { sandbox, clock, id, server } = await start([], { callbackAttempts: 3 });
    await server.close();
    await clock.advance(1000);
    for (let i = 0; i < 6; i++) {
      await sandbox.idle();
      await clock.advance(10_000);
    }
    await sandbox.idle();
    const deliveries = sandbox.payment(id)!.deliveries;
    expect(deliveries).toHaveLength(3);
    expect(deliveries.every((d) => !d.ok && d.httpStatus === undefined && /fetch failed|ECONNREFUSED/.test(d.error ?? ''))).toBe(true);
  });

  it('are tried 8 times in all by default, 1 s apart at first and doubling, about two minutes', async () => {
    const { sandbox, clock, id } = await start(Array(20).fill(500));
    // A second at a time, so that each retry is set from the moment its attempt failed.
    for (let second = 0; second < 300; second++) {
      await clock.advance(1000);
      await sandbox.idle();
    }
    const times = sandbox.payment(id)!.deliveries.map((d) => Date.parse(d.at));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000]);
  });

  it('count an attempt without an answer within callbackTimeoutMs as failed, on the clock', async () => {
    const clock = new ManualClock();
    let calls = 0;
    const hanging: typeof fetch = (_input, init) => {
      calls++;
      return new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    };
    const sandbox = createSandbox({ clock, fetch: hanging, callbackTimeoutMs: 5000 });
    sandboxes.push(sandbox);
    const id = await createPayment(sandbox);
    await clock.advance(1000);
    await until(() => calls === 1);
    await clock.advance(4999);
    expect(sandbox.payment(id)!.deliveries).toHaveLength(0);
    await clock.advance(1);
    await sandbox.idle();
    expect(sandbox.payment(id)!.deliveries[0]).toMatchObject({ attempt: 1, ok: false, error: 'no answer within 5000 ms' });
    await clock.advance(999);
    expect(calls).toBe(1);
    await clock.advance(1);
    await until(() => calls === 2);
    expect(calls).toBe(2);
  });

  it('are delivered once when a test moves its clock past the timeout in one step while the shop answers', async () => {
    // The answer comes over a real socket, which a ManualClock jumping 5 minutes does not wait for.
    const { sandbox, clock, received, id } = await start([], { ttlSeconds: 120 });
    await clock.advance(300_000);
    await sandbox.idle();
    expect(received.map((r) => JSON.parse(r.body).state)).toEqual(['pending', 'expired']);
    expect(sandbox.payment(id)!.deliveries.map((d) => [d.state, d.ok])).toEqual([
      ['pending', true],
      ['expired', true],
    ]);
  });

  it('stop when the sandbox is closed: no retry is sent and idle() resolves', async () => {
    const { sandbox, clock, received } = await start([500, 500]);
    await clock.advance(1000);
    await sandbox.idle();
    sandbox.close();
    expect(clock.pending).toBe(0);
    await clock.advance(100_000);
    await sandbox.idle();
    expect(received).toHaveLength(1);
  });
});
