// The proxy on plain node:http. Run: PAYIN_* variables set, then `node examples/node-http.mjs`.
import { createServer } from 'node:http';
import { createPayinProxy } from 'payin-checkout/proxy';
import { toNodeListener } from 'payin-checkout/node';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

const listener = toNodeListener(payin);
createServer((req, res) => {
  if (req.url?.startsWith('/payin/')) return void listener(req, res);
  res.writeHead(404).end();
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
