/**
 * A storm: 1,000 payments through the real proxy and the real sandbox over loopback, with the sandbox duplicating
 * and reordering its callbacks, an attacker forging callbacks, and every genuine callback replayed once it is all
 * over. Counted at the end: every payment announced in its final outcome exactly once (0 doubles), none missing
 * (0 lost), none different from what the service says (0 wrong).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { signBody } from '../../src/shared/hmac.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { eventually, seeded, startLive, type Live } from '../proxy/sandbox-harness.js';
import { actAsPayer, pool } from './storm-parts.js';

const PAYMENTS = Number(process.env.STORM_PAYMENTS ?? 1_000);
const CONCURRENCY = 25;

describe('a storm of callbacks', () => {
  let live: Live | undefined;
  afterAll(() => live?.close());

  it(`announces each of ${PAYMENTS} payments once, in the outcome the service has, despite duplicated, reordered, forged and replayed callbacks`, async () => {
    const delivered: { url: string; body: string; signature: string }[] = [];
    const finals = new Map<string, PaymentView[]>();
    live = await startLive(
      {
        reconcileEveryMs: 0,
        limits: { createsPerMinute: 100_000, statusPerMinute: 100_000 },
        onPaymentUpdate: (payment) => {
          if (payment.final) finals.set(payment.id, [...(finals.get(payment.id) ?? []), payment]);
        },
      },
      {
        reorderDelayMs: 30,
        faults: { duplicateCallbacks: true, reorderCallbacks: true },
        fetch: async (input, init) => {
          const headers = new Headers(init?.headers);
          delivered.push({ url: String(input), body: String(init?.body ?? ''), signature: headers.get('signature') ?? '' });
          return fetch(input, init);
        },
      },
    );
    const random = seeded(4242);
    const orders = Array.from({ length: PAYMENTS }, (_, i) => `S-${i}`);
    const ids: string[] = [];
    await pool(orders, CONCURRENCY, async (orderId, i) => {
      const { status, body } = await live!.create(orderId);
      expect(status).toBe(201);
      ids[i] = body.payment.id;
    });

    // What the payers do: most pay, some pay too little, some let it expire or fail.
    const expected = new Map<string, string>();
    await pool(ids, CONCURRENCY, async (id) => {
      expected.set(id, actAsPayer(live!.sandbox, id, random()));
      // An attacker claims the payment finished, with a signature made with a guessed secret.
      const forged = JSON.stringify({ id, state: 'finished', status: true, amount: '499.00' });
      const answer = await fetch(`${live!.proxyUrl}/payin/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', signature: await signBody('guessed-secret', forged) },
        body: forged,
      });
      expect(answer.status).toBe(401);
    });

    await eventually(() => finals.size === PAYMENTS, 60_000, 'every payment to be announced final');
    await live.sandbox.idle();
    // Every genuine callback again, as a replay days later would bring it.
    await pool(delivered, CONCURRENCY, async ({ url, body, signature }) => {
      const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', signature }, body });
      expect(answer.status).toBe(200);
    });
    // A sweep finds nothing left to say.
    await live.proxy.reconcile();

    const doubles = [...finals.values()].filter((list) => list.length > 1).length;
    const lost = ids.filter((id) => !finals.has(id)).length;
    const wrong = ids.filter((id) => finals.get(id)?.[0]?.outcome !== expected.get(id)).length;
    expect({ doubles, lost, wrong, callbacks: delivered.length > PAYMENTS }).toEqual({ doubles: 0, lost: 0, wrong: 0, callbacks: true });
  }, 180_000);
});
