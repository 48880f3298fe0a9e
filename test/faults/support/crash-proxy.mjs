// A shop's server as a process of its own, for the tests that kill it with SIGKILL at one chosen moment: the
// compiled proxy on PAYIN_STORE_URL, before the payment service at SERVICE_URL. CRASH_AT names the moment; on
// reaching it the process writes `crash point <name>` and waits there for ever, so that the test kills it exactly
// there, with nothing of the next step done:
//   after-create  the service has answered the create, nothing of it is recorded yet;
//   after-record  a paid state is recorded (and its announcement queued), the hook not called yet;
//   in-hook       the hook is called with paid and has not returned;
//   in-sweep      a reconcile sweep holds its lease and is asking the service about the followed payments;
//   in-redelivery the hook is called with paid a second time (an operator's redelivery) and has not returned;
//   in-sweep-after-paid  as in-sweep, once the hook has been called with paid;
//   in-second-mark  a second paid payment of an order is recorded, its mark as the second not written yet.
// The hook writes one line per call to HOOK_LOG, synchronously (`called <id> <state> <outcome>` on entry, `done ...`
// on return; `second <id> of <first>` first for a second payment), so what the shop heard survives the kill; with HOOK_FAILS set it throws (the shop's database is down)
// after its `called` line. Leases are short (LEASE_MS) and sweeps frequent (RECONCILE_EVERY_MS) so that a restart
// takes over within a second; SWEEP_LEASE_MS lengthens the sweep's lease. The operator console lets in requests with the header `x-test-operator: ana`.
// Argument: the compiled build's folder.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const build = process.argv[2];
const load = (file) => import(pathToFileURL(join(build, file)).href);
const { createPayinProxy, silentLogger } = await load('proxy/index.js');
const { serve } = await load('server/serve.js');
const { storeFromUrl } = await load('server/store-url.js');

const env = process.env;
const crashAt = env.CRASH_AT ?? '';
const port = Number(env.PORT);
const hookLog = env.HOOK_LOG;

/** Says the moment is reached, then never resolves: the test's SIGKILL ends the process here. */
const crashPoint = (name) => {
  process.stdout.write(`crash point ${name}\n`);
  return new Promise(() => {});
};

const store = await storeFromUrl(env.PAYIN_STORE_URL);
if (crashAt === 'after-record') {
  const write = store.putPaymentAndEnqueue.bind(store);
  store.putPaymentAndEnqueue = async (record, ...rest) => {
    const written = await write(record, ...rest);
    if (written && record.view.outcome === 'paid') await crashPoint('after-record');
    return written;
  };
}

if (crashAt === 'in-second-mark') {
  const put = store.putPayment.bind(store);
  store.putPayment = async (record, ...rest) => {
    if (record.secondPaymentOf) await crashPoint('in-second-mark');
    return put(record, ...rest);
  };
}

let paidCalls = 0;
const proxy = createPayinProxy({
  provider: { baseUrl: env.SERVICE_URL, merchantId: env.PAYIN_MERCHANT_ID, token: env.PAYIN_TOKEN, secret: env.PAYIN_SECRET },
  callbackUrl: env.CALLBACK_URL || `http://127.0.0.1:${port}/payin/callback`,
  // SBP in roubles: its rails carry no rupees (the sandbox refuses them).
  resolveOrder: (_orderId, method) => (method === 'sbp' ? { amount: '450.00', currency: 'RUB' } : { amount: '499.00', currency: 'INR' }),
  onPaymentUpdate: async (payment, info) => {
    const what = `${payment.id} ${payment.state} ${payment.outcome}`;
    if (info.secondPaymentOf) appendFileSync(hookLog, `second ${payment.id} of ${info.secondPaymentOf}\n`);
    appendFileSync(hookLog, `called ${what}\n`);
    if (payment.outcome === 'paid') paidCalls++;
    if (crashAt === 'in-hook' && payment.outcome === 'paid') await crashPoint('in-hook');
    if (crashAt === 'in-redelivery' && paidCalls === 2) await crashPoint('in-redelivery');
    if (env.HOOK_FAILS) throw new Error('the shop database is down');
    appendFileSync(hookLog, `done ${what}\n`);
  },
  fetch: async (input, init) => {
    const answer = await fetch(input, init);
    const path = new URL(String(input)).pathname;
    const body = Buffer.from(init?.body ?? '').toString();
    if (crashAt === 'after-create' && path === '/api/v2/payments' && answer.ok) await crashPoint('after-create');
    const sweeping = path === '/api/v2/status' && body.includes('paymentIds');
    if (crashAt === 'in-sweep' && sweeping) await crashPoint('in-sweep');
    if (crashAt === 'in-sweep-after-paid' && sweeping && paidCalls > 0) await crashPoint('in-sweep-after-paid');
    return answer;
  },
  console: {
    authorizeOperator: (request) => request.headers.get('x-test-operator') === 'ana',
    operatorName: (request) => request.headers.get('x-test-operator') ?? undefined,
  },
  logger: silentLogger,
  reconcileEveryMs: Number(env.RECONCILE_EVERY_MS),
  timeouts: {
    claimLeaseMs: Number(env.LEASE_MS),
    hookLeaseMs: Number(env.LEASE_MS),
    sweepLeaseMs: Number(env.SWEEP_LEASE_MS || env.LEASE_MS),
  },
  env: {},
  store,
});
const server = await serve((request) => proxy(request), { port });
process.stdout.write(`listening ${server.url}\n`);
