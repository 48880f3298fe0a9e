import { afterEach, describe, expect, it } from 'vitest';
import { createPayinProxy, type PayinProxy } from '../../../src/proxy/index.js';
import { silentLogger } from '../../../src/proxy/logger.js';
import { serve, type RunningServer } from '../../../src/server/serve.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import { eventually } from '../sandbox-harness.js';

// A proxy restarted with an empty memory store (or a lost Redis) must still tell the shop about payments the
// service reports, and must not let the same order be paid twice.
describe('a proxy that lost its store', () => {
  const open: { close(): unknown }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function restartable() {
    const sandbox: Sandbox = createSandbox({ requisitesDelayMs: 0, callbackRetryDelayMs: 20 });
    open.push(sandbox);
    const sandboxServer: RunningServer = await serve(sandbox);
    open.push(sandboxServer);
    let current: PayinProxy;
    const proxyServer = await serve((request) => current(request));
    open.push(proxyServer);
    const updates: { payment: PaymentView; source: string }[] = [];
    const start = () => {
      current = createPayinProxy({
        provider: { baseUrl: sandboxServer.url, merchantId: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' },
        callbackUrl: `${proxyServer.url}/payin/callback`,
        resolveOrder: () => ({ amount: '499.00', currency: 'INR' }),
        onPaymentUpdate: (payment, { source }) => void updates.push({ payment, source }),
        logger: silentLogger,
        env: {},
      });
    };
    start();
    const create = async (orderId: string) => {
      const answer = await fetch(`${proxyServer.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, method: 'upi' }),
      });
      return { status: answer.status, body: (await answer.json()) as any };
    };
    return { sandbox, updates, create, restart: start };
  }

  it('announces a paid payment it has no record of, once, after checking it with the service', async () => {
    const t = await restartable();
    const created = await t.create('A-lost-1');
    expect(created.status).toBe(201);
    const id = created.body.payment.id as string;

    t.restart();
    t.sandbox.act(id, 'pay');
    await eventually(() => t.updates.some((u) => u.payment.id === id && u.payment.outcome === 'paid'), 5_000, 'paid to be announced');
    await t.sandbox.idle();

    const paid = t.updates.filter((u) => u.payment.id === id && u.payment.outcome === 'paid');
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ source: 'callback', payment: { orderId: 'A-lost-1', amount: '499.00', currency: 'INR', final: true } });
    const deliveries = t.sandbox.payment(id)!.deliveries;
    expect(deliveries.at(-1)).toMatchObject({ state: 'finished', httpStatus: 200 });
  });

  it('refuses a second payment for an order it learnt was paid', async () => {
    const t = await restartable();
    const id = (await t.create('A-lost-2')).body.payment.id as string;
    t.restart();
    t.sandbox.act(id, 'pay');
    await eventually(() => t.updates.some((u) => u.payment.outcome === 'paid'), 5_000, 'paid to be announced');
    const again = await t.create('A-lost-2');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('order_paid');
  });
});
