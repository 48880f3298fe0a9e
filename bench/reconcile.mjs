// Figure 7: one reconcile sweep over 10,000 pending payments (BENCH_PAYMENTS): the upstream status calls it
// makes (the proxy batches up to 50 ids a call) and its duration, against 10,000 single status calls of the
// same payments, each signed and its signed answer verified and parsed as the proxy does. The payments are
// real at the sandbox (created with signed requests, no proxy, their callbacks dropped); the proxy's store (memory, as by default)
// holds the records of one created through the proxy, copied under their ids. Proxy and sandbox are wired in
// memory (no sockets), so socket costs, which batching saves too, are left out of both.
import { createHmac } from 'node:crypto';
import { count, ms, ratio } from './support/format.mjs';
import { commandOf, envNumber, report } from './support/section.mjs';
import {
  copyPayments,
  createMemoryStore,
  createPayment,
  DEMO_MERCHANT,
  ELSEWHERE,
  signBody,
  startStack,
  verifySignature,
  waitForStatus,
} from './support/stack.mjs';

const payments = envNumber('BENCH_PAYMENTS', 10_000, { min: 50, max: 1_000_000 });
const command = commandOf('reconcile.mjs', { BENCH_PAYMENTS: process.env.BENCH_PAYMENTS });
const SERVICE = 'http://127.0.0.1:9';

const store = createMemoryStore({ maxEntries: payments * 2 + 1_000 });
const stack = await startStack({ store });
const { sandbox } = stack;

/** A request to the sandbox signed with node:crypto (cheap), so that making the payments takes little time. */
function signedRequest(path, payload) {
  const body = JSON.stringify({ merchantId: DEMO_MERCHANT.id, ...payload });
  const signature = createHmac('sha256', DEMO_MERCHANT.secret).update(body).digest('hex');
  return new Request(`${SERVICE}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_MERCHANT.token}`, signature },
  });
}

try {
  const template = await createPayment(stack);
  await waitForStatus(stack, template, (p) => p.state === 'pending');
  const ids = [];
  const making = performance.now();
  for (let i = 0; i < payments - 1; i++) {
    const answer = await sandbox(
      signedRequest('/api/v2/payments', {
        orderId: `R-${i}`,
        amount: '499.00',
        currency: 'INR',
        method: 'upi',
        callbackUri: `${ELSEWHERE}/callback`,
      }),
    );
    ids.push((await answer.json()).result.id);
  }
  await copyPayments(store, await store.getPayment(template.payment.id), ids.length, ids);
  const madeMs = performance.now() - making;

  stack.resetCalls();
  const sweeping = performance.now();
  const sweep = await stack.proxy.reconcile();
  const sweepMs = performance.now() - sweeping;
  const sweepCalls = { ...stack.calls };

  const all = [template.payment.id, ...ids];
  const single = performance.now();
  let answered = 0;
  for (const paymentId of all) {
    const body = JSON.stringify({ merchantId: DEMO_MERCHANT.id, paymentId });
    const request = new Request(`${SERVICE}/api/v2/status`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${DEMO_MERCHANT.token}`,
        signature: await signBody(DEMO_MERCHANT.secret, body),
      },
    });
    const response = await sandbox(request);
    const text = await response.text();
    if (response.ok && (await verifySignature(DEMO_MERCHANT.secret, text, response.headers.get('signature'))) && JSON.parse(text).id) {
      answered += 1;
    }
  }
  const singleMs = performance.now() - single;

  await report({
    id: 'reconcile',
    title: `Reconcile sweep of ${payments.toLocaleString('en-US')} pending payments`,
    note:
      `The sweep checked ${count(sweep.checked)} payments (${sweep.changed} changed) in ${count(sweepCalls.status)} status calls ` +
      `asking about ${count(sweepCalls.statusIds)} ids. The single calls answered ${count(answered)} of ${count(all.length)}; they ` +
      'do not record anything, so the sweep, which also merges each answer into the store, does more work per payment. ' +
      `Making the payments took ${(madeMs / 1000).toFixed(1)} s.`,
    rows: [
      {
        figure: 'upstream status calls per sweep (batched)',
        value: count(sweepCalls.status),
        target: 'reported',
        compared: `${count(all.length)} single calls`,
        verdict: 'n/a',
        command,
      },
      {
        figure: 'duration of one sweep',
        value: ms(sweepMs),
        target: 'reported',
        compared: `${count(all.length)} single calls: ${ms(singleMs)} (${ratio(singleMs / sweepMs)} the sweep)`,
        verdict: 'n/a',
        command,
      },
    ],
    raw: { payments, sweep, sweepMs, sweepCalls, singleMs, answered, madeMs },
  });
} finally {
  await stack.close();
}
