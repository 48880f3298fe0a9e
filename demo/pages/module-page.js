// @ts-check
/**
 * The ES-module page: what a shop with its own scripts (or a bundler) writes. It imports the element, creates it
 * from code, sets its properties, reconfigures it when the shopper changes the method or starts a new order, and
 * logs every event the element sends. Orders are created on the shop's server, which prices them.
 */
import 'payin-checkout';

// Every event of the element: a shop that copies this list hears each way a payment can end.
const EVENTS = /** @type {const} */ ([
  'payin-created',
  'payin-state',
  'payin-paid',
  'payin-underpaid',
  'payin-superseded',
  'payin-expired',
  'payin-failed',
  'payin-error',
]);
const MAX_LOG_LINES = 200;

const mount = /** @type {HTMLElement} */ (document.getElementById('mount'));
const log = /** @type {HTMLOListElement} */ (document.getElementById('log'));
const methodSelect = /** @type {HTMLSelectElement} */ (document.getElementById('method'));
const langSelect = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
const newOrderButton = /** @type {HTMLButtonElement} */ (document.getElementById('new-order'));

/** @param {string} line */
function write(line) {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${line}`;
  log.prepend(item);
  while (log.children.length > MAX_LOG_LINES) log.lastElementChild?.remove();
}

/** Asks the shop's server for a new order; the server alone knows its price. */
async function createOrder() {
  const answer = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productId: 'tea' }),
  });
  if (!answer.ok) throw new Error(`the shop refused the order (${answer.status})`);
  const { order } = /** @type {{ order: { id: string } }} */ (await answer.json());
  return order.id;
}

const checkout = document.createElement('payin-checkout');
checkout.endpoint = '/payin';
checkout.method = methodSelect.value;
checkout.lang = langSelect.value;
checkout.autostart = true;

for (const name of EVENTS) {
  checkout.addEventListener(name, (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    const summary =
      detail && 'payment' in detail
        ? `${detail.payment.id} ${detail.payment.state} (${detail.payment.outcome})${detail.resumed ? ', resumed' : ''}`
        : `${detail?.code}: ${detail?.message}`;
    write(`${name} ${summary}`);
  });
}

checkout.addEventListener('payin-paid', (event) => {
  const { payment } = event.detail;
  write(`paid ${payment.amount} ${payment.currency}: the shop ships once its own list says paid`);
});

methodSelect.addEventListener('change', () => {
  // The shopper's new choice wins: the same order, paid by another method, is a new payment.
  // reset() lets go of the shown payment; with autostart the element then creates one for the new method.
  checkout.method = methodSelect.value;
  checkout.reset();
  write(`method set to ${methodSelect.value}`);
});
langSelect.addEventListener('change', () => {
  checkout.lang = langSelect.value;
});
newOrderButton.addEventListener('click', async () => {
  try {
    checkout.orderId = await createOrder();
    write(`new order ${checkout.orderId}`);
  } catch (error) {
    write(String(error));
  }
});

try {
  checkout.orderId = await createOrder();
  write(`order ${checkout.orderId}`);
  mount.append(checkout);
} catch (error) {
  write(String(error));
}
