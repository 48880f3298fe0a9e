// The proxy on Bun. Run: PAYIN_* variables set, then `bun examples/bun.ts`.
import { createPayinProxy } from 'payin-checkout/proxy';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  hostname: '127.0.0.1',
  fetch: (request, server) =>
    payin.matches(request)
      ? payin(request, { clientAddress: server.requestIP(request)?.address })
      : new Response('not found', { status: 404 }),
});
