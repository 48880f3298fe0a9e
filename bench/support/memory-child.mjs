// The proxy process of the memory figure, run with --expose-gc: one proxy on loopback with the store it is told
// (memory or SQLite, named as PAYIN_STORE_URL names them), asking a sandbox served by its parent. It fills the
// store (through its own handler, or with copies of a real record) and reports the heap after a full collection.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveRequests } from './child.mjs';
import { at, copyPayments, createPayment, createPayments, followedCount, startStack, waitForStatus } from './stack.mjs';

const { storeFromUrl } = await import(at('dist/server/index.js').href);

let stack;
let store;
let file;

serveRequests({
  async start({ kind, sandboxUrl }) {
    file = kind === 'sqlite' ? join(tmpdir(), `payin-bench-${process.pid}.db`) : undefined;
    store = await storeFromUrl(file ? `sqlite:${file}` : 'memory:');
    stack = await startStack({ sockets: true, sandboxUrl, store });
    return { proxyUrl: stack.proxyUrl };
  },
  async create({ n, concurrency }) {
    const started = performance.now();
    await createPayments(stack, n, concurrency);
    return { ms: performance.now() - started };
  },
  /** Copies of one real pending payment, written straight into the store (see copyPayments). */
  async copy({ n }) {
    const started = performance.now();
    const created = await createPayment(stack);
    await waitForStatus(stack, created, (p) => p.state === 'pending');
    await copyPayments(store, await store.getPayment(created.payment.id), n - 1);
    return { ms: performance.now() - started };
  },
  async sample() {
    const followed = await followedCount(store);
    globalThis.gc?.();
    globalThis.gc?.();
    const { heapUsed, rss, external } = process.memoryUsage();
    return { heapUsed, rss, external, followed };
  },
  async stop() {
    await stack?.close();
    await store?.close?.();
    if (file) for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    return true;
  },
});
