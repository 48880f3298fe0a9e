// The create walk: which of the proxy's files one create request goes through, in order, and whether it ever
// comes back to one. Shared by `node bench/create-walk.mjs` (the figure) and test/proxy/create-walk.test.ts
// (the bound), so both count the same way.
//
// How it is traced. The proxy runs from its TypeScript sources with a recorder call at the start of every
// function of src/proxy, src/shared and src/server (hooks.mjs, a module hook). One POST /payin/payments for a
// new order goes to the proxy's Fetch handler inside an AsyncLocalStorage context, after a warm-up create of
// another order; the proxy talks to the real sandbox on a loopback socket and the sandbox posts its callbacks to
// the proxy's own loopback socket, as a shop runs them. Only function entries in that request's context are
// kept (a callback the sandbox sends meanwhile is another request and is left out). Each entry's caller is the
// nearest function of src/ on its synchronous stack; a function run from a promise job or a timer has none, and
// gets the stack of the code that created that promise or timer (an async_hooks `init` hook keeps it).
//
// What counts. The files fall into four kinds:
//   steps           the proxy's logic: the router (create-proxy.ts, context.ts), use-cases/, ledger/;
//   HTTP edge       http/: the request and answer shapes, cors, bodies, errors, limits, client address, tokens,
//                   the answer's JSON; every route passes through it, so it is listed, not counted;
//   infrastructure  infrastructure/, logger.ts, maybe-async.ts, options.ts: stores, transports, logging;
//   shared helpers  src/shared and src/server (the node adapter's body helpers).
// A step is a step file the create enters, numbered in the order of its first entry. A step file is entered
// from the nearest step file on the caller's stack (helpers in between are looked through; the first step is
// entered from outside), except when its caller is itself an edge, infrastructure or helper function: a callback
// handed down and called back, which is an entry from that file. A file is visited more than once when it is entered from more than one other file,
// or from a file numbered after it (a back edge: the walk went on from it to a file that calls back into it).
// Calls within one file are not entries. The walk meets the bound when it has at most 9 steps and no file is
// visited more than once. Functions are named with their line in the stripped JavaScript, not in the .ts file.
import { AsyncLocalStorage, createHook, executionAsyncId } from 'node:async_hooks';
import { register } from 'node:module';

const SRC = new URL('../../../src/', import.meta.url).href;
const CREATE = Symbol('the traced create');

export const MAX_STEPS = 9;

/** The kind of a file under src/, by its path (see the header). */
export function kindOf(file) {
  if (file === 'outside') return 'outside';
  if (/^proxy\/(create-proxy|context)\.ts$|^proxy\/(use-cases|ledger)\//.test(file)) return 'step';
  if (file.startsWith('proxy/http/')) return 'edge';
  if (file.startsWith('proxy/')) return 'infrastructure';
  return 'helper';
}

/** Runs the create and answers the walk (see `analyse`). The process must not have loaded src/ before. */
export async function traceCreate() {
  register('./hooks.mjs', import.meta.url);
  const context = new AsyncLocalStorage();
  const events = [];
  const creators = new Map();
  let recording = false;
  const inCreate = () => recording && context.getStore() === CREATE;
  const hook = createHook({
    init(asyncId, _type, triggerAsyncId) {
      if (!inCreate()) return;
      const chain = srcChain(2);
      creators.set(asyncId, chain.length ? chain : (creators.get(triggerAsyncId) ?? []));
    },
  });
  globalThis.__payinWalk = (file, name) => {
    if (!inCreate()) return;
    const chain = srcChain(2);
    events.push({ file, name, chain: chain.length ? chain : (creators.get(executionAsyncId()) ?? []) });
  };

  const { createPayinProxy } = await import(`${SRC}proxy/index.ts`);
  const { silentLogger } = await import(`${SRC}proxy/logger.ts`);
  const { createSandbox } = await import(`${SRC}sandbox/index.ts`);
  const { serve, toNodeListener } = await import(`${SRC}server/index.ts`);
  const sandbox = createSandbox({ requisitesDelayMs: 0 });
  const sandboxServer = await serve((request) => sandbox(request));
  const proxyServer = await serve(() => new Response('starting', { status: 503 }));
  const proxy = createPayinProxy({
    provider: { baseUrl: sandboxServer.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
    callbackUrl: `${proxyServer.url}/payin/callback`,
    resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
    onPaymentUpdate: () => {},
    logger: silentLogger,
    env: {},
  });
  // The sandbox's callbacks wait at the proxy's door while the traced create runs, so that the walk does not
  // depend on whether a callback or the create's own status call reaches the proxy first.
  const listener = toNodeListener(proxy);
  const heldCallbacks = [];
  proxyServer.server.removeAllListeners('request');
  proxyServer.server.on('request', (req, res) => (recording ? heldCallbacks.push(() => listener(req, res)) : listener(req, res)));
  const create = (orderId) =>
    proxy(
      new Request(`${proxyServer.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, method: 'upi' }),
      }),
      { clientAddress: '127.0.0.1' },
    );
  let status;
  try {
    const warmUp = await create('walk-warm-up');
    if (warmUp.status !== 201) throw new Error(`the warm-up create answered ${warmUp.status}: ${await warmUp.text()}`);
    hook.enable();
    recording = true;
    const answer = await context.run(CREATE, () => create('walk-1'));
    recording = false;
    hook.disable();
    for (const release of heldCallbacks.splice(0)) release();
    status = answer.status;
    const body = await answer.json();
    if (status !== 201 || !body.payment?.expiresAt) throw new Error(`the traced create answered ${status}: ${JSON.stringify(body)}`);
  } finally {
    recording = false;
    hook.disable();
    await proxy.close();
    sandbox.close();
    await Promise.all([proxyServer.close(), sandboxServer.close()]);
  }
  return { status, ...analyse(events) };
}

/** The files under src/ of the synchronous stack below the caller of this function, nearest first. */
function srcChain(skip) {
  const previous = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  Error.prepareStackTrace = (_, sites) => sites;
  Error.stackTraceLimit = 100;
  const holder = {};
  Error.captureStackTrace(holder, srcChain);
  const sites = holder.stack;
  Error.prepareStackTrace = previous;
  Error.stackTraceLimit = limit;
  const chain = [];
  for (const site of sites.slice(skip)) {
    if (site.isAsync?.()) break;
    const url = site.getFileName();
    if (!url?.startsWith(SRC)) continue;
    const file = url.slice(SRC.length);
    if (chain.at(-1) !== file) chain.push(file);
  }
  return chain;
}

/**
 * From the recorded entries (`file`, `name`, `chain`: the caller's files, nearest first) to the walk: the steps
 * in order with the files each was entered from, the files visited more than once with the edges that make them
 * so, and the edge, infrastructure and helper files with their callers.
 */
export function analyse(events) {
  const steps = [];
  const others = new Map();
  const stepOf = new Map();
  for (const { file, name, chain } of events) {
    if (kindOf(file) === 'step') {
      // Called back by a helper (a callback handed down to it): an edge from that helper, not a call within the file.
      const from = (chain[0] && kindOf(chain[0]) !== 'step' ? chain[0] : chain.find((f) => kindOf(f) === 'step')) ?? 'outside';
      if (from === file) continue;
      let step = stepOf.get(file);
      if (!step) {
        step = { file, from: new Map() };
        stepOf.set(file, step);
        steps.push(step);
      }
      const edge = step.from.get(from) ?? { entries: 0, functions: new Set() };
      edge.entries++;
      edge.functions.add(name);
      step.from.set(from, edge);
    } else {
      const from = chain[0] ?? 'outside';
      if (from === file) continue;
      const other = others.get(file) ?? { file, kind: kindOf(file), from: new Set() };
      other.from.add(from);
      others.set(file, other);
    }
  }
  const order = new Map(steps.map((s, i) => [s.file, i]));
  const revisited = [];
  for (const step of steps) {
    const callers = [...step.from.keys()];
    const back = callers.filter((from) => from !== 'outside' && order.get(from) > order.get(step.file));
    if (callers.length > 1 || back.length) {
      revisited.push({ file: step.file, from: callers, back, why: callers.length > 1 ? 'entered from more than one file' : 'back edge' });
    }
  }
  return {
    entries: events.length,
    steps: steps.map((s) => ({
      file: s.file,
      from: [...s.from].map(([from, e]) => ({ from, entries: e.entries, functions: [...e.functions] })),
    })),
    revisited,
    others: [...others.values()].map((o) => ({ file: o.file, kind: o.kind, from: [...o.from] })),
  };
}
