/** The browser's two calls to a proxy served at `url` (its routes under /payin), as tests of several instances make them. */
import type { PaymentView } from '../../src/shared/payment-view.js';

/** POST /payin/payments: the create of the order's payment by `method`. */
export async function createAt(url: string, orderId: string, method = 'upi') {
  const response = await fetch(`${url}/payin/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method }),
  });
  return { status: response.status, body: (await response.json()) as { payment: PaymentView; token: string } };
}

/** POST /payin/status: the payment as the proxy answers it to the browser holding `token`. */
export async function statusAt(url: string, paymentId: string, token: string) {
  const response = await fetch(`${url}/payin/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ paymentId, token }),
  });
  return { status: response.status, body: (await response.json()) as { payment: PaymentView } };
}
