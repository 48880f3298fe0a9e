// The proxy on Deno. Run: PAYIN_* variables set, then `deno run -A examples/deno.ts`.
import { createPayinProxy } from 'payin-checkout/proxy';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
  env: Deno.env.toObject(),
});

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 3000), hostname: '127.0.0.1' }, (request, info) =>
  payin.matches(request) ? payin(request, { clientAddress: info.remoteAddr.hostname }) : new Response('not found', { status: 404 }),
);
