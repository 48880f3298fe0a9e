// The proxy as a Next.js App Router route handler: app/payin/[...route]/route.ts. The proxy uses only the Fetch
// API and Web Crypto, so it runs on the Node.js and the Edge runtime alike.
import { createPayinProxy, type PayinProxy } from 'payin-checkout/proxy';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

// Made on the first request, not when the module loads: `next build` loads every route module to read the settings
// above, and a build (CI, a Docker image) has none of the PAYIN_* secrets, which createPayinProxy requires.
let payin: PayinProxy | undefined;
const proxy = () =>
  (payin ??= createPayinProxy({
    // One price, in the currency each method's rails carry: SBP moves roubles only, UPI rupees only.
    resolveOrder: async (orderId, method) =>
      orderId.startsWith('EX-') ? { amount: '499.00', currency: method === 'sbp' ? 'RUB' : 'INR' } : null,
    onPaymentUpdate: async (payment) => console.log(JSON.stringify({ orderId: payment.orderId, outcome: payment.outcome })),
  }));

export const GET = (request: Request) => proxy()(request);
export const POST = (request: Request) => proxy()(request);
export const OPTIONS = (request: Request) => proxy()(request);
