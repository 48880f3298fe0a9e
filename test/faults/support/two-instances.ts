/**
 * Two proxy instances behind a load balancer, each its own HTTP server and store connections, on one shared store,
 * before one real sandbox over loopback. The service's callbacks reach a relay that hands every one to both instances
 * at once (or to A only, where the balancer sends them), in copies, as a balancer that retries, or a service that
 * redelivers, can. Each instance has its own hook (the shop's code running beside it), which can be made to fail on
 * one of them only. Used by instances-one-store.test.ts and store-cut-one-instance.test.ts.
 */
import { createPayinProxy, type PayinProxy, type PayinProxyOptions } from '../../../src/proxy/index.js';
import type { ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import type { ProxyLogger } from '../../../src/proxy/logger.js';
import { createSandbox, DEMO_MERCHANT } from '../../../src/sandbox/index.js';
import { serve } from '../../../src/server/serve.js';
import { systemClock } from '../../../src/shared/clock.js';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { usePostgresServer } from '../../postgres/postgres-server-harness.js';
import { pricedByMethod, seeded } from '../../proxy/sandbox-harness.js';
import { type RedisServer, startRedisServer } from '../../redis/redis-server-harness.js';
import { createAt, statusAt } from '../../support/proxy-calls.js';

export type SharedStore = ProxyStore & { close(): Promise<void>; countPayments(now: number): Promise<Record<string, number>> };

/** Opens the shared store under `name` for instance `id` ('A' or 'B'). */
export type OpenStore = (name: string, id: string) => SharedStore;

export interface Instance {
  name: string;
  url: string;
  proxy: PayinProxy;
  store: SharedStore;
  /** The hook of this instance throws while set (the shop's database is unreachable from this host). */
  hookFails: boolean;
  /** Holds this instance's creates at the service this long (a slow answer to this host). */
  createDelayMs: number;
  /** Called once the service has answered a create of this instance, before the instance reads the answer. */
  afterCreateAnswer: (() => void) | undefined;
  logs: { level: string; message: string; fields?: Record<string, unknown> }[];
}

const cleanup: (() => unknown)[] = [];

/** Stops what twoInstances started, and whatever a test added with atEnd; for afterEach. */
/**
 * A real PostgreSQL and a real Redis for a test file (started before its tests, stopped after them), and every
 * file's instances closed after each test. The Redis server is there once the file's tests run.
 */
export function useSharedStoreServers(): { postgres: ReturnType<typeof usePostgresServer>; redis: () => RedisServer } {
  const postgres = usePostgresServer();
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(closeInstances);
  return { postgres, redis: () => redis! };
}

export async function closeInstances(): Promise<void> {
  for (const step of cleanup.reverse()) await Promise.resolve(step()).catch(() => {});
  cleanup.length = 0;
}

/** Runs `step` when the test's instances are closed. */
export function atEnd(step: () => unknown): void {
  cleanup.push(step);
}

/**
 * Two instances on one store named afresh; callbacks go to a relay that copies each to both (or to A only, where the
 * balancer sends them), `copies` times. B's clock may run ahead of A's (hosts whose clocks are not in step); `timeouts`
 * go to both.
 */
export async function twoInstances(
  open: OpenStore,
  { copies = 1, callbacksTo = ['A', 'B'], bClockAheadMs = 0, timeouts = {} as PayinProxyOptions['timeouts'] } = {},
) {
  const sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 50, random: seeded(5) });
  const sandboxServer = await serve(sandbox);
  cleanup.push(
    () => sandbox.close(),
    () => sandboxServer.close(),
  );
  const heard: { payment: PaymentView; by: string; secondPaymentOf?: string }[] = [];
  /** Every call of either hook, failed or not: `<payment id> <outcome>`. */
  const tried: string[] = [];
  const name = `inst_${Math.random().toString(36).slice(2)}`;
  const instances: Instance[] = [];
  const relayAnswers: number[] = [];
  const relay = await serve(async (request) => {
    const body = await request.arrayBuffer();
    const headers = { 'content-type': 'application/json', signature: request.headers.get('signature') ?? '' };
    const sent = instances
      .filter((instance) => callbacksTo.includes(instance.name))
      .flatMap((instance) =>
        Array.from({ length: copies }, () => fetch(`${instance.url}/payin/callback`, { method: 'POST', headers, body })),
      );
    const answers = await Promise.all(sent);
    relayAnswers.push(...answers.map((answer) => answer.status));
    // The service is told 200 only when one instance recorded it; a 5xx anywhere makes it deliver again.
    return new Response(null, { status: answers.every((answer) => answer.ok) ? 200 : 502 });
  });
  cleanup.push(() => relay.close());
  for (const id of ['A', 'B']) {
    const store = open(name, id);
    let proxy!: PayinProxy;
    const server = await serve((request) => proxy(request));
    const logs: Instance['logs'] = [];
    const log = (level: string) => (message: string, fields?: Record<string, unknown>) => void logs.push({ level, message, fields });
    const logger: ProxyLogger = { info: log('info'), warn: log('warn'), error: log('error') };
    const instance: Instance = {
      name: id,
      url: server.url,
      proxy: undefined as never,
      store,
      hookFails: false,
      createDelayMs: 0,
      afterCreateAnswer: undefined,
      logs,
    };
    proxy = createPayinProxy({
      provider: { baseUrl: sandboxServer.url, merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
      callbackUrl: `${relay.url}/callback`,
      resolveOrder: pricedByMethod(),
      onPaymentUpdate: (payment, info) => {
        tried.push(`${payment.id} ${payment.outcome}`);
        if (instance.hookFails) throw new Error(`the shop database is unreachable from ${id}`);
        heard.push({ payment, by: id, ...(info.secondPaymentOf ? { secondPaymentOf: info.secondPaymentOf } : {}) });
      },
      fetch: async (input, init) => {
        const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
        const isCreate = path === '/api/v2/payments' && (init?.method ?? (input instanceof Request ? input.method : 'GET')) === 'POST';
        if (isCreate && instance.createDelayMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, instance.createDelayMs));
        }
        const answer = await fetch(input, init);
        if (isCreate) instance.afterCreateAnswer?.();
        return answer;
      },
      reconcileEveryMs: 0,
      timeouts,
      ...(id === 'B' ? { clock: { ...systemClock, now: () => Date.now() + bClockAheadMs } } : {}),
      store,
      logger,
      env: {},
    });
    instance.proxy = proxy;
    cleanup.push(
      () => server.close(),
      () => proxy.close(),
      () => store.close(),
    );
    instances.push(instance);
  }
  const create = (instance: Instance, orderId: string, method = 'upi') => createAt(instance.url, orderId, method);
  const status = (instance: Instance, paymentId: string, token: string) => statusAt(instance.url, paymentId, token);
  const paidHeard = (id: string) => heard.filter((h) => h.payment.id === id && h.payment.outcome === 'paid');
  return { sandbox, a: instances[0]!, b: instances[1]!, heard, tried, paidHeard, relayAnswers, create, status };
}
