/**
 * A shop's own integration test against the sandbox, written from docs/sandbox.md alone: it imports only the two
 * documented entry points (payin-checkout/sandbox and payin-checkout/node, here as their source files), signs with
 * node:crypto as a shop's client does, receives callbacks on its own HTTP server and drives every case a shop must
 * handle: paid, underpaid, expired, paid after expiry, a lost callback, a callback delivered twice, and the service
 * down during a create. Whatever the docs promise and this file cannot do is a defect of the sandbox or its docs.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { ManualClock, serve, type RunningServer } from '../../src/server/index.js';
import { until } from './helpers.js';

const MERCHANT = { id: 'shop-1', token: 'shop-token', secret: 'shop-secret' };
const sign = (text: string) => createHmac('sha256', MERCHANT.secret).update(text).digest('hex');

/** What the shop's callback endpoint heard, each callback checked against its Signature first. */
interface Heard {
  state: string;
  body: Record<string, any>;
}

interface Shop {
  sandbox: Sandbox;
  clock: ManualClock;
  heard: Heard[];
  /** The shop's answer to each callback, in turn; 200 once they run out. */
  answers: number[];
  create(fields?: Record<string, unknown>, signal?: AbortSignal): Promise<{ response: Response; text: string }>;
  status(query: Record<string, unknown>): Promise<any>;
  /** Stops the service's HTTP server (the payments stay), and starts it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

const closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function shop(options: SandboxOptions = {}): Promise<Shop> {
  const clock = new ManualClock();
  const sandbox = createSandbox({ clock, merchants: [MERCHANT], ...options });
  let server = await serve(sandbox, { port: 0 });
  const { url, port } = server;
  closing.push(
    () => sandbox.close(),
    () => server.close(),
  );
  const heard: Heard[] = [];
  const answers: number[] = [];
  const receiver: RunningServer = await serve(async (request) => {
    const text = await request.text();
    expect(request.headers.get('signature'), 'a callback is signed over its exact bytes').toBe(sign(text));
    const body = JSON.parse(text);
    heard.push({ state: body.state, body });
    return new Response(null, { status: answers.shift() ?? 200 });
  });
  closing.push(() => receiver.close());
  const post = (path: string, body: unknown, signal?: AbortSignal) => {
    const text = JSON.stringify(body);
    return fetch(`${url}/api/v2/${path}`, {
      method: 'POST',
      signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${MERCHANT.token}`, signature: sign(text) },
      body: text,
    });
  };
  return {
    sandbox,
    clock,
    heard,
    answers,
    async create(fields = {}, signal) {
      const response = await post(
        'payments',
        {
          amount: '250.00',
          orderId: 'order-1',
          currency: 'RUB',
          method: 'sbp',
          merchantId: MERCHANT.id,
          callbackUri: `${receiver.url}/payin/callback`,
          ...fields,
        },
        signal,
      );
      return { response, text: await response.text() };
    },
    async status(query) {
      const response = await post('status', { merchantId: MERCHANT.id, ...query });
      const text = await response.text();
      expect(response.headers.get('signature'), 'an answer is signed over its exact bytes').toBe(sign(text));
      return JSON.parse(text);
    },
    stop: () => server.close(),
    async start() {
      server = await serve(sandbox, { port });
    },
  };
}

/** Creates a payment and returns its id, from the documented envelope. */
async function created(s: Shop, fields: Record<string, unknown> = {}): Promise<string> {
  const { response, text } = await s.create(fields);
  expect(response.status).toBe(200);
  expect(response.headers.get('signature')).toBe(sign(text));
  const body = JSON.parse(text);
  expect(body).toMatchObject({ status: true, result: { state: 'created' } });
  return body.result.id;
}

describe("a shop's integration test against the sandbox", () => {
  it('sees a paid payment: pending with requisites, then finished with status true', async () => {
    const s = await shop();
    const id = await created(s);
    await s.clock.advance(1000);
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending']);
    expect(s.heard[0]!.body.requisites).toMatchObject({ address: expect.any(String), bank: expect.any(String) });
    s.sandbox.act(id, 'pay');
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending', 'finished']);
    expect(await s.status({ paymentId: id })).toMatchObject({ id, state: 'finished', status: true, amount: '250.00' });
  });

  it('sees an underpaid payment: finished, with amount what was paid and init_amount what was asked', async () => {
    const s = await shop();
    const id = await created(s);
    await s.clock.advance(1000);
    s.sandbox.act(id, 'pay', { amount: '200.00' });
    await s.sandbox.idle();
    expect(s.heard.at(-1)!.body).toMatchObject({ state: 'finished', status: true, amount: '200.00', init_amount: '250.00' });
  });

  it('sees a payment expire at expired_at when nobody pays', async () => {
    const s = await shop({ ttlSeconds: 120 });
    const id = await created(s);
    await s.clock.advance(119_000);
    expect((await s.status({ paymentId: id })).state).toBe('pending');
    await s.clock.advance(1000);
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending', 'expired']);
    const payment = await s.status({ paymentId: id });
    expect(payment).toMatchObject({ state: 'expired', status: false });
    expect(Date.parse(payment.expired_at)).toBe(s.clock.now());
  });

  it('sees a payment paid after its expiry: the payer said they paid in time, the money was confirmed later', async () => {
    const s = await shop({ ttlSeconds: 120 });
    const id = await created(s);
    await s.clock.advance(1000);
    s.sandbox.act(id, 'in-check');
    await s.clock.advance(600_000);
    expect((await s.status({ paymentId: id })).state).toBe('in_check');
    s.sandbox.act(id, 'pay');
    await s.sandbox.idle();
    const paid = s.heard.at(-1)!.body;
    expect(paid).toMatchObject({ state: 'finished', status: true });
    expect(paid.datetime * 1000).toBeGreaterThan(Date.parse(paid.expired_at));
  });

  it('recovers from a lost callback by asking /status', async () => {
    const s = await shop({ callbackAttempts: 1 });
    const id = await created(s);
    await s.clock.advance(1000);
    await s.sandbox.idle();
    s.answers.push(500);
    s.sandbox.act(id, 'pay');
    await s.sandbox.idle();
    await s.clock.advance(600_000);
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending', 'finished']);
    expect(s.sandbox.payment(id)!.deliveries.at(-1)).toMatchObject({ state: 'finished', ok: false, httpStatus: 500 });
    expect(await s.status({ orderId: 'order-1' })).toMatchObject({ id, state: 'finished', status: true });
  });

  it('hears a callback twice: a retry after its answer failed, and a duplicate', async () => {
    const s = await shop();
    const id = await created(s);
    s.answers.push(503);
    await s.clock.advance(1000);
    await s.sandbox.idle();
    await s.clock.advance(1000);
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending', 'pending']);
    s.sandbox.setFaults({ duplicateCallbacks: true });
    s.sandbox.act(id, 'pay');
    await s.sandbox.idle();
    expect(s.heard.map((h) => h.state)).toEqual(['pending', 'pending', 'finished', 'finished']);
  });

  it('finds out, when the service fails a create with a 5xx, whether the payment was made, by its orderId', async () => {
    const s = await shop({ faults: { errorRate: 1 } });
    const seen = new Set<string>();
    // The docs: a 500 or 503 before anything happens, a 502 or 504 after the create took effect. Both kinds
    // come up within a few tries (each is half of the draws).
    for (let attempt = 1; attempt <= 40 && seen.size < 2; attempt++) {
      const orderId = `order-5xx-${attempt}`;
      s.sandbox.setFaults({ errorRate: 1 });
      const { response } = await s.create({ orderId });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(response.headers.get('signature') || undefined, 'a 5xx carries no signature to trust').toBeUndefined();
      s.sandbox.setFaults({});
      const answer = await s.status({ orderId });
      const made = !('code' in answer);
      expect(made, `a ${response.status} did ${made ? '' : 'not '}make a payment`).toBe([502, 504].includes(response.status));
      if (made) expect(answer).toMatchObject({ orderId, state: 'created' });
      else expect(answer).toMatchObject({ status: false, code: 404 });
      seen.add(made ? 'made' : 'not made');
    }
    expect([...seen].sort()).toEqual(['made', 'not made']);
  });

  it('finds no payment after a create the stopped service never received, and creates it once it is back', async () => {
    const s = await shop();
    await s.stop();
    await expect(s.create()).rejects.toThrow();
    await s.start();
    expect(await s.status({ orderId: 'order-1' })).toMatchObject({ status: false, code: 404 });
    const id = await created(s);
    expect(await s.status({ orderId: 'order-1' })).toMatchObject({ id, state: 'created' });
  });

  it('gives up on a slow create after its own time-out, on the clock it shares with the sandbox, and finds nothing made', async () => {
    const s = await shop({ faults: { latencyMs: 60_000 } });
    const giveUp = new AbortController();
    s.clock.setTimeout(() => giveUp.abort(new Error('the shop waited 15 s')), 15_000);
    const waiting = s.clock.pending;
    const refused = expect(s.create({}, giveUp.signal)).rejects.toThrow('the shop waited 15 s');
    await until(() => s.clock.pending > waiting); // the sandbox holds the request on the clock
    await s.clock.advance(15_000);
    await refused;
    s.sandbox.setFaults({});
    expect(await s.status({ orderId: 'order-1' })).toMatchObject({ status: false, code: 404 });
    await s.clock.advance(60_000);
    expect(s.sandbox.payments()).toEqual([]);
  });
});
