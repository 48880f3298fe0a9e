/**
 * The console's script and style sheet, served as files (/console.js, /console.css) rather than inline, so that
 * the console works under a strict Content-Security-Policy with no 'unsafe-inline'. The script renders payment
 * data with DOM calls and textContent only (never innerHTML), since order ids and callback URIs come from
 * whoever called the API. It keeps to plain ES2022 with no template literals so it can live in a TS string.
 */

export const CONSOLE_JS = String.raw`// payin-checkout sandbox console: polls the payments, plays the payer, sets faults.
const POLL_MS = 1500;
const ACTIONS = [['pay', 'Pay'], ['pay-other', 'Pay other sum'], ['in-check', 'In check'], ['dispute', 'Dispute'], ['cancel', 'Cancel'], ['fail', 'Fail'], ['expire', 'Expire']];
const FINAL = ['finished', 'canceled', 'expired', 'failed'];
const rows = document.querySelector('#payments tbody');
const empty = document.getElementById('empty');
const statusLine = document.getElementById('status');
const form = document.getElementById('faults');
const openDetails = new Set();

function el(tag, props, children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === 'text') node.textContent = value;
    else if (key === 'onclick') node.addEventListener('click', value);
    else if (value !== false && value !== undefined) node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children || []) node.append(child);
  return node;
}

function say(message, isError) {
  statusLine.textContent = message;
  statusLine.className = isError ? 'error' : '';
}

async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.message || ('HTTP ' + response.status));
  return data;
}

function timeLeft(p) {
  if (FINAL.includes(p.state)) return '';
  const ms = Date.parse(p.expired_at.replace(/(\.\d{3})\d*Z$/, '$1Z')) - p.datetime * 1000;
  if (!(ms > 0)) return 'due';
  const s = Math.floor(ms / 1000);
  return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0') + ' left';
}

async function act(p, action) {
  let body;
  if (action === 'pay-other') {
    const amount = window.prompt('Amount the payer actually paid', p.amount);
    if (amount === null) return;
    body = { amount: amount.trim() };
    action = 'pay';
  }
  try {
    const result = await call('POST', 'sandbox/payments/' + encodeURIComponent(p.id) + '/' + action, body);
    say(p.id + ' is now ' + result.state);
  } catch (error) {
    say(p.id + ': ' + error.message, true);
  }
  refresh();
}

function deliveriesCell(p) {
  const last = p.deliveries[p.deliveries.length - 1];
  const summary = p.deliveries.length === 0 ? 'none' : p.deliveries.length + ' (last: ' + (last.httpStatus || last.error) + ')';
  const list = el('ol', {}, p.deliveries.map((d) => el('li', {
    class: d.ok ? 'ok' : 'bad',
    text: '#' + d.callback + (d.duplicate ? ' (duplicate)' : '') + ' try ' + d.attempt + ' ' + d.state + ' at ' + d.at + ': ' +
      (d.httpStatus ? 'HTTP ' + d.httpStatus : d.error) + ' in ' + d.durationMs + ' ms',
  })));
  const details = el('details', { open: openDetails.has(p.id) }, [el('summary', { text: summary }), list]);
  details.addEventListener('toggle', () => (details.open ? openDetails.add(p.id) : openDetails.delete(p.id)));
  return details;
}

/** Which SBP shape a payment has: a C2B link (qr.nspk.ru) or a phone number to transfer to. */
function sbpShape(p) {
  if (p.method !== 'sbp' || !p.requisites) return '';
  return p.media.some((m) => String(m).startsWith('https://qr.nspk.ru/')) ? ' (C2B link)' : ' (phone number)';
}

function row(p) {
  const final = FINAL.includes(p.state);
  const amount = p.amount + ' ' + p.currency + (p.init_amount !== p.amount ? ' (asked ' + p.init_amount + ')' : '');
  const buttons = ACTIONS.map(([action, label]) => el('button', { type: 'button', disabled: final, text: label, onclick: () => act(p, action) }));
  return el('tr', { class: final ? 'final' : '' }, [
    el('td', {}, [el('a', { href: 'pay/' + encodeURIComponent(p.id), text: p.id })]),
    el('td', { text: p.orderId }),
    el('td', { text: p.method + sbpShape(p) }),
    el('td', { text: amount }),
    el('td', {}, [el('span', { class: 'state state-' + p.state, text: p.state })]),
    el('td', { text: timeLeft(p), title: p.expired_at }),
    el('td', {}, [deliveriesCell(p)]),
    el('td', { class: 'actions' }, buttons),
  ]);
}

let timer = 0;
async function refresh() {
  clearTimeout(timer);
  try {
    const payments = await call('GET', 'sandbox/payments');
    rows.replaceChildren(...payments.map(row));
    empty.hidden = payments.length > 0;
  } catch (error) {
    say('cannot reach the sandbox: ' + error.message, true);
  }
  timer = setTimeout(refresh, POLL_MS);
}

function fillFaults(f) {
  for (const [key, value] of Object.entries(f)) {
    const input = form.elements.namedItem(key);
    if (!input) continue;
    if (input.type === 'checkbox') input.checked = value;
    else input.value = String(value);
  }
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const faults = {};
  for (const input of form.querySelectorAll('input')) {
    faults[input.name] = input.type === 'checkbox' ? input.checked : Number(input.value || 0);
  }
  try {
    fillFaults(await call('PUT', 'sandbox/faults', faults));
    say('faults applied');
  } catch (error) {
    say('faults: ' + error.message, true);
  }
});
document.getElementById('clear-faults').addEventListener('click', async () => {
  form.reset();
  try {
    fillFaults(await call('PUT', 'sandbox/faults', {}));
    say('faults cleared');
  } catch (error) {
    say('faults: ' + error.message, true);
  }
});

call('GET', 'sandbox/faults').then(fillFaults, () => {});
refresh();
`;

export const CONSOLE_CSS = `:root { font: 15px/1.4 system-ui, sans-serif; color: #1d2430; background: #f6f7f9; }
body { margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.4rem; margin: 0.5rem 0; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid #e3e6eb; vertical-align: top; }
th { font-weight: 600; font-size: 0.85rem; color: #5a6474; }
tr.final { color: #6b7280; }
.state { padding: 0.1rem 0.45rem; border-radius: 0.6rem; background: #e8edf5; font-size: 0.85rem; }
.state-finished { background: #d8f3df; } .state-expired, .state-canceled, .state-failed { background: #f7dede; }
.state-in_check, .state-dispute { background: #fdf0c9; }
.actions button { margin: 0 0.25rem 0.25rem 0; }
button { font: inherit; font-size: 0.85rem; padding: 0.2rem 0.55rem; border: 1px solid #b8c0cc; border-radius: 0.3rem; background: #fff; cursor: pointer; }
button:disabled { cursor: default; opacity: 0.45; }
details ol { margin: 0.3rem 0 0; padding-left: 1.2rem; font-size: 0.8rem; }
li.ok { color: #17703a; } li.bad { color: #a12020; }
#status { min-height: 1.4em; } #status.error { color: #a12020; }
form { display: flex; flex-wrap: wrap; gap: 0.75rem 1.25rem; align-items: center; background: #fff; padding: 0.75rem; }
form input[type=number] { width: 6rem; }
.pay { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 0.5rem; }
.pay dl { display: grid; grid-template-columns: auto 1fr; gap: 0.3rem 1rem; }
.pay dt { color: #5a6474; } .pay dd { margin: 0; font-weight: 600; word-break: break-all; }
.pay .amount { font-size: 2rem; font-weight: 700; margin: 0.5rem 0; }
.pay button, .pay a.button { font-size: 1rem; padding: 0.5rem 1rem; margin-right: 0.5rem; }
.pay a.button { display: inline-block; border: 1px solid #b8c0cc; border-radius: 0.3rem; color: inherit; text-decoration: none; }
.transfer { padding: 0; } .transfer label { display: grid; gap: 0.25rem; }
.transfer input { font: inherit; font-size: 1rem; padding: 0.5rem; border: 1px solid #b8c0cc; border-radius: 0.3rem; width: 100%; }
`;
