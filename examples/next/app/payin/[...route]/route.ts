// The proxy as a Next.js App Router route handler: app/payin/[...route]/route.ts. The proxy uses only the Fetch
// API and Web Crypto, so it runs on the Node.js and the Edge runtime alike.
import { createPayinProxy } from 'payin-checkout/proxy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const payin = createPayinProxy({
  // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
  resolveOrder: async (orderId, method) =>
    orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
  onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
});

export const GET = (request: Request) => payin(request);
export const POST = (request: Request) => payin(request);
export const OPTIONS = (request: Request) => payin(request);
