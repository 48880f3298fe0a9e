// The set a memory soak works on: `payments` payments that are real at the sandbox and in the proxy's store,
// made quickly and then brought to the steady state of a live proxy. One payment is made through the proxy; the
// rest are created at the sandbox with signed requests (their first callbacks held back, so that the proxy does
// not adopt them one by one) and written into the proxy's store as copies of the first one, under their ids and
// orders. The browsers of the first `watched` take their tokens the way a reloaded page does: by asking to create
// a payment for their order again, which answers the pending one. A first sweep then brings the copies in line
// with the service (their requisites and times differ) and the outbox announces each one's state, as a live
// proxy would have done when they turned pending; the fill waits until it has.
import { createHmac } from 'node:crypto';
import { BASE_PATH, DEMO_MERCHANT, until } from './stack.mjs';

/** Runs `work(item, index)` over `items`, `concurrency` at a time. */
export async function eachLimited(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

/** A create at the sandbox, signed with node:crypto (cheap), so that making the set takes little time. */
async function createAtSandbox(sandbox, sandboxUrl, orderId, callbackUri) {
  const body = JSON.stringify({ merchantId: DEMO_MERCHANT.id, orderId, amount: '499.00', currency: 'INR', method: 'upi', callbackUri });
  const signature = createHmac('sha256', DEMO_MERCHANT.secret).update(body).digest('hex');
  const answer = await sandbox(
    new Request(`${sandboxUrl}/api/v2/payments`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_MERCHANT.token}`, signature },
    }),
  );
  if (!answer.ok) throw new Error(`the sandbox refused a create: ${answer.status} ${await answer.text()}`);
  return (await answer.json()).result.id;
}

/** POST {basePath}/payments for `orderId` over loopback: a new payment (201) or the order's pending one again (200). */
async function createThroughProxy(proxyUrl, orderId, expected) {
  const answer = await fetch(`${proxyUrl}${BASE_PATH}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method: 'upi' }),
  });
  const body = await answer.json();
  if (answer.status !== expected) throw new Error(`create for ${orderId} answered ${answer.status}: ${JSON.stringify(body)}`);
  return { id: body.payment.id, token: body.token };
}

/** Waits until the hook's count of announcements stops moving (the outbox drains 500 at a time), at most 60 s. */
async function outboxDrained(child) {
  let last = -1;
  let still = 0;
  await until(
    'the outbox to drain',
    async () => {
      const now = await child.request({ cmd: 'announced' });
      still = now === last ? still + 1 : 0;
      last = now;
      return still >= 3;
    },
    60_000,
    200,
  );
}

/**
 * Fills the proxy run by `child` (soak-child.mjs, started) with `payments` payments. `held.callbacks` is the
 * switch of the sandbox's callback fetch; it is on while the set is made and off when this resolves. Answers the
 * watched payments (`{id, token}`, the one made through the proxy first) and the first sweep's result.
 */
export async function fillProxy({ child, proxyUrl, callbackUrl, sandbox, sandboxUrl, held, payments, watched }) {
  held.callbacks = true;
  const first = await createThroughProxy(proxyUrl, `T-${child.pid}`, 201);
  await until('the first payment to be pending at the sandbox', () => sandbox.payment(first.id)?.state === 'pending', 10_000);
  // copyPayments (stack.mjs) names the order of the i-th copy C-<pid>-<i>; the sandbox gets the same orders.
  const ids = [];
  for (let i = 0; i < payments - 1; i++) ids.push(await createAtSandbox(sandbox, sandboxUrl, `C-${child.pid}-${i}`, callbackUrl));
  await sandbox.idle();
  const { orderIds } = await child.request({ cmd: 'copy', templateId: first.id, ids }, 300_000);
  const tokens = [first];
  await eachLimited(ids.slice(0, watched - 1), 8, async (id, i) => {
    const resumed = await createThroughProxy(proxyUrl, orderIds[i], 200);
    if (resumed.id !== id) throw new Error(`order ${orderIds[i]} resumed payment ${resumed.id}, not ${id}`);
    tokens[i + 1] = resumed;
  });
  held.callbacks = false;
  const firstSweep = await child.request({ cmd: 'sweep' }, 300_000);
  await outboxDrained(child);
  return { watched: tokens, firstSweep };
}
