// The proxy process of the event-stream figure: the proxy and the sandbox on loopback ports, run with
// --expose-gc so that heap samples are taken after a full collection. Its parent opens the streams from another
// process and asks for samples of heap and CPU between steps.
import { serveRequests } from './child.mjs';
import { createPayment, startStack, waitForStatus } from './stack.mjs';

let stack;

function sample() {
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const { user, system } = process.cpuUsage();
  return { heapUsed, rss, cpuMicros: user + system, at: performance.now() };
}

serveRequests({
  async start({ maxConnections }) {
    stack = await startStack({ sockets: true, maxConnections });
    return { proxyUrl: stack.proxyUrl, sandboxUrl: stack.sandboxUrl, gc: typeof globalThis.gc === 'function' };
  },
  async create() {
    const created = await createPayment(stack);
    await waitForStatus(stack, created, (p) => p.state === 'pending');
    return { paymentId: created.payment.id, token: created.token };
  },
  sample: async () => sample(),
  async stop() {
    await stack?.close();
    return true;
  },
});
