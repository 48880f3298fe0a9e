/**
 * The real proxy and sandbox behind /payin (test/widget/support/real-backend.mjs), and the payer's actions.
 */
export const REAL_ENDPOINT = '/payin';

export async function requireRealBackend(): Promise<void> {
  const answer = await (await fetch('/__backend')).json();
  if (!answer.available) throw new Error(`the real proxy and sandbox could not be started: ${answer.reason}`);
}

/**
 * The payer (or the operator) acts on the newest sandbox payment of the order, or on the payment `paymentId` of it:
 * pay, expire, cancel, ...
 */
export async function payerDoes(orderId: string, action: string, amount?: string, paymentId?: string): Promise<void> {
  const answer = await fetch('/__sandbox/act', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, action, amount, paymentId }),
  });
  if (!answer.ok) throw new Error(`sandbox ${action} for ${orderId}: ${answer.status} ${await answer.text()}`);
}

/**
 * The shop re-prices the order (its cart changed): the next create is priced at `amount`; or, with null, refuses
 * it (resolveOrder answers null, as for an order token or a session that expired).
 */
export async function shopReprices(orderId: string, amount: string | null): Promise<void> {
  const answer = await fetch('/__shop/reprice', { method: 'POST', body: JSON.stringify({ orderId, amount }) });
  if (!answer.ok) throw new Error(`re-pricing ${orderId}: ${answer.status}`);
}

/**
 * The cart changed in another tab: the shop prices the order at `amount` and that tab's create (UPI) makes the
 * payment at the new price, which supersedes the open one.
 */
export async function repricedInAnotherTab(orderId: string, amount: string): Promise<void> {
  await shopReprices(orderId, amount);
  const other = await fetch(`${REAL_ENDPOINT}/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method: 'upi' }),
  });
  if (other.status !== 201) throw new Error(`the other tab's create for ${orderId}: ${other.status} ${await other.text()}`);
}

/** The service's payments for the order (how many creates reached it). */
export async function servicePayments(orderId: string): Promise<{ id: string; state: string; amount: string }[]> {
  return (await fetch(`/__sandbox/payments?orderId=${encodeURIComponent(orderId)}`)).json();
}
