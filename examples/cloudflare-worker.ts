// The proxy as a Cloudflare Worker: credentials from the env binding, the client address from CF-Connecting-IP,
// reconciliation from the cron trigger. Deploy it with its configuration, which sets the enable_request_signal
// compatibility flag: `wrangler deploy --config examples/cloudflare-worker.wrangler.json`.
import { createPayinProxy, type PayinProxy } from 'payin-checkout/proxy';

interface Env {
  PAYIN_BASE_URL: string;
  PAYIN_MERCHANT_ID: string;
  PAYIN_TOKEN: string;
  PAYIN_SECRET: string;
  PAYIN_CALLBACK_URL: string;
}

let payin: PayinProxy | undefined;
const proxyFor = (env: Env) =>
  (payin ??= createPayinProxy({
    provider: { baseUrl: env.PAYIN_BASE_URL, merchantId: env.PAYIN_MERCHANT_ID, token: env.PAYIN_TOKEN, secret: env.PAYIN_SECRET },
    callbackUrl: env.PAYIN_CALLBACK_URL,
    reconcileEveryMs: 0, // a worker sweeps from its cron trigger instead
    // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
    resolveOrder: async (orderId, method) =>
      orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
    onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
  }));

export default {
  fetch: (request: Request, env: Env) => proxyFor(env)(request, { clientAddress: request.headers.get('cf-connecting-ip') ?? undefined }),
  scheduled: (_event: unknown, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }) => ctx.waitUntil(proxyFor(env).reconcile()),
};
