// A fake of the browser <-> proxy contract, served by the test runner's dev server, for what the real
// proxy and sandbox cannot be made to do on cue: a skewed server clock, a stream that drops or never opens, a
// failing network, answers that arrive late or out of order, hour-long expiries. Each test names its own
// scenario in the endpoint (`/fake/<scenario>/payin`), so that tests never share payments or counters; the
// scenario is programmed and inspected through `/fake/<scenario>/__control`.
import { randomBytes } from 'node:crypto';

const PREFIX = '/fake/';
const FINAL = new Set(['finished', 'expired', 'canceled', 'failed']);
const OUTCOME = {
  created: 'waiting',
  pending: 'waiting',
  in_check: 'checking',
  dispute: 'checking',
  finished: 'paid',
  expired: 'expired',
  canceled: 'failed',
  failed: 'failed',
};
const PRICES = { upi: ['499.00', 'INR'], sbp: ['1500.00', 'RUB'], card: ['20.00', 'EUR'] };

const DEFAULTS = {
  /** Added to the real clock for `serverTime`, `createdAt` and `expiresAt`: a client clock that is off by -skew. */
  clockSkewMs: 0,
  ttlMs: 15 * 60_000,
  /** Requisites (and state pending) only after this long: the "preparing" screen. */
  requisitesAfterMs: 0,
  /** 'auto' (upi:// for upi, none for sbp), 'none', or a literal QR text. */
  qr: 'auto',
  /** Sent as the payment's `qrMatrix` when it has a QR (the test builds it; any value, to send a garbled one too). */
  qrMatrix: undefined,
  /** Refuse the event stream (404), as a proxy without streams would. */
  noStream: false,
  /** Close the stream (and refuse reconnects) after this many ms. */
  dropStreamAfterMs: 0,
  /** The next N creates / status calls fail: 'network' (socket destroyed), or an HTTP status. */
  failCreates: 0,
  /** The next N creates do create (or find) the payment, then lose the answer: the connection breaks. */
  loseCreateAnswers: 0,
  failStatus: 0,
  /** The next N requests for the SBP bank list fail (as failWith says). */
  failBankLists: 0,
  failWith: 502,
  /** The code those HTTP failures carry; default the proxy's own code for the status. */
  failCode: undefined,
  /** The next N status answers are taken when asked and held until a `{release: true}` control call. */
  holdStatus: 0,
  /** Delay for answers, in ms: one number, or a list consumed call by call (out-of-order answers). */
  statusDelayMs: 0,
  createDelayMs: 0,
  /** Expire pending payments when the server clock passes expiresAt. */
  autoExpire: true,
  retryAfterSeconds: 0,
  /** Requisites as the service would send them (e.g. markup, to prove it is shown as text). */
  requisites: undefined,
  /** The answer of GET /sbp-banks: undefined for BANKS (logos on this origin), or any value to serve as it is. */
  banks: undefined,
};

/** Nine NSPK members in the list's own shape and in the proxy's order, more than the chooser shows before its search field. */
const BANKS = [
  ['Сбербанк', 'bank100000000111', 'ru.sberbankmobile'],
  ['Т-Банк', 'bank100000000004', 'com.idamob.tinkoff.android'],
  ['ВТБ', 'bank100000000005', 'ru.vtb24.mobilebanking.android'],
  ['Альфа-Банк', 'bank100000000008', 'ru.alfabank.mobile.android'],
  ['Райффайзенбанк', 'bank100000000007', 'ru.raiffeisennews'],
  ['Газпромбанк', 'bank100000000001', 'ru.gazprombank.android.mobilebank.app'],
  ['Совкомбанк', 'bank100000000013', 'ru.sovcomcard.halva.v1'],
  ['Озон Банк', 'bank100000000273', 'ru.ozon.fintech.finance'],
  ['Точка', 'bank100000000284', 'com.tochka.bank'],
].map(([bankName, schema, package_name]) => ({ bankName, schema, package_name, logoURL: `logos/${schema}.png` }));

/** A 1x1 PNG: each bank's logo. */
const LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const scenarios = new Map();

function scenario(name) {
  let s = scenarios.get(name);
  if (!s) {
    s = {
      options: { ...DEFAULTS },
      payments: new Map(),
      stats: { creates: 0, newPayments: 0, status: 0, streams: 0, statusTimes: [], bankLists: 0 },
      streams: new Set(),
      /** Releases of the held status answers. */
      held: [],
      seq: 0,
    };
    scenarios.set(name, s);
  }
  return s;
}

const serverNow = (s) => Date.now() + s.options.clockSkewMs;

function settle(s, p) {
  const now = serverNow(s);
  if (p.state === 'created' && now >= p.created + s.options.requisitesAfterMs) p.state = 'pending';
  if (s.options.autoExpire && (p.state === 'created' || p.state === 'pending') && now >= p.expires) p.state = 'expired';
}

function view(s, p) {
  settle(s, p);
  const v = {
    id: p.id,
    orderId: p.orderId,
    method: p.method,
    state: p.state,
    outcome: OUTCOME[p.state] ?? 'checking',
    final: FINAL.has(p.state),
    amount: p.amount,
    currency: p.currency,
    createdAt: new Date(p.created).toISOString(),
    expiresAt: new Date(p.expires).toISOString(),
    serverTime: new Date(serverNow(s)).toISOString(),
  };
  if (p.initAmount) v.initAmount = p.initAmount;
  if (p.state !== 'created') {
    v.requisites =
      s.options.requisites ??
      (p.method === 'upi'
        ? { address: 'shop@okbank', recipient: 'Demo Tea Shop' }
        : { address: '+79001234567', recipient: 'Ivan P.', bank: 'Sberbank' });
    const qr = s.options.qr;
    if (qr === 'auto' && p.method === 'upi') v.qr = `upi://pay?pa=shop%40okbank&pn=Demo%20Tea%20Shop&am=${p.amount}&cu=INR&tr=${p.orderId}`;
    else if (qr !== 'auto' && qr !== 'none') v.qr = qr;
    // The module matrix as the proxy sends it (PaymentView.qrMatrix), given by the test as it is to be sent.
    if (v.qr && s.options.qrMatrix !== undefined) v.qrMatrix = s.options.qrMatrix;
  }
  return v;
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    return undefined;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function takeDelay(option) {
  return Array.isArray(option) ? (option.length ? option.shift() : 0) : option;
}

/** Fails this call when the scenario says so; answers whether it did. */
function failed(s, key, req, res) {
  if (s.options[key] <= 0) return false;
  s.options[key]--;
  if (s.options.failWith === 'network') {
    req.socket.destroy();
  } else {
    const headers = s.options.retryAfterSeconds ? { 'retry-after': String(s.options.retryAfterSeconds) } : {};
    const code =
      s.options.failCode ?? (s.options.failWith === 429 ? 'rate_limited' : s.options.failWith === 404 ? 'not_found' : 'upstream_error');
    send(res, s.options.failWith, { error: { code, message: `fake ${code}` } }, headers);
  }
  return true;
}

function push(s, p) {
  for (const stream of s.streams) if (stream.paymentId === p.id) stream.write(view(s, p));
}

async function control(s, req, res) {
  if (req.method === 'GET')
    return send(res, 200, { stats: s.stats, payments: [...s.payments.values()].map((p) => view(s, p)), options: s.options });
  const body = (await readJson(req)) ?? {};
  if (body.options) Object.assign(s.options, body.options);
  if (body.release) for (const release of s.held.splice(0)) release();
  if (body.dropStreams) {
    // A stream that breaks on cue: the open ones end and reconnects are refused, as by a proxy that lost them.
    s.options.streamRefused = true;
    for (const stream of [...s.streams]) stream.close();
  }
  if (body.orderPaid) {
    // Another payment of the order paid it: its streams say so and end, as the proxy's do, and so does every
    // stream opened from now on.
    s.orderPaid = true;
    for (const stream of [...s.streams]) stream.orderPaid();
  }
  if (body.state || body.amount || body.expiresInMs !== undefined) {
    const p = body.paymentId ? s.payments.get(body.paymentId) : [...s.payments.values()].at(-1);
    if (!p) return send(res, 404, { error: { code: 'not_found', message: 'no payment' } });
    if (body.amount) {
      p.initAmount = p.amount;
      p.amount = body.amount;
    }
    if (body.expiresInMs !== undefined) p.expires = serverNow(s) + body.expiresInMs;
    if (body.state) p.state = body.state;
    push(s, p);
  }
  send(res, 200, { ok: true });
}

async function create(s, req, res) {
  s.stats.creates++;
  const body = await readJson(req);
  await sleep(takeDelay(s.options.createDelayMs));
  if (failed(s, 'failCreates', req, res)) return;
  if (!body || typeof body.orderId !== 'string' || typeof body.method !== 'string') {
    return send(res, 400, { error: { code: 'bad_request', message: 'orderId and method' } });
  }
  for (const p of s.payments.values()) {
    settle(s, p);
    if (p.orderId !== body.orderId || p.method !== body.method) continue;
    if (p.state === 'finished') return send(res, 409, { error: { code: 'order_paid', message: 'paid' } });
    if (!FINAL.has(p.state)) return answerCreate(s, req, res, 200, p);
  }
  const [amount, currency] = PRICES[body.method] ?? ['10.00', 'USD'];
  const now = serverNow(s);
  const p = {
    id: `fp${++s.seq}${randomBytes(3).toString('hex')}`,
    orderId: body.orderId,
    method: body.method,
    state: 'created',
    amount,
    currency,
    created: now,
    expires: now + s.options.ttlMs,
    token: randomBytes(16).toString('hex'),
  };
  s.payments.set(p.id, p);
  s.stats.newPayments++;
  answerCreate(s, req, res, 201, p);
}

function answerCreate(s, _req, res, status, p) {
  if (s.options.loseCreateAnswers > 0) {
    // Headers, then the connection breaks mid-body (a destroyed socket alone makes Chromium resend the request).
    s.options.loseCreateAnswers--;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"payment":');
    setTimeout(() => res.destroy(), 20);
    return;
  }
  send(res, status, { payment: view(s, p), token: p.token });
}

function find(s, paymentId, token) {
  const p = s.payments.get(paymentId);
  return p && p.token === token ? p : undefined;
}

async function status(s, req, res) {
  s.stats.status++;
  s.stats.statusTimes.push(Date.now());
  const body = await readJson(req);
  const delay = takeDelay(s.options.statusDelayMs);
  const p = body && find(s, body.paymentId, body.token);
  const answer = p ? view(s, p) : undefined; // taken now, sent after the delay: a late, stale answer
  await sleep(delay);
  if (s.options.holdStatus > 0) {
    s.options.holdStatus--;
    await new Promise((resolve) => {
      s.held.push(resolve);
      res.on('close', resolve); // the page went away: nothing to hold for
    });
  }
  if (failed(s, 'failStatus', req, res)) return;
  if (!answer) return send(res, 404, { error: { code: 'not_found', message: 'no such payment' } });
  send(res, 200, { payment: answer });
}

function events(s, req, res, url) {
  const p = find(s, url.searchParams.get('paymentId'), url.searchParams.get('token'));
  if (s.options.noStream || s.options.streamRefused || !p) {
    return send(res, 404, { error: { code: 'not_found', message: 'no stream' } });
  }
  s.stats.streams++;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write('retry: 300\n\n');
  let last = '';
  let id = 0;
  const stream = {
    paymentId: p.id,
    close: () => close(),
    write(v) {
      const data = JSON.stringify(v);
      if (data.replace(/"serverTime":"[^"]*"/, '') === last) return;
      last = data.replace(/"serverTime":"[^"]*"/, '');
      res.write(`event: payment\nid: ${++id}\ndata: ${data}\n\n`);
      if (v.final) close();
    },
    orderPaid() {
      res.write(`event: order-paid\ndata: ${JSON.stringify({ error: { code: 'order_paid', message: 'fake paid by another' } })}\n\n`);
      close();
    },
  };
  const tick = setInterval(() => stream.write(view(s, p)), 200);
  const drop = s.options.dropStreamAfterMs
    ? setTimeout(() => {
        s.options.streamRefused = true;
        close();
      }, s.options.dropStreamAfterMs)
    : undefined;
  function close() {
    clearInterval(tick);
    clearTimeout(drop);
    s.streams.delete(stream);
    res.end();
  }
  s.streams.add(stream);
  req.on('close', close);
  stream.write(view(s, p));
  if (s.orderPaid) stream.orderPaid();
}

/** Koa middleware for the dev server. */
export function fakeProxyMiddleware() {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(PREFIX)) return next();
    const [name, ...rest] = ctx.path.slice(PREFIX.length).split('/');
    const route = rest.join('/');
    const s = scenario(name);
    ctx.respond = false;
    const { req, res } = ctx;
    const url = new URL(req.url, 'http://fake');
    if (route === '__control') return control(s, req, res);
    if (route === 'payin/payments' && req.method === 'POST') return create(s, req, res);
    if (route === 'payin/status' && req.method === 'POST') return status(s, req, res);
    if (route === 'payin/events' && req.method === 'GET') return events(s, req, res, url);
    if (route === 'payin/sbp-banks' && req.method === 'GET') {
      s.stats.bankLists++;
      if (failed(s, 'failBankLists', req, res)) return;
      // As the real proxy writes them: relative to the list's own address, which the element resolves them against.
      const dictionary = BANKS.map((b) => ({ ...b, logoURL: `./sbp-banks/${b.logoURL}` }));
      // As the real proxy does: the browser keeps the list for the page's other elements.
      return send(res, 200, s.options.banks ?? { version: '1.0', dictionary }, { 'cache-control': 'public, max-age=3600' });
    }
    if (/^payin\/sbp-banks\/logos\/bank\d{12}\.png$/.test(route)) {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' });
      return res.end(LOGO);
    }
    send(res, 404, { error: { code: 'not_found', message: `no route ${route}` } });
  };
}
