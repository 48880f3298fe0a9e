// @ts-check
/**
 * The storefront's HTML, rendered on the server. Every page works under the strict Content-Security-Policy:
 * no inline script or style anywhere (the one exception is the ES-module page's import map, and that page is
 * not served with the policy). What a shop really adds to its checkout page is in `checkoutPage`: one script
 * tag and one element.
 */

/**
 * @typedef {import('./order-book.js').Order} Order
 * @typedef {import('./order-book.js').Product} Product
 * @typedef {{ sandboxUrl: string | undefined, strict?: boolean }} PageContext
 */

/** Every language of the element, each by its own name: the checkout page links them, the module page offers them. */
export const LANGUAGE_NAMES = {
  en: 'English',
  hi: 'हिन्दी',
  bn: 'বাংলা',
  te: 'తెలుగు',
  mr: 'मराठी',
  ta: 'தமிழ்',
  gu: 'ગુજરાતી',
  kn: 'ಕನ್ನಡ',
  ml: 'മലയാളം',
  pa: 'ਪੰਜਾਬੀ',
  or: 'ଓଡ଼ିଆ',
  ur: 'اردو',
  ru: 'Русский',
};

/** @param {unknown} value */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Tagged template that escapes every interpolated value unless it is already rendered (a RawHtml). */
class RawHtml {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

/**
 * @param {TemplateStringsArray} strings
 * @param {unknown[]} values
 */
function html(strings, ...values) {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value];
    out += parts.map((v) => (v instanceof RawHtml ? v.text : v === undefined || v === null || v === false ? '' : escapeHtml(v))).join('');
    out += strings[i + 1] ?? '';
  });
  return new RawHtml(out);
}

const SYMBOLS = /** @type {Record<string, string>} */ ({ INR: '₹', RUB: '₽' });
/** @param {string} amount @param {string} currency */
export function money(amount, currency) {
  return currency === 'RUB' ? `${amount} ${SYMBOLS.RUB}` : `${SYMBOLS[currency] ?? `${currency} `}${amount}`;
}

/**
 * @param {string} title
 * @param {PageContext} context
 * @param {RawHtml} main
 * @param {RawHtml} [head]
 */
function layout(title, context, main, head = html``) {
  const console = context.sandboxUrl ? html`<a href="${context.sandboxUrl}/" target="_blank" rel="noopener">Sandbox console</a>` : html``;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Tea &amp; Mugs</title>
<link rel="stylesheet" href="/assets/shop.css">
${head}
</head>
<body>
<header class="bar">
  <a class="brand" href="/">Tea &amp; Mugs</a>
  <nav>
    <a href="/shop">Script tag</a>
    <a href="/module">ES module</a>
    <a href="/react/">React</a>
    <a href="/strict">Strict CSP</a>
    <a href="/orders">Orders</a>
    ${console}
  </nav>
</header>
<main>
${main}
</main>
<script src="/assets/orders-panel.js" defer></script>
</body>
</html>
`}`;
}

/** @param {PageContext} context */
export function homePage(context) {
  return layout(
    'Demo',
    context,
    html`<h1>payin-checkout demo</h1>
<p>One checkout element, four ways to put it on a page. Each page creates an order on this server, which prices it
(the browser never sends an amount); the element pays it through the proxy at <code>/payin</code>.</p>
<ul class="pages">
  <li><a href="/shop">Plain HTML shop</a>: the script-tag build, a product, a choice of method, pay.</li>
  <li><a href="/module">ES-module page</a>: the element created and reconfigured from code, its events logged.</li>
  <li><a href="/react/">React app</a>: React 19 passing properties and listening to the element's events.</li>
  <li><a href="/strict">Strict CSP shop</a>: the plain shop under <code>default-src 'self'</code>.</li>
  <li><a href="/orders">The shop's orders</a>: they turn "paid" when the service's callbacks arrive.</li>
</ul>
${
  context.sandboxUrl
    ? html`<p>Play the payer in the <a href="${context.sandboxUrl}/" target="_blank" rel="noopener">sandbox console</a>:
press <em>pay</em> next to the payment.</p>`
    : html`<p>This demo talks to a real payment service.</p>`
}`,
  );
}

/**
 * The plain shop: a product, a choice of method and a pay button; no script of the shop's own.
 * @param {readonly Product[]} catalogue
 * @param {string} base where this variant of the shop lives (/shop or /strict)
 * @param {PageContext} context
 */
export function shopPage(catalogue, base, context) {
  const products = catalogue.map(
    (p) => html`<form class="product" method="post" action="${base}/checkout">
  <h2>${p.name}</h2>
  <p>${p.description}</p>
  <input type="hidden" name="productId" value="${p.id}">
  <fieldset>
    <legend>Pay with</legend>
    <label><input type="radio" name="method" value="upi" checked> UPI · ${money(p.prices.INR ?? '', 'INR')}</label>
    <label><input type="radio" name="method" value="sbp"> SBP · ${money(p.prices.RUB ?? '', 'RUB')}</label>
  </fieldset>
  <button type="submit" name="pay">Pay</button>
</form>`,
  );
  const title = context.strict ? 'Shop (strict CSP)' : 'Shop';
  return layout(title, context, html`<h1>${title}</h1><div class="products">${products}</div>`);
}

/**
 * The checkout: this is all a shop adds to its page.
 * @param {Order} order
 * @param {string} method
 * @param {string} lang a language of LANGUAGE_NAMES for the element (the script loads its texts), else the page's English
 * @param {PageContext} context
 */
export function checkoutPage(order, method, lang, context) {
  const choice = method === 'upi' || method === 'sbp' ? html`method="${method}"` : html`methods="upi sbp"`;
  const language = lang !== 'en' && Object.hasOwn(LANGUAGE_NAMES, lang) ? html` lang="${lang}"` : html``;
  const links = Object.entries(LANGUAGE_NAMES).map(
    ([tag, name]) => html`<a href="?method=${encodeURIComponent(method)}${tag === 'en' ? '' : `&lang=${tag}`}" lang="${tag}">${name}</a>`,
  );
  return layout(
    `Order ${order.id}`,
    context,
    html`<h1>Order ${order.id}</h1>
<p>${order.productName}</p>
<div class="checkout">
  <payin-checkout endpoint="/payin" order-id="${order.id}" ${choice}${language} autostart></payin-checkout>
  <aside>
    <h2>The shop's orders</h2>
    <div data-orders data-highlight="${order.id}">${ordersTable([order])}</div>
    <p class="hint">The checkout in ${links.flatMap((link, i) => (i ? [' · ', link] : [link]))}: the script loads the texts of the language it is given.</p>
    ${
      context.sandboxUrl
        ? html`<p class="hint">Play the payer: <a href="${context.sandboxUrl}/" target="_blank" rel="noopener">open the sandbox console</a> and press <em>pay</em>.</p>`
        : html``
    }
  </aside>
</div>`,
    html`<script src="/payin-checkout.iife.js"></script>`,
  );
}

/**
 * @param {readonly Order[]} orders
 * @param {PageContext} context
 */
export function ordersPage(orders, context) {
  return layout(
    'Orders',
    context,
    html`<h1>The shop's orders</h1>
<p>Updated by the proxy's <code>onPaymentUpdate</code> hook, that is, by the service's callbacks.</p>
<div data-orders>${ordersTable(orders)}</div>`,
  );
}

/**
 * The same table orders-panel.js renders in the browser.
 * @param {readonly Order[]} orders
 */
export function ordersTable(orders) {
  if (!orders.length) return html`<p class="empty">No orders yet.</p>`;
  const rows = orders.map(
    (o) => html`<tr data-order-id="${o.id}">
  <td>${o.id}</td><td>${o.productName}</td>
  <td><span class="status status-${o.status}" data-status>${o.status}</span></td>
  <td>${o.paid ? money(o.paid.amount, o.paid.currency) : ''}</td>
  <td data-announcements>${o.announcements.map((a) => a.state).join(' → ')}</td>
</tr>`,
  );
  return html`<table class="orders"><thead><tr><th>Order</th><th>Product</th><th>Status</th><th>Paid</th><th>Announced</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** @param {PageContext} context */
export function modulePage(context) {
  return layout(
    'ES module',
    context,
    html`<h1>The element from code</h1>
<p>This page imports the ES module build, creates <code>&lt;payin-checkout&gt;</code> with
<code>document.createElement</code>, sets its properties and logs its events. Change the method or start a new
order: the same element is reconfigured.</p>
<div class="controls">
  <label>Method <select id="method"><option value="upi">UPI</option><option value="sbp">SBP</option></select></label>
  <label>Language <select id="lang">${Object.entries(LANGUAGE_NAMES).map(([tag, name]) => html`<option value="${tag}">${name}</option>`)}</select></label>
  <button type="button" id="new-order">New order</button>
</div>
<div class="checkout">
  <div id="mount"></div>
  <aside>
    <h2>Events</h2>
    <ol id="log" class="log"></ol>
    <h2>The shop's orders</h2>
    <div data-orders></div>
  </aside>
</div>`,
    html`<script type="importmap">{"imports":{"payin-checkout":"/modules/payin-checkout.js"}}</script>
<script type="module" src="/assets/module-page.js"></script>`,
  );
}

/** @param {string} message @param {PageContext} context */
export function notFoundPage(message, context) {
  return layout('Not found', context, html`<h1>Not found</h1><p>${message}</p><p><a href="/">Back to the demo</a></p>`);
}
