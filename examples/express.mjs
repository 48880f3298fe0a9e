// The proxy in an Express 5 app, mounted before any body parser. Run: PAYIN_* set, then `node examples/express.mjs`.
import express from 'express';
import { createPayinProxy } from 'payin-checkout/proxy';
import { toNodeListener } from 'payin-checkout/node';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

const app = express();
const listener = toNodeListener(payin);
// 1. The proxy first, with the raw request.
app.use((req, res, next) => (req.path === payin.basePath || req.path.startsWith(`${payin.basePath}/`) ? void listener(req, res) : next()));
// 2. Then the body parsers and the rest of the shop.
app.use(express.json());
app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
