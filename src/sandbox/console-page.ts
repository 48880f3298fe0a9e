/**
 * The pages a person opens in a browser: the console at `/` (payments, their callbacks, the payer's buttons and
 * the fault panel), the hosted payment page at `/pay/{id}`, and their script and style files. Every page is sent
 * with a strict Content-Security-Policy, the same one the widget must live under, which proves that nothing here
 * needs inline code; assets are linked relatively so the sandbox also works behind a path prefix.
 */
import { CONSOLE_CSS, CONSOLE_JS } from './console-assets.js';
import { SandboxError } from './errors.js';
import { isPaymentId } from './ids.js';
import { PAY_JS, payPageHtml } from './pay-page.js';

/** Every page's policy (the console, the hosted page, the phone page): nothing inline. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>payin-checkout sandbox</title>
<link rel="stylesheet" href="console.css">
<script type="module" src="console.js"></script>
</head>
<body>
<header>
<h1>payin-checkout sandbox</h1>
<p>The payment service, emulated: play the payer, watch the signed callbacks, switch faults on.</p>
<p id="status" role="status"></p>
</header>
<main>
<section aria-labelledby="payments-title">
<h2 id="payments-title">Payments</h2>
<table id="payments">
<thead><tr><th>id</th><th>order</th><th>method</th><th>amount</th><th>state</th><th>expiry</th><th>callbacks</th><th>payer and operator</th></tr></thead>
<tbody></tbody>
</table>
<p id="empty">No payments yet: create one with a signed POST /api/v2/payments.</p>
</section>
<section aria-labelledby="faults-title">
<h2 id="faults-title">Faults</h2>
<form id="faults">
<label>latencyMs <input name="latencyMs" type="number" min="0" max="120000" step="1" value="0"></label>
<label>errorRate <input name="errorRate" type="number" min="0" max="1" step="0.05" value="0"></label>
<label><input name="htmlErrors" type="checkbox"> htmlErrors</label>
<label>malformedRate <input name="malformedRate" type="number" min="0" max="1" step="0.05" value="0"></label>
<label><input name="statusAsArray" type="checkbox"> statusAsArray</label>
<label><input name="duplicateCallbacks" type="checkbox"> duplicateCallbacks</label>
<label><input name="reorderCallbacks" type="checkbox"> reorderCallbacks</label>
<button type="submit">Apply</button>
<button type="button" id="clear-faults">Clear</button>
</form>
</section>
</main>
</body>
</html>
`;

function asset(body: string, type: string): Response {
  return new Response(body, {
    headers: {
      'content-type': `${type}; charset=utf-8`,
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    },
  });
}

/** Answers the page routes; throws a 404 or 405 SandboxError for anything else. */
export function pageRoute(request: Request, path: string, exists: (paymentId: string) => boolean): Response {
  let response: Response | undefined;
  if (path === '/') response = asset(CONSOLE_HTML, 'text/html');
  else if (path === '/console.js') response = asset(CONSOLE_JS, 'text/javascript');
  else if (path === '/console.css') response = asset(CONSOLE_CSS, 'text/css');
  else if (path === '/pay.js') response = asset(PAY_JS, 'text/javascript');
  else {
    const id = /^\/pay\/([^/]+)$/.exec(path)?.[1];
    if (id !== undefined && isPaymentId(id) && exists(id)) response = asset(payPageHtml(id), 'text/html');
  }
  if (!response) throw new SandboxError(404, `nothing at ${path}: the console is at /, the API under /api/v2`);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new SandboxError(405, `${path} takes GET, not ${request.method}`, { allow: 'GET, HEAD' });
  }
  return request.method === 'HEAD' ? new Response(null, { headers: response.headers }) : response;
}
