// Figure 9, what the shopper feels: the time from the page's start (navigation) to a drawn QR, on an emulated
// mid-range phone: Chromium's CPU slowed 4x and DevTools' "Slow 4G" network profile (Lighthouse's mobile
// throttling: 562.5 ms request latency, 1.47 Mbps down, 675 kbps up), cold cache (a fresh browser context per
// run, the cache disabled). Ours: the script-tag build with autostart, creating a payment through the proxy and
// the sandbox on loopback. Adyen Web's UPI component on the same page setup, against local stand-ins of its
// services (bench/support/first-qr-pages.mjs): its QR is an image its service draws, loaded once the payment's
// action arrives. Each is served with HTTP compression (gzip) and without, in turns, in the same run. The
// viewport is a phone's width without touch, so that both draw their QR in view (a touch phone folds ours away
// behind its app chooser). The QR counts as drawn at the first animation frame that has it: our SVG in the
// element's shadow root, Adyen's image decoded. BENCH_FIRST_QR_RUNS (default 5) runs per page and mode.
import { chromium } from 'playwright-core';
import { CHROME_ARGS, findChrome } from '../test/tools/find-chrome.mjs';
import { ms, ratio, verdict } from './support/format.mjs';
import { firstQrPages } from './support/first-qr-pages.mjs';
import { commandOf, envNumber, NO_CHROME, notMeasured, report } from './support/section.mjs';
import { serve, startStack } from './support/stack.mjs';
import { median } from './support/stats.mjs';

const runs = envNumber('BENCH_FIRST_QR_RUNS', 5, { min: 1, max: 100 });
const command = commandOf('first-qr.mjs', { BENCH_FIRST_QR_RUNS: process.env.BENCH_FIRST_QR_RUNS });
const TIMEOUT_MS = 60_000;

// DevTools' "Slow 4G" (Lighthouse's mobileSlow4G with its DevTools multipliers), in the units CDP takes.
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
};
const CPU_SLOWDOWN = 4;

/** Runs in the page from its start: the time of the first animation frame with a drawn QR on window.__qrAt. */
const WATCH = `(() => {
  const drawn = () => {
    const ours = document.querySelector('payin-checkout')?.shadowRoot?.querySelector('[part~="qr"]');
    const image = document.querySelector('#upi img[src*="barcode.png"]');
    return ours || (image && image.complete && image.naturalWidth > 0);
  };
  const frame = () => (drawn() ? (window.__qrAt = performance.now()) : requestAnimationFrame(frame));
  requestAnimationFrame(frame);
})();`;

/**
 * The most requests the page made one after another before its QR was drawn: a request follows another when it
 * started after that one finished. Each costs the profile's latency at least, so this count sets a floor under
 * the time to QR that no smaller script can go below.
 */
function longestChain(requests, drawnAt) {
  const done = requests.filter((request) => request.end !== undefined && request.end <= drawnAt).sort((a, b) => a.start - b.start);
  const chain = done.map(() => 1);
  done.forEach((request, i) => {
    for (let j = 0; j < i; j++) if (done[j].end <= request.start) chain[i] = Math.max(chain[i], chain[j] + 1);
  });
  return Math.max(0, ...chain);
}

async function timeToQr(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, deviceScaleFactor: 2, locale: 'en-US' });
  try {
    await context.addInitScript({ content: WATCH });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    const requests = new Map();
    cdp.on('Network.requestWillBeSent', (event) => requests.set(event.requestId, { start: event.wallTime * 1000, clock: event.timestamp }));
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      const request = requests.get(event.requestId);
      if (request) request.end = request.start + (event.timestamp - request.clock) * 1000;
    });
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    await page.waitForFunction(() => window.__qrAt !== undefined, undefined, { timeout: TIMEOUT_MS, polling: 100 });
    const drawnAt = await page.evaluate(() => performance.timeOrigin + window.__qrAt);
    return { ms: await page.evaluate(() => window.__qrAt), bytes, inSequence: longestChain([...requests.values()], drawnAt) };
  } finally {
    await context.close();
  }
}

const chrome = findChrome();
if (!chrome) {
  await report(notMeasured({ id: 'first-qr', title: 'Time to QR', figure: 'time to QR', command }, NO_CHROME));
  process.exit(0);
}

const stack = await startStack({ sockets: true });
const pages = await serve(await firstQrPages(stack));
const browser = await chromium.launch({ executablePath: chrome, args: CHROME_ARGS, timeout: 30_000 });
const samples = { 'ours gzip': [], 'ours plain': [], 'adyen gzip': [], 'adyen plain': [] };
const bytes = {};
const inSequence = { ours: [], adyen: [] };
try {
  // Turns within each round, so that a slow moment of the shared machine falls on every page alike.
  for (let round = 0; round < runs; round++) {
    for (const mode of ['gzip', 'plain']) {
      const ours = await timeToQr(browser, `${pages.url}/${mode}/ours?order=Q-${process.pid}-${mode}-${round}`);
      const adyen = await timeToQr(browser, `${pages.url}/${mode}/adyen`);
      samples[`ours ${mode}`].push(ours.ms);
      samples[`adyen ${mode}`].push(adyen.ms);
      bytes[`ours ${mode}`] = ours.bytes;
      bytes[`adyen ${mode}`] = adyen.bytes;
      inSequence.ours.push(ours.inSequence);
      inSequence.adyen.push(adyen.inSequence);
    }
  }
} finally {
  await browser.close();
  await pages.close();
  await stack.close();
}

const p50 = Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;
const row = (mode) => ({
  figure: `page start -> QR drawn, ${mode === 'gzip' ? 'served with gzip' : 'served without compression'}, median of ${runs}`,
  value: `ours ${ms(p50[`ours ${mode}`])}, Adyen ${ms(p50[`adyen ${mode}`])}: ${ratio(p50[`adyen ${mode}`] / p50[`ours ${mode}`])} faster`,
  target: '>= 3x faster than Adyen',
  compared: `transferred: ours ${kB(bytes[`ours ${mode}`])}, Adyen ${kB(bytes[`adyen ${mode}`])}`,
  verdict: verdict(p50[`adyen ${mode}`] >= 3 * p50[`ours ${mode}`]),
  command,
});
// The request chains bound the ratio: even a script that cost nothing could not draw ours sooner than its
// requests in sequence times the profile's latency.
const chains = { ours: median(inSequence.ours), adyen: median(inSequence.adyen) };
const floor = chains.ours * SLOW_4G.latency;
const boundRow = {
  figure: 'requests one after another before the QR (median), and the ratio they allow at most',
  value: `ours ${chains.ours}, Adyen ${chains.adyen}: ours cannot draw before ${ms(floor)}, so at most ${ratio(p50['adyen gzip'] / floor)} (gzip) / ${ratio(p50['adyen plain'] / floor)} (plain) faster`,
  compared: `ours at ${ratio(p50['ours gzip'] / floor)} of its floor (gzip)`,
  verdict: 'n/a',
  command,
};
await report({
  id: 'first-qr',
  title: `Time to QR on an emulated mid-range phone (CPU 4x slower, Slow 4G, cold cache; ${runs} runs each)`,
  note:
    'From the navigation to the first animation frame with a drawn QR, in the page clock. Ours: the script-tag build ' +
    'with autostart (the page, the core script, the create request to the proxy, which asks the sandbox on loopback). ' +
    "Adyen Web's UPI component, bundled from its npm package with its stylesheet, submitted at once in its QR mode " +
    "against local stand-ins of the shop's server and Adyen's services (its QR is an image that its service draws). " +
    'Each run is a fresh browser context with the cache disabled; the network profile adds 562.5 ms to every request, ' +
    'so the count of requests before the QR weighs as much as the bytes. "Transferred" is what the page fetched ' +
    'before the QR (and any request still finishing), headers included.',
  rows: [row('gzip'), row('plain'), boundRow],
  raw: { runs, samples, bytes, inSequence, network: SLOW_4G, cpuSlowdown: CPU_SLOWDOWN },
});
