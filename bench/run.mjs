// `npm run bench`: what the package costs and what its shared work saves, measured on this machine and printed
// as tables. Sizes are gzip (level 9) of real builds: the script-tag bundle as built, lit alone and the ES module
// entry bundled the way a shop's bundler would. Ratios come from the real proxy and sandbox wired in memory (no
// sockets): N concurrent status requests for one payment against the upstream calls they cost. HMAC throughput
// is operations per second over a typical callback body. Nothing here asserts; the results also go to
// bench/results/latest.json. Run after `npm run build`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const ROOT = new URL('../', import.meta.url);
const at = (path) => new URL(path, ROOT);
for (const file of ['dist/payin-checkout.iife.js', 'dist/widget/index.js', 'dist/proxy/index.js', 'dist/sandbox/index.js']) {
  if (!existsSync(at(file))) {
    console.error(`${file} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}

const { createPayinProxy, silentLogger } = await import(at('dist/proxy/index.js').href);
const { createSandbox, DEMO_MERCHANT } = await import(at('dist/sandbox/index.js').href);
const { signBody, verifySignature } = await import(at('dist/shared/index.js').href);
const { systemClock } = await import(at('dist/server/index.js').href);

const gzip = (bytes) => gzipSync(bytes, { level: 9 }).byteLength;
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

async function bundle(options) {
  const result = await build({
    bundle: true,
    minify: true,
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    absWorkingDir: at('.').pathname,
    ...options,
  });
  return result.outputFiles[0].contents;
}

function table(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

// --- sizes ----------------------------------------------------------------------------------------------------
const iife = readFileSync(at('dist/payin-checkout.iife.js'));
const litAlone = await bundle({
  stdin: {
    contents: "export { LitElement, html, svg, css, nothing } from 'lit'; export { property } from 'lit/decorators.js';",
    resolveDir: at('.').pathname,
  },
  format: 'iife',
});
const qrcodeCore = await bundle({
  stdin: { contents: "export { create } from 'qrcode/lib/core/qrcode.js';", resolveDir: at('.').pathname },
  format: 'iife',
});
const esmBundled = await bundle({ entryPoints: ['dist/widget/index.js'], format: 'esm' });
const esmOwn = await bundle({ entryPoints: ['dist/widget/index.js'], format: 'esm', external: ['lit', 'lit/*', 'qrcode', 'qrcode/*'] });

const sizes = {
  iifeRaw: iife.byteLength,
  iifeGzip: gzip(iife),
  litGzip: gzip(litAlone),
  qrcodeCoreGzip: gzip(qrcodeCore),
  esmBundledGzip: gzip(esmBundled),
  esmOwnGzip: gzip(esmOwn),
};
table(
  'Sizes (gzip -9)',
  ['what', 'bytes', 'size', 'share of script-tag build'],
  [
    ['script-tag build dist/payin-checkout.iife.js', sizes.iifeGzip, kB(sizes.iifeGzip), '100%'],
    [
      '  lit alone (LitElement, html, svg, css, @property)',
      sizes.litGzip,
      kB(sizes.litGzip),
      `${((sizes.litGzip / sizes.iifeGzip) * 100).toFixed(0)}%`,
    ],
    [
      '  qrcode core alone',
      sizes.qrcodeCoreGzip,
      kB(sizes.qrcodeCoreGzip),
      `${((sizes.qrcodeCoreGzip / sizes.iifeGzip) * 100).toFixed(0)}%`,
    ],
    [
      'ES module entry, bundled with lit and qrcode',
      sizes.esmBundledGzip,
      kB(sizes.esmBundledGzip),
      `${((sizes.esmBundledGzip / sizes.iifeGzip) * 100).toFixed(0)}%`,
    ],
    [
      'ES module entry, own code only (lit, qrcode external)',
      sizes.esmOwnGzip,
      kB(sizes.esmOwnGzip),
      `${((sizes.esmOwnGzip / sizes.iifeGzip) * 100).toFixed(0)}%`,
    ],
    ['budget (aim / hard limit)', '', '20.0 kB / 24.0 kB', ''],
  ],
);

// --- proxy status coalescing ------------------------------------------------------------------------------------
// The proxy reaches the sandbox and the sandbox its callback through in-memory fetch functions: no ports.
const SERVICE = 'http://127.0.0.1:9';
const SHOP = 'http://127.0.0.1:9';
let upstreamStatusCalls = 0;
let proxy;
const sandbox = createSandbox({ requisitesDelayMs: 0, fetch: async (input, init) => proxy(new Request(input, init)) });
const serviceFetch = async (input, init) => {
  const request = new Request(input, init);
  if (new URL(request.url).pathname === '/api/v2/status') upstreamStatusCalls += 1;
  return sandbox(request);
};
// The proxy's clock can jump ahead, so that each round starts past the window in which answers are shared.
let skewMs = 0;
const clock = { ...systemClock, now: () => Date.now() + skewMs };
proxy = createPayinProxy({
  clock,
  provider: { baseUrl: SERVICE, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
  callbackUrl: `${SHOP}/payin/callback`,
  resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
  fetch: serviceFetch,
  logger: silentLogger,
  limits: { createsPerMinute: 1_000_000, statusPerMinute: 1_000_000, streamsPerClient: 1_000_000 },
  env: {},
});

const post = (path, body) =>
  proxy(new Request(`${SHOP}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));

let orderSeq = 0;
async function coalescing(concurrent) {
  const created = await post('/payin/payments', { orderId: `B-${++orderSeq}`, method: 'upi' });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { payment, token } = await created.json();
  skewMs += 60_000;
  upstreamStatusCalls = 0;
  const answers = await Promise.all(Array.from({ length: concurrent }, () => post('/payin/status', { paymentId: payment.id, token })));
  const ok = answers.filter((a) => a.status === 200).length;
  await Promise.all(answers.map((a) => a.arrayBuffer()));
  return { concurrent, ok, upstream: upstreamStatusCalls };
}

const coalesce = [];
for (const n of [1, 10, 50, 200]) coalesce.push(await coalescing(n));
table(
  'Proxy status coalescing (concurrent browser status requests for one payment -> upstream status calls)',
  ['concurrent requests', 'answered 200', 'upstream calls', 'requests per upstream call'],
  coalesce.map((c) => [c.concurrent, c.ok, c.upstream, c.upstream ? (c.concurrent / c.upstream).toFixed(1) : 'n/a']),
);
await sandbox.close?.();

// --- HMAC throughput ----------------------------------------------------------------------------------------------
const body = JSON.stringify({
  id: '66a3942dc1d4f',
  orderId: 'A-1001',
  state: 'finished',
  status: true,
  amount: '499.00',
  init_amount: '499.00',
  currency: 'INR',
  method: 'upi',
  created_at: '2026-01-15T10:00:00.000000Z',
  expired_at: '2026-01-15T10:15:00.000000Z',
  requisites: { address: 'payee@okdemo', recipient: 'Asha Verma', bank: 'Demo Bank of India' },
  type: 'payin',
  datetime: 1768471200,
});

async function throughput(label, operation, { maxOps = 200_000, maxMs = 1000 } = {}) {
  for (let i = 0; i < 200; i++) await operation(); // warm up
  const started = performance.now();
  let ops = 0;
  while (ops < maxOps && performance.now() - started < maxMs) {
    await operation();
    ops += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  return { label, ops, perSecond: Math.round(ops / seconds) };
}

const signature = await signBody('demo-secret', body);
const hmac = [
  await throughput('sign (signBody, hex)', () => signBody('demo-secret', body)),
  await throughput('verify (verifySignature, hex)', () => verifySignature('demo-secret', body, signature)),
];
table(
  `HMAC-SHA256 over a ${Buffer.byteLength(body)}-byte callback body`,
  ['operation', 'runs', 'ops/s'],
  hmac.map((h) => [h.label, h.ops, h.perSecond.toLocaleString('en-US')]),
);

mkdirSync(at('bench/results/'), { recursive: true });
writeFileSync(
  at('bench/results/latest.json'),
  `${JSON.stringify({ at: new Date().toISOString(), node: process.version, sizes, coalesce, hmac }, null, 2)}\n`,
);
console.log('\nSaved to bench/results/latest.json');
