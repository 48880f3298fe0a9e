/**
 * The demo's two servers as a test drives them: the sandbox's control API (the payer's actions, faults, what it
 * delivered) and the shop's own order list. `waitFor` polls with a bound on time, never a fixed sleep.
 */

export interface SandboxPayment {
  id: string;
  orderId: string;
  state: string;
  method: string;
  amount: string;
  currency: string;
  requisites?: { address: string; recipient?: string; bank?: string };
  deliveries: { callback: number; attempt: number; state: string; ok: boolean; httpStatus?: number; duplicate?: boolean }[];
}

export interface ShopOrder {
  id: string;
  status: string;
  paid?: { paymentId: string; amount: string; currency: string };
  announcements: { paymentId: string; outcome: string; state: string; source: string }[];
}

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  if (!answer.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as T;
}

export function sandboxPayments(sandboxUrl: string): Promise<SandboxPayment[]> {
  return json<SandboxPayment[]>(`${sandboxUrl}/sandbox/payments`);
}

export async function act(sandboxUrl: string, paymentId: string, action: string, body?: unknown): Promise<void> {
  await json(`${sandboxUrl}/sandbox/payments/${encodeURIComponent(paymentId)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

export async function setFaults(sandboxUrl: string, faults: Record<string, unknown>): Promise<void> {
  await json(`${sandboxUrl}/sandbox/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
}

export async function shopOrder(storeUrl: string, orderId: string): Promise<ShopOrder> {
  return (await json<{ order: ShopOrder }>(`${storeUrl}/api/orders/${encodeURIComponent(orderId)}`)).order;
}

export async function placeOrder(storeUrl: string, productId = 'tea'): Promise<ShopOrder> {
  const body = JSON.stringify({ productId });
  return (
    await json<{ order: ShopOrder }>(`${storeUrl}/api/orders`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
  ).order;
}

/** Polls `probe` until it returns something other than undefined; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let round = 0; round < 10_000; round++) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

/** The order's payment (by `method`, when given) once it has requisites (state pending). */
export function pendingPaymentOf(sandboxUrl: string, orderId: string, method?: string): Promise<SandboxPayment> {
  return waitFor(`a pending ${method ?? ''} payment for ${orderId}`, async () => {
    const list = (await sandboxPayments(sandboxUrl)).filter((p) => p.orderId === orderId && (!method || p.method === method));
    return list.find((p) => p.state === 'pending');
  });
}
