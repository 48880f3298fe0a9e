// The proxy in a Hono app on Node (served with @hono/node-server). Run: `node examples/hono-node.mjs`.
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createPayinProxy } from 'payin-checkout/proxy';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

const app = new Hono();
app.all('/payin/*', (c) => payin(c.req.raw, { clientAddress: getConnInfo(c).remote.address }));
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' });
