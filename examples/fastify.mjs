// The proxy in a Fastify app, taking the request before Fastify parses its body. Run: `node examples/fastify.mjs`.
import Fastify from 'fastify';
import { createPayinProxy } from 'payin-checkout/proxy';
import { toNodeListener } from 'payin-checkout/node';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

const app = Fastify();
const listener = toNodeListener(payin);
app.addHook('onRequest', (request, reply, done) => {
  const path = request.url.split('?')[0];
  if (path !== payin.basePath && !path.startsWith(`${payin.basePath}/`)) return done();
  reply.hijack();
  void listener(request.raw, reply.raw);
});
await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
