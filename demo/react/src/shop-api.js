// @ts-check
/**
 * The React app's calls to the demo shop's own API: the catalogue, placing an order (the server prices it) and
 * reading an order back (its status follows the service's callbacks, through the proxy's hook).
 */

/**
 * @typedef {{ id: string, name: string, description: string, prices: Record<string, string> }} Product
 * @typedef {{
 *   id: string, productName: string,
 *   status: 'new' | 'waiting' | 'checking' | 'paid' | 'expired' | 'failed',
 *   announcements: { outcome: string, source: string }[],
 * }} ShopOrder
 */

/**
 * @template T
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<T>}
 */
async function call(path, init = {}) {
  const answer = await fetch(path, { ...init, headers: { accept: 'application/json', ...init.headers } });
  if (!answer.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${answer.status}`);
  return answer.json();
}

/** @returns {Promise<Product[]>} */
export async function loadProducts() {
  /** @type {{ products: Product[] }} */
  const { products } = await call('/api/products');
  return products;
}

/**
 * @param {string} productId
 * @returns {Promise<ShopOrder>}
 */
export async function placeOrder(productId) {
  /** @type {{ order: ShopOrder }} */
  const { order } = await call('/api/orders', {
    method: 'POST',
    body: JSON.stringify({ productId }),
    headers: { 'content-type': 'application/json' },
  });
  return order;
}

/**
 * @param {string} id
 * @param {AbortSignal} signal
 * @returns {Promise<ShopOrder>}
 */
export async function loadOrder(id, signal) {
  /** @type {{ order: ShopOrder }} */
  const { order } = await call(`/api/orders/${encodeURIComponent(id)}`, { signal });
  return order;
}
