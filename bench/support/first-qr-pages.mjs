// The pages of the time-to-QR figure (bench/first-qr.mjs), on one loopback origin: ours (the script-tag build,
// its parts beside it, and the proxy in front of the sandbox) and Adyen Web's UPI component (bundled here from its
// npm package as bench/peers.mjs bundles it, with its stylesheet), each served under /gzip/ with
// `Content-Encoding: gzip` and under /plain/ without. Adyen's side talks to a local stand-in of its services: its
// advanced flow's onSubmit posts to the "shop" here, which answers the `qrCode` action a UPI QR payment gets, and
// the QR image, which Adyen's component loads from its service (utility/v1/barcode.png), is drawn here with the
// qrcode package; the status it polls stays pending. Nothing leaves the machine.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import QRCode from 'qrcode';
import { bundleFiles } from './bundle.mjs';
import { at } from './stack.mjs';

const UPI_LINK = 'upi://pay?pa=shop%40okbank&pn=Demo%20Tea%20Shop&am=499.00&cu=INR&tr=bench';

const ADYEN_UPI = `
import { AdyenCheckout, UPI } from '@adyen/adyen-web';
import '@adyen/adyen-web/styles/adyen.css';
window.startUpi = async (configuration) => {
  const checkout = await AdyenCheckout(configuration);
  return new UPI(checkout, { showPayButton: false }).mount('#upi');
};`;

/** The page's own script for Adyen: the configuration a shop writes, pointed at the stand-ins, then the shopper's tap. */
const ADYEN_START = `(async () => {
  const origin = location.origin;
  const component = await window.startUpi({
    clientKey: 'local_bench',
    environment: 'test',
    _environmentUrls: { api: origin + '/adyen/', analytics: origin + '/adyen-analytics/', cdn: { images: origin + '/adyen-cdn/', translations: origin + '/adyen-cdn/' } },
    countryCode: 'IN',
    locale: 'en-US',
    amount: { value: 49900, currency: 'INR' },
    analytics: { enabled: false },
    paymentMethodsResponse: { paymentMethods: [{ type: 'upi', name: 'UPI' }] },
    onSubmit: async (state, _component, actions) => {
      const answer = await fetch('/adyen-shop/payments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(state.data) });
      actions.resolve(await answer.json());
    },
  });
  // The shopper's tap on "Generate QR code" as soon as the component can take it (it validates after its first render).
  const tap = () => (component.isValid ? component.submit() : requestAnimationFrame(tap));
  tap();
})();`;

async function adyenBundle() {
  const files = await bundleFiles(ADYEN_UPI);
  const file = (ext) => files.find((f) => f.path.endsWith(ext))?.contents ?? new Uint8Array();
  return { js: file('.js'), css: file('.css') };
}

const html = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>time to QR</title>${body}`;

/**
 * The handler of the pages' origin. `stack` is bench/support/stack.mjs's proxy and sandbox. Pages:
 * /<gzip|plain>/ours?order=<id> and /<gzip|plain>/adyen.
 */
export async function firstQrPages(stack) {
  const adyen = await adyenBundle();
  const files = new Map([
    ['adyen.js', { body: adyen.js, type: 'text/javascript' }],
    ['adyen.css', { body: adyen.css, type: 'text/css' }],
    ['adyen-start.js', { body: new TextEncoder().encode(ADYEN_START), type: 'text/javascript' }],
  ]);
  const distFile = (name) =>
    /^payin-checkout\.[\w-]+(?:\.part)?\.js$/.test(name) ? { body: readFileSync(at(`dist/${name}`)), type: 'text/javascript' } : undefined;
  const gzipped = new Map();
  const qrImage = await QRCode.toBuffer(UPI_LINK, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 5 });

  return async (request) => {
    const url = new URL(request.url);
    const { pathname } = url;
    if (stack.proxy.matches(request)) return stack.proxy(request);
    const page = /^\/(gzip|plain)\/(ours|adyen)$/.exec(pathname);
    if (page) {
      const [, mode, who] = page;
      const body =
        who === 'ours'
          ? html(`<script src="/${mode}/payin-checkout.iife.js"></script></head><body>
<payin-checkout endpoint="/payin" order-id="${encodeURIComponent(url.searchParams.get('order') ?? 'B-1')}" method="upi" autostart></payin-checkout></body></html>`)
          : html(`<link rel="stylesheet" href="/${mode}/adyen.css"><script src="/${mode}/adyen.js"></script></head><body>
<div id="upi"></div><script src="/${mode}/adyen-start.js"></script></body></html>`);
      return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
    }
    const asset = /^\/(gzip|plain)\/([\w.-]+)$/.exec(pathname);
    if (asset) {
      const [, mode, name] = asset;
      const file = files.get(name) ?? distFile(name);
      if (!file) return new Response('not found', { status: 404 });
      const headers = { 'content-type': `${file.type}; charset=utf-8`, 'cache-control': 'no-store' };
      if (mode === 'plain') return new Response(file.body, { headers });
      if (!gzipped.has(name)) gzipped.set(name, gzipSync(file.body, { level: 9 }));
      return new Response(gzipped.get(name), { headers: { ...headers, 'content-encoding': 'gzip' } });
    }
    // The stand-ins of the shop's server and of Adyen's services.
    if (pathname === '/adyen-shop/payments' && request.method === 'POST') {
      return Response.json({
        resultCode: 'Pending',
        action: { type: 'qrCode', paymentMethodType: 'upi_qr', qrCodeData: UPI_LINK, paymentData: 'bench-payment-data' },
      });
    }
    if (pathname === '/adyen/utility/v1/barcode.png') return new Response(qrImage, { headers: { 'content-type': 'image/png' } });
    if (pathname.startsWith('/adyen/services/PaymentInitiation/')) return Response.json({ type: 'pending', payload: '' });
    if (pathname.startsWith('/adyen-analytics/')) return Response.json({});
    // The device fingerprinting frame its risk module opens.
    if (pathname.startsWith('/adyen/assets/html/'))
      return new Response('<!doctype html><title>dfp</title>', { headers: { 'content-type': 'text/html' } });
    if (pathname === '/favicon.ico') return new Response(null, { status: 204 });
    if (pathname.startsWith('/adyen-cdn/')) {
      return new Response('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="26"></svg>', {
        headers: { 'content-type': 'image/svg+xml' },
      });
    }
    return new Response('not found', { status: 404 });
  };
}
