// @ts-check
/**
 * The demo shop as one Fetch handler: the proxy mounted at /payin, the shop's pages, its small JSON API
 * (products, orders) and the files the pages load. The strict variant of the shop is served with the
 * Content-Security-Policy a careful shop would send; every page is written to pass it.
 */
import { fileURLToPath } from 'node:url';
import { CURRENCY_BY_METHOD } from './order-book.js';
import { checkoutPage, homePage, LANGUAGE_NAMES, modulePage, notFoundPage, ordersPage, shopPage } from './pages.js';
import { serveFile } from './static-files.js';

/**
 * @typedef {(request: Request) => Promise<Response>} Handler
 * @typedef {import('./order-book.js').OrderBook} OrderBook
 */

export const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'";

const REPO = new URL('../../', import.meta.url);
const ASSETS = fileURLToPath(new URL('demo/pages/', REPO));
const DIST = fileURLToPath(new URL('dist/', REPO));
const REACT_APP = fileURLToPath(new URL('demo/react/dist/', REPO));

/**
 * @param {{
 *   proxy: Handler,
 *   basePath: string,
 *   book: OrderBook,
 *   sandboxUrl: string | undefined,
 *   widgetModule: () => Promise<string>,
 * }} options
 * @returns {Handler}
 */
export function createStorefront({ proxy, basePath, book, sandboxUrl, widgetModule }) {
  const context = { sandboxUrl };
  const strictContext = { sandboxUrl, strict: true };

  return async function storefront(request) {
    const url = new URL(request.url);
    const path = url.pathname;
    if (path === basePath || path.startsWith(`${basePath}/`)) return proxy(request);

    if (path.startsWith('/api/')) return api(request, path.slice('/api'.length), book);

    const strict = path === '/strict' || path.startsWith('/strict/');
    const variantContext = strict ? strictContext : context;
    const page = (/** @type {string} */ body, status = 200) =>
      new Response(body, {
        status,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          ...(strict ? { 'content-security-policy': STRICT_CSP } : {}),
        },
      });

    if (request.method === 'POST') {
      const m = /^\/(shop|strict)\/checkout$/.exec(path);
      if (!m) return json({ error: 'not found' }, 404);
      return placeOrder(request, `/${m[1]}`, book, variantContext);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return json({ error: 'method not allowed' }, 405);

    if (path === '/') return page(homePage(context));
    if (path === '/shop' || path === '/strict') return page(shopPage(book.catalogue, path, variantContext));
    const checkout = /^\/(?:shop|strict)\/checkout\/([^/]+)$/.exec(path);
    if (checkout) {
      const order = book.get(decodeURIComponent(checkout[1] ?? ''));
      if (!order) return page(notFoundPage('There is no such order.', variantContext), 404);
      const { method, lang } = Object.fromEntries(url.searchParams);
      return page(checkoutPage(order, method ?? '', lang ?? '', variantContext));
    }
    if (path === '/orders') return page(ordersPage(book.list(), context));
    if (path === '/module') return page(modulePage(context));

    // The script and, beside it, the languages and parts it loads on demand.
    const [, script = '', name = ''] = /^\/(payin-checkout\.([a-z]+|[a-z-]+\.part)\.js)$/.exec(path) ?? [];
    if (name === 'iife' || name.endsWith('.part') || (name && Object.hasOwn(LANGUAGE_NAMES, name))) {
      return (await serveFile(DIST, script)) ?? missingBuild();
    }
    if (path === '/modules/payin-checkout.js') {
      return new Response(await widgetModule(), {
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
      });
    }
    if (path.startsWith('/assets/')) return (await serveFile(ASSETS, path.slice('/assets/'.length))) ?? notFound();
    if (path === '/react') return Response.redirect(new URL('/react/', url), 308);
    if (path.startsWith('/react/')) {
      // A single-page app: unknown paths below /react/ get its index.html.
      const rest = path.slice('/react/'.length);
      return (rest && (await serveFile(REACT_APP, rest))) || (await serveFile(REACT_APP, 'index.html')) || missingBuild();
    }
    if (path === '/favicon.ico') return new Response(null, { status: 204 });
    return page(notFoundPage('There is no such page.', context), 404);
  };
}

/**
 * The plain shop's form post: create the order (priced later, on this server) and go to its checkout page.
 * @param {Request} request
 * @param {string} base
 * @param {OrderBook} book
 * @param {{ sandboxUrl: string | undefined, strict?: boolean }} context
 */
async function placeOrder(request, base, book, context) {
  const form = await readForm(request);
  const order = form && book.create(String(form.get('productId') ?? ''));
  if (!form || !order) {
    return new Response(notFoundPage('There is no such product.', context), {
      status: 400,
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  }
  const method = String(form.get('method') ?? '');
  const query = Object.hasOwn(CURRENCY_BY_METHOD, method) ? `?method=${encodeURIComponent(method)}` : '';
  return new Response(null, {
    status: 303,
    headers: { location: `${base}/checkout/${encodeURIComponent(order.id)}${query}` },
  });
}

/**
 * The shop's JSON API, for the ES-module page, the React app and the order list.
 * @param {Request} request
 * @param {string} path
 * @param {OrderBook} book
 */
async function api(request, path, book) {
  if (path === '/products' && request.method === 'GET') return json({ products: book.catalogue });
  if (path === '/orders' && request.method === 'GET') return json({ orders: book.list() });
  if (path === '/orders' && request.method === 'POST') {
    const body = await readJson(request);
    const productId = body && typeof body === 'object' ? /** @type {{ productId?: unknown }} */ (body).productId : undefined;
    const order = typeof productId === 'string' ? book.create(productId) : undefined;
    return order ? json({ order }, 201) : json({ error: 'send {"productId": "<a product id from /api/products>"}' }, 400);
  }
  const one = /^\/orders\/([^/]+)$/.exec(path);
  if (one && request.method === 'GET') {
    const order = book.get(decodeURIComponent(one[1] ?? ''));
    return order ? json({ order }) : json({ error: 'no such order' }, 404);
  }
  return json({ error: 'not found' }, 404);
}

const SMALL_BODY = 4096;

/** @param {Request} request */
async function readText(request) {
  if (Number(request.headers.get('content-length') ?? 0) > SMALL_BODY) return undefined;
  const text = await request.text();
  return text.length > SMALL_BODY ? undefined : text;
}

/** @param {Request} request */
async function readForm(request) {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) return undefined;
  const text = await readText(request);
  return text === undefined ? undefined : new URLSearchParams(text);
}

/** @param {Request} request */
async function readJson(request) {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return undefined;
  const text = await readText(request);
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** @param {unknown} value @param {number} [status] */
function json(value, status = 200) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function notFound() {
  return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

function missingBuild() {
  return new Response('not built: run `npm start` (it builds first) or `npm run build`', {
    status: 503,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}
