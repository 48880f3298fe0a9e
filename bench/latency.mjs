// Figure 8, latency in Chromium (playwright-core; the browser that test/tools/find-chrome.mjs finds, CHROME_PATH
// first). One page on loopback loads the script-tag build; the proxy and the sandbox (assignment delay 0) run in
// this process. Each run puts a fresh <payin-checkout> for a new order on the page and times, in the page's own
// clock: click on the pay button -> the QR is in the element's DOM (time to QR), and the page's request that
// makes the sandbox mark the payment paid -> the element shows the paid screen (status to screen). Once over
// the event stream, once with polling only (EventSource removed from the page). A MutationObserver on the
// shadow root notices each render. BENCH_LATENCY_RUNS (default 20, after 2 warm-up runs), BENCH_POLL_MS (the
// element's poll-interval in the polling runs, default 1000; the element's own default is 3000).
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROME_ARGS, findChrome } from '../test/tools/find-chrome.mjs';
import { ms, verdict } from './support/format.mjs';
import { commandOf, envNumber, NO_CHROME, notMeasured, report } from './support/section.mjs';
import { at, BASE_PATH, serve, startStack } from './support/stack.mjs';
import { summarize } from './support/stats.mjs';

const runs = envNumber('BENCH_LATENCY_RUNS', 20, { min: 1, max: 1_000 });
const pollMs = envNumber('BENCH_POLL_MS', 1_000, { min: 250, max: 60_000 });
const WARMUP = 2;
const command = commandOf('latency.mjs', { BENCH_LATENCY_RUNS: process.env.BENCH_LATENCY_RUNS, BENCH_POLL_MS: process.env.BENCH_POLL_MS });

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>payin-checkout latency</title>
<script src="/payin-checkout.iife.js"></script></head>
<body><main id="host"></main></body></html>`;
const scripts = new Set(readdirSync(at('dist/')).filter((name) => /^payin-checkout\.[^/]+\.js$/.test(name)));

/** The page's origin: the page, the script-tag build (and language files beside it), the proxy, the payer. */
function pageServer(stack) {
  return async (request) => {
    const { pathname } = new URL(request.url);
    if (stack.proxy.matches(request)) return stack.proxy(request);
    if (pathname === '/') return new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const name = pathname.slice(1);
    if (scripts.has(name)) {
      return new Response(readFileSync(at(`dist/${name}`)), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    }
    const act = /^\/bench\/act\/([^/]+)\/([a-z-]+)$/.exec(pathname);
    if (act && request.method === 'POST') {
      const view = stack.sandbox.act(decodeURIComponent(act[1]), act[2]);
      return Response.json({ state: view.state });
    }
    return new Response('not found', { status: 404 });
  };
}

/** Runs in the page: one checkout from click to QR, then from "paid" at the sandbox to the paid screen. */
async function oneRun({ orderId, pollMs, endpoint, timeoutMs, payAfterMs }) {
  const host = document.getElementById('host');
  const el = document.createElement('payin-checkout');
  el.setAttribute('endpoint', endpoint);
  el.setAttribute('order-id', orderId);
  el.setAttribute('method', 'upi');
  el.setAttribute('poll-interval', String(pollMs));
  host.replaceChildren(el);
  const when = (check, what) =>
    new Promise((resolve, reject) => {
      let observer;
      const timer = setTimeout(() => {
        observer?.disconnect();
        reject(new Error(`no ${what} within ${timeoutMs} ms (screen ${el.screen})`));
      }, timeoutMs);
      const done = () => {
        if (!check()) return false;
        const at = performance.now();
        observer?.disconnect();
        clearTimeout(timer);
        resolve(at);
        return true;
      };
      if (!done()) {
        observer = new MutationObserver(done);
        observer.observe(el.shadowRoot, { subtree: true, childList: true, attributes: true, characterData: true });
      }
    });
  await when(() => el.shadowRoot?.querySelector('[part~="pay-button"]'), 'pay button');
  const clicked = performance.now();
  el.shadowRoot.querySelector('[part~="pay-button"]').click();
  const qrAt = await when(() => el.shadowRoot.querySelector('[part~="qr"]'), 'QR');
  const id = el.payment?.id;
  // A payer pays at any moment, not just after a poll: wait a random part of the interval first.
  if (payAfterMs) await new Promise((resolve) => setTimeout(resolve, payAfterMs));
  const changed = performance.now();
  const acted = fetch(`/bench/act/${encodeURIComponent(id)}/pay`, { method: 'POST' });
  const paidAt = await when(() => el.screen === 'paid', 'paid screen');
  await acted;
  return { qrMs: qrAt - clicked, paidMs: paidAt - changed };
}

async function measure(browser, baseUrl, mode) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' });
  if (mode === 'polling') await context.addInitScript({ content: 'delete window.EventSource;' });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/`);
  const samples = [];
  try {
    for (let i = 0; i < runs + WARMUP; i++) {
      const sample = await page.evaluate(oneRun, {
        orderId: `L-${process.pid}-${mode}-${i}`,
        pollMs,
        endpoint: BASE_PATH,
        timeoutMs: 15_000 + pollMs * 3,
        payAfterMs: mode === 'polling' ? Math.random() * pollMs : 0,
      });
      if (i >= WARMUP) samples.push(sample);
    }
  } finally {
    await context.close();
  }
  return { qr: summarize(samples.map((s) => s.qrMs)), paid: summarize(samples.map((s) => s.paidMs)), samples };
}

const chrome = findChrome();
if (!chrome) {
  await report(notMeasured({ id: 'latency', title: 'Latency in Chromium', figure: 'status to screen, time to QR', command }, NO_CHROME));
  process.exit(0);
}

const stack = await startStack({ sockets: true });
const page = await serve(pageServer(stack));
const browser = await chromium.launch({ executablePath: chrome, args: CHROME_ARGS, timeout: 30_000 });
try {
  const stream = await measure(browser, page.url, 'stream');
  const polling = await measure(browser, page.url, 'polling');
  await report({
    id: 'latency',
    title: `Latency in Chromium, proxy and sandbox on loopback, sandbox delay 0 (${runs} runs each)`,
    note:
      'Times are taken in the page (performance.now): from the click, or from the request that marks the payment paid at ' +
      'the sandbox, to the render that a MutationObserver on the shadow root sees. The status then travels sandbox -> ' +
      `callback -> proxy -> event stream (or the next poll) -> element. Polling runs use poll-interval ${pollMs} ms with ` +
      "the element's +-20 % jitter, and the payment is marked paid at a random moment of the interval.",
    rows: [
      {
        figure: 'status to screen over the event stream, p50 / p95',
        value: `${ms(stream.paid.p50)} / ${ms(stream.paid.p95)}`,
        target: '<= 50 / 150 ms',
        compared: 'reference, not measured here: Adyen polls every 2 s, Razorpay every 3 s',
        verdict: verdict(stream.paid.p50 <= 50 && stream.paid.p95 <= 150),
        command,
      },
      {
        figure: `status to screen with polling (poll-interval ${pollMs} ms), p50 / p95`,
        value: `${ms(polling.paid.p50)} / ${ms(polling.paid.p95)}`,
        target: `p50 <= poll interval (${pollMs} ms)`,
        compared: 'reference, not measured here: Adyen polls every 2 s, Razorpay every 3 s',
        verdict: verdict(polling.paid.p50 <= pollMs),
        command,
      },
      {
        figure: 'time to QR: click -> QR drawn, event stream, p50 (p95)',
        value: `${ms(stream.qr.p50)} (${ms(stream.qr.p95)})`,
        target: '<= 100 ms',
        verdict: verdict(stream.qr.p50 <= 100),
        command,
      },
      {
        figure: `time to QR with polling (poll-interval ${pollMs} ms), p50 (p95)`,
        value: `${ms(polling.qr.p50)} (${ms(polling.qr.p95)})`,
        target: 'reported',
        command,
      },
    ],
    raw: { runs, pollMs, stream, polling },
  });
} finally {
  await browser.close();
  await page.close();
  await stack.close();
}
