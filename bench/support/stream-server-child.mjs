// The proxy process of the event-stream figure: the proxy and the sandbox on loopback ports, run with
// --expose-gc so that heap samples are taken after a full collection. Its parent opens the streams from another
// process and asks for samples of heap and CPU between steps, and for when the sandbox's callbacks reached the
// proxy and were answered (performance.timeOrigin + now(): epoch milliseconds that both processes share).
import { serveRequests } from './child.mjs';
import { startCpuProfile } from './cpu-profile.mjs';
import { createPayment, startStack, waitForStatus } from './stack.mjs';

let stack;
let profiling;
/**
 * When each callback reached the proxy and when it was answered, in epoch ms comparable across processes, and the
 * CPU time (us) the process spent between the two: the callback's own work and the streams' share of the change.
 */
const callbacks = [];
const epochNow = () => performance.timeOrigin + performance.now();
const timeCallbacks = (handler) => async (request) => {
  if (!request.url.endsWith('/callback')) return handler(request);
  const arrived = epochNow();
  const cpuBefore = process.cpuUsage();
  const response = await handler(request);
  const cpu = process.cpuUsage(cpuBefore);
  callbacks.push({ arrived, answered: epochNow(), cpuMicros: cpu.user + cpu.system, status: response.status });
  return response;
};

function sample() {
  globalThis.gc?.();
  globalThis.gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  const { user, system } = process.cpuUsage();
  return { heapUsed, rss, cpuMicros: user + system, at: performance.now() };
}

serveRequests({
  async start({ maxConnections }) {
    stack = await startStack({ sockets: true, maxConnections, wrap: timeCallbacks });
    return { proxyUrl: stack.proxyUrl, sandboxUrl: stack.sandboxUrl, gc: typeof globalThis.gc === 'function' };
  },
  async create() {
    const created = await createPayment(stack);
    await waitForStatus(stack, created, (p) => p.state === 'pending');
    return { paymentId: created.payment.id, token: created.token };
  },
  sample: async () => sample(),
  /** CPU time so far (user + system, us), without the collection that sample() forces. */
  cpu: async () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  /** Profiles this process until profileStop, which writes the profile to its `path`. */
  async profileStart() {
    profiling = await startCpuProfile();
    return true;
  },
  async profileStop({ path }) {
    const written = await profiling?.stop(path);
    profiling = undefined;
    return written;
  },
  /** The callbacks timed since the last call. */
  callbacks: async () => callbacks.splice(0),
  async stop() {
    await stack?.close();
    return true;
  },
});
