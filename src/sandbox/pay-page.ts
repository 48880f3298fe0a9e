/**
 * The hosted payment page the create answer's `url` points at (`/pay/{id}`): what a payer would see at the real
 * service, reduced to the amount, the requisites and two buttons, "I have paid" and "Cancel", that call the
 * control API. "I have paid" is the payer's claim, as at the service: it opens a check (`in_check`) and never
 * pays by itself, so that a shop that ships on a claim finds out here; the console's Pay (or Fail) decides it.
 * It gives the widget's "continue on your phone" link somewhere to land. Like the console it runs under a strict
 * CSP, so its script is a separate file and renders with textContent only.
 */
import { pageShell } from './page-shell.js';

export function payPageHtml(id: string): string {
  // `id` is checked to be 13 hex digits before it gets here, so it needs no escaping.
  return pageShell({
    title: 'Pay',
    assets: '../',
    script: 'pay.js',
    main: `<main class="pay" id="pay" data-payment="${id}">
<h1>Sandbox payment</h1>
<p class="amount" id="amount">...</p>
<dl id="details"></dl>
<p id="status" role="status"></p>
<p><button type="button" id="paid">I have paid</button><button type="button" id="cancel">Cancel</button></p>
<p><small>This is the payin-checkout sandbox. No money moves.</small></p>
</main>`,
  });
}

export const PAY_JS = `// payin-checkout sandbox: the hosted payment page.
const main = document.getElementById('pay');
const id = main.dataset.payment;
const FINAL = ['finished', 'canceled', 'expired', 'failed'];
const statusLine = document.getElementById('status');
const buttons = [document.getElementById('paid'), document.getElementById('cancel')];
let timer = 0;

function show(p) {
  document.getElementById('amount').textContent = p.amount + ' ' + p.currency;
  const rows = [['Order', p.orderId], ['Method', p.method], ['State', p.state], ['Expires', p.expired_at]];
  if (p.requisites) {
    rows.push(['Pay to', p.requisites.address], ['Recipient', p.requisites.recipient], ['Bank', p.requisites.bank]);
  } else if (!FINAL.includes(p.state)) {
    rows.push(['Pay to', 'assigning a payee...']);
  }
  for (const link of p.media || []) rows.push(['QR link', String(link)]);
  const list = document.getElementById('details');
  list.replaceChildren();
  for (const [label, value] of rows) {
    const dt = document.createElement('dt');
    const dd = document.createElement('dd');
    dt.textContent = label;
    dd.textContent = value || '';
    list.append(dt, dd);
  }
  const final = FINAL.includes(p.state);
  // A claim needs a payee to have paid to, and is made once.
  buttons[0].disabled = final || p.state !== 'pending';
  buttons[1].disabled = final;
  if (final) statusLine.textContent = p.state === 'finished' ? 'Paid. You can close this page.' : 'This payment is ' + p.state + '.';
  else if (p.state === 'in_check') statusLine.textContent = 'Your payment is being checked. (In the sandbox console, Pay or Fail decides it.)';
  return final;
}

async function load() {
  clearTimeout(timer);
  try {
    const response = await fetch('../sandbox/payments/' + encodeURIComponent(id));
    if (!response.ok) throw new Error('HTTP ' + response.status);
    if (show(await response.json())) return;
  } catch (error) {
    statusLine.textContent = 'Cannot load the payment: ' + error.message;
  }
  timer = setTimeout(load, 2000);
}

async function act(action) {
  const response = await fetch('../sandbox/payments/' + encodeURIComponent(id) + '/' + action, { method: 'POST' });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) statusLine.textContent = data.message || ('HTTP ' + response.status);
  load();
}

buttons[0].addEventListener('click', () => act('in-check'));
buttons[1].addEventListener('click', () => act('cancel'));
load();
`;
