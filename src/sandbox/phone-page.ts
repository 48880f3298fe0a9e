/**
 * GET /phone?link=<deep link>: the sandbox plays the payment app a phone would open (docs/phone-links.md). It
 * reads the link, finds the open payment it is for (UPI by the reference `tr` and the payee, SBP by the
 * qr.nspk.ru id) and shows what the app would: the app or bank, the payee, the amount and the reference, with Pay
 * and Cancel (the sandbox's own pay and cancel actions) and "Back to the shop": a link to the return URL the shop
 * gave at creation (`successUri`, or `failUri` once cancelled), as a bank app opens it, else `history.back()`. A bank app opened without a link (the
 * phone-number shape) shows a transfer form instead: the shopper enters the number and the sum, as in a real bank
 * app. In end-to-end tests the element's links are sent here, so the whole hand-off runs in a browser. A link no
 * app would open gets a 400 page saying why. CSP-clean: the script is a file, the form a plain GET.
 */
import { readServiceAmount } from '../shared/service-amount.js';
import { PAGE_CSP } from './console-page.js';
import type { SandboxPaymentView } from './payment-store.js';
import { escapeHtml, pageShell } from './page-shell.js';
import { parsePhoneLink, type PhoneLink } from './phone-link.js';

const OPEN = new Set(['created', 'pending', 'in_check']);

const digitsOf = (text: string) => text.replace(/\D/g, '');
/** The sum typed as a bank app takes it ("450", "450,00", "1 450.00"), never as only JavaScript reads it ("0x1C2"). */
const sameAmount = (a: string, typed: string) => {
  const sum = readServiceAmount(typed);
  return sum !== undefined && sum === readServiceAmount(a);
};

/** The open payments a link is for, newest first; for the phone shape, those to `transfer.phone` of `transfer.amount`. */
export function paymentsForLink(
  link: PhoneLink,
  payments: readonly SandboxPaymentView[],
  transfer?: { phone: string; amount: string },
): SandboxPaymentView[] {
  const open = payments.filter((p) => OPEN.has(p.state));
  if (link.kind === 'upi') {
    return open.filter(
      (p) => p.method === 'upi' && (p.orderId === link.reference || p.id === link.reference) && p.requisites?.address === link.payee,
    );
  }
  const sbp = open.filter((p) => p.method === 'sbp');
  if (link.qrId) return sbp.filter((p) => p.media.some((m) => m.startsWith(`https://qr.nspk.ru/${link.qrId}?`)));
  if (!transfer || !digitsOf(transfer.phone)) return [];
  return sbp.filter((p) => digitsOf(p.requisites?.address ?? '') === digitsOf(transfer.phone) && sameAmount(p.amount, transfer.amount));
}

/** `/phone` and its script; undefined for any other path. */
export function phoneRoute(request: Request, url: URL, payments: () => SandboxPaymentView[]): Response | undefined {
  if (url.pathname !== '/phone' && url.pathname !== '/phone.js') return undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
  if (url.pathname === '/phone.js') return new Response(PHONE_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  const q = url.searchParams;
  const transfer = q.has('phone') ? { phone: q.get('phone') ?? '', amount: q.get('amount') ?? '' } : undefined;
  const { status, html } = phonePageHtml(q.get('link') ?? '', payments(), transfer);
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' };
  return new Response(request.method === 'HEAD' ? null : html, { status, headers });
}

export function phonePageHtml(
  text: string,
  payments: readonly SandboxPaymentView[],
  transfer?: { phone: string; amount: string },
): { status: number; html: string } {
  const parsed = parsePhoneLink(text);
  if (!parsed.ok) return { status: 400, html: page('Cannot open this link', `<p class="error">${escapeHtml(parsed.reason)}.</p>`) };
  const { link } = parsed;
  const matches = paymentsForLink(link, payments, transfer);
  if (link.kind === 'upi') {
    const details = rows([
      ['Payee', `${link.payeeName || link.payee} (${link.payee})`],
      ['Amount', `${link.amount ?? '-'} ${link.currency ?? ''}`],
      ['Reference', link.reference ?? '-'],
    ]);
    return { status: 200, html: page(`Pay with ${link.app}`, details + payList(matches, undefined, link.amount), matches[0]) };
  }
  if (link.qrId) {
    const p = matches[0];
    const details = rows([
      ['Payee', p?.requisites ? `${p.requisites.recipient}, ${p.requisites.bank}` : '-'],
      ['Amount', `${link.amount ?? p?.amount ?? '-'} RUB`],
      ['Reference', p?.orderId ?? '-'],
      ['SBP payment', link.qrId],
    ]);
    return { status: 200, html: page(`${link.app}: pay by SBP`, details + payList(matches, undefined, link.amount), p) };
  }
  const form = `<form method="get" action="phone" class="transfer">
<input type="hidden" name="link" value="${escapeHtml(text)}">
<p><label>Phone number <input name="phone" type="tel" required value="${escapeHtml(transfer?.phone ?? '')}"></label></p>
<p><label>Amount, RUB <input name="amount" inputmode="decimal" required value="${escapeHtml(transfer?.amount ?? '')}"></label></p>
<p><button type="submit" id="find">Continue</button></p>
</form>`;
  const found = transfer ? payList(matches, 'No open SBP payment goes to this number for this amount.') : '';
  return { status: 200, html: page(`${link.app}: transfer by SBP`, form + found, matches[0]) };
}

function rows(entries: [string, string][]): string {
  return `<dl>${entries.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

/**
 * The open payments with their Pay buttons. `asked` is the sum the link carries (UPI's `am`, a C2B link's `sum`):
 * an app pays that, not what the service asked, so a link asking another sum pays it here too, and the service
 * reports the payment paid with that amount ("success with recalculation"), as it would in production.
 */
function payList(
  matches: readonly SandboxPaymentView[],
  none = 'No open payment of the sandbox matches this link.',
  asked?: string,
): string {
  if (!matches.length) return `<p class="error">${escapeHtml(none)}</p>`;
  const items = matches.map((p) => {
    const to = p.requisites ? `, to ${p.requisites.recipient} (${p.requisites.address})` : '';
    const label = `Pay ${asked ?? p.amount} ${p.currency}`;
    const sum = asked === undefined ? '' : ` data-amount="${escapeHtml(asked)}"`;
    return `<li>Order ${escapeHtml(p.orderId)}: ${escapeHtml(p.amount)} ${escapeHtml(p.currency)}${escapeHtml(to)}
<button type="button" class="pay" data-payment="${escapeHtml(p.id)}"${sum}>${escapeHtml(label)}</button>
<button type="button" class="cancel" data-payment="${escapeHtml(p.id)}">Cancel</button></li>`;
  });
  return `<ul class="phone-payments">${items.join('')}</ul><p id="status" role="status"></p>`;
}

/** "Back to the shop": the shop's return URL when the payment has one (the app opens it), else the browser's Back. */
function backControl(payment: SandboxPaymentView | undefined): string {
  const label = 'Back to the shop';
  if (!payment?.successUri) return `<button type="button" id="back">${label}</button>`;
  const fail = payment.failUri ? ` data-fail="${escapeHtml(payment.failUri)}"` : '';
  return `<a id="back" class="button" href="${escapeHtml(payment.successUri)}"${fail}>${label}</a>`;
}

function page(heading: string, body: string, payment?: SandboxPaymentView): string {
  return pageShell({
    title: heading,
    assets: '',
    script: 'phone.js',
    main: `<main class="pay phone">
<h1>${escapeHtml(heading)}</h1>
${body}
<p>${backControl(payment)}</p>
<p><small>The payin-checkout sandbox, playing the payment app. No money moves.</small></p>
</main>`,
  });
}

export const PHONE_JS = `// payin-checkout sandbox: the page that plays the payment app.
const status = document.getElementById('status');
const back = document.getElementById('back');
for (const button of document.querySelectorAll('button.pay, button.cancel')) {
  const action = button.classList.contains('pay') ? 'pay' : 'cancel';
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      // The sum the link carries, as the app pays it; without one, what the payment asks.
      const sum = action === 'pay' && button.dataset.amount;
      const init = sum
        ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: sum }) }
        : { method: 'POST' };
      const answer = await fetch('sandbox/payments/' + encodeURIComponent(button.dataset.payment) + '/' + action, init);
      const done = action === 'pay' ? 'Paid.' : 'Cancelled.';
      status.textContent = answer.ok ? done + ' Go back to the shop.' : 'The sandbox refused: HTTP ' + answer.status;
      if (!answer.ok) button.disabled = false;
      else if (action === 'cancel' && back.dataset.fail) back.href = back.dataset.fail;
    } catch (error) {
      status.textContent = 'The sandbox did not answer: ' + error.message;
      button.disabled = false;
    }
  });
}
// The transfer form replaces this page instead of adding one, so that Back leads to the shop, not to the form.
const transfer = document.querySelector('form.transfer');
transfer?.addEventListener('submit', (event) => {
  event.preventDefault();
  location.replace(transfer.action + '?' + new URLSearchParams(new FormData(transfer)));
});
// Without a return URL the app can only hand the shopper back to the browser, as it was.
if (back.tagName === 'BUTTON') back.addEventListener('click', () => history.back());
`;
