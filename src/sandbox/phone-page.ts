/**
 * GET /phone?link=<deep link>: the sandbox plays the payment app a phone would open (docs/phone-links.md). It
 * reads the link, finds the payment it is for (UPI by the reference `tr`, SBP by the qr.nspk.ru id; a bank app
 * opened without a link lists the open SBP payments), and shows what the app would: the app, the payee, the
 * amount and the reference, with Pay (the sandbox's own pay action) and "Back to the shop". In end-to-end tests
 * the element's links are sent here, so the whole hand-off runs in a browser. CSP-clean: the script is a file.
 */
import type { SandboxPaymentView } from './payment-store.js';
import { parsePhoneLink, type PhoneLink } from './phone-link.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The open payments this link is for, newest first. */
export function paymentsForLink(link: PhoneLink, payments: readonly SandboxPaymentView[]): SandboxPaymentView[] {
  const open = payments.filter((p) => p.state === 'pending' || p.state === 'created' || p.state === 'in_check').reverse();
  if (link.kind === 'upi') {
    return open.filter(
      (p) => p.method === 'upi' && (p.orderId === link.reference || p.id === link.reference) && p.requisites?.address === link.payee,
    );
  }
  if (link.qrId) return open.filter((p) => p.media.some((m) => m.includes(`/${link.qrId}`)));
  return open.filter((p) => p.method === 'sbp');
}

export function phonePageHtml(text: string, payments: readonly SandboxPaymentView[]): { status: number; html: string } {
  const parsed = parsePhoneLink(text);
  if (!parsed.ok) return { status: 400, html: page('Cannot open this link', `<p class="error">${escapeHtml(parsed.reason)}.</p>`) };
  const { link } = parsed;
  const matches = paymentsForLink(link, payments);
  const heading = link.kind === 'upi' ? `Pay with ${link.app}` : `Your bank: ${link.app}`;
  const details =
    link.kind === 'upi'
      ? `<dl><dt>Payee</dt><dd>${escapeHtml(link.payeeName || link.payee)} (${escapeHtml(link.payee)})</dd>
<dt>Amount</dt><dd>${escapeHtml(link.amount ?? '-')} ${escapeHtml(link.currency ?? '')}</dd>
<dt>Reference</dt><dd>${escapeHtml(link.reference ?? '-')}</dd></dl>`
      : `<dl><dt>Amount</dt><dd>${escapeHtml(link.amount ?? '-')}</dd><dt>Payment link</dt><dd>${escapeHtml(link.qrId ?? 'none: transfer by phone number')}</dd></dl>`;
  const list = matches.length
    ? `<ul class="phone-payments">${matches
        .map(
          (
            p,
          ) => `<li>${escapeHtml(p.orderId)}: ${escapeHtml(p.amount)} ${escapeHtml(p.currency)}${p.requisites ? `, to ${escapeHtml(p.requisites.address)}` : ''}
<button type="button" class="pay" data-payment="${escapeHtml(p.id)}">Pay</button></li>`,
        )
        .join('')}</ul>`
    : '<p class="error">No open payment of the sandbox matches this link.</p>';
  return { status: 200, html: page(heading, `${details}${list}<p id="status" role="status"></p>`) };
}

function page(heading: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(heading)} - payin-checkout sandbox</title>
<link rel="stylesheet" href="/console.css">
<script type="module" src="/phone.js"></script>
</head>
<body>
<main class="pay">
<h1>${escapeHtml(heading)}</h1>
${body}
<p><button type="button" id="back">Back to the shop</button></p>
<p><small>The payin-checkout sandbox, playing the payment app. No money moves.</small></p>
</main>
</body>
</html>`;
}

export const PHONE_JS = `// payin-checkout sandbox: the page that plays the payment app.
for (const button of document.querySelectorAll('button.pay')) {
  button.addEventListener('click', async () => {
    const status = document.getElementById('status');
    button.disabled = true;
    const answer = await fetch('/sandbox/payments/' + encodeURIComponent(button.dataset.payment) + '/pay', { method: 'POST' });
    status.textContent = answer.ok ? 'Paid. Go back to the shop.' : 'The sandbox refused: HTTP ' + answer.status;
  });
}
document.getElementById('back').addEventListener('click', () => history.back());
`;
