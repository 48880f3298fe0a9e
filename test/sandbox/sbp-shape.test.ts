/**
 * SBP payments in both shapes the service hands out: a phone number to transfer to, or a C2B link
 * (`https://qr.nspk.ru/<ID>?type=02&...`) that a bank app opens. `sbpShape` picks one or alternates, and the link
 * reaches the browser through the proxy's PaymentView as its `qr`, which the element's bank chooser keys on.
 */
import { describe, expect, it } from 'vitest';
import { createPayinProxy } from '../../src/proxy/index.js';
import { silentLogger } from '../../src/proxy/logger.js';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { isSbpQrLink } from '../../src/shared/qr-payload.js';
import { createPayment, setup } from './helpers.js';

const RUB = { currency: 'RUB' };

async function sbpMedia(options: Parameters<typeof setup>[0], count: number): Promise<string[][]> {
  const { sandbox, clock } = setup({ requisitesDelayMs: 0, ...options });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await createPayment(sandbox, { orderId: `S-${i}`, method: 'sbp', ...RUB }));
  await clock.advance(1);
  return ids.map((id) => sandbox.payment(id)!.media);
}

describe('sbpShape', () => {
  it('hands out a phone number only by default, a C2B link on every payment with c2b, every other one with both', async () => {
    expect(await sbpMedia({}, 2)).toEqual([[], []]);
    const c2b = await sbpMedia({ sbpShape: 'c2b' }, 2);
    expect(c2b.map((m) => m.length === 1 && isSbpQrLink(m[0]))).toEqual([true, true]);
    const both = await sbpMedia({ sbpShape: 'both' }, 4);
    expect(both.map((m) => m.length === 1 && isSbpQrLink(m[0]))).toEqual([true, false, true, false]);
    expect((await sbpMedia({ sbpQr: true }, 1))[0]).toHaveLength(1);
  });

  it('refuses a shape it does not know', () => {
    expect(() => createSandbox({ sbpShape: 'qr' as never })).toThrow(/sbpShape must be one of phone, c2b, both/);
  });

  it("lets the proxy show the C2B link as the payment's qr, and the phone shape without one", async () => {
    const clock = new ManualClock();
    const sandbox = createSandbox({ clock, sbpShape: 'both', requisitesDelayMs: 0, fetch: async () => new Response('ok') });
    const proxy = createPayinProxy({
      provider: { baseUrl: 'http://sandbox.test', merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret: DEMO_MERCHANT.secret },
      callbackUrl: 'http://shop.test/payin/callback',
      resolveOrder: () => ({ amount: '450.00', currency: 'RUB' }),
      fetch: async (input, init) => sandbox(new Request(input, init)),
      clock,
      store: new MemoryStore({ clock }),
      logger: silentLogger,
      env: {},
    });
    const post = (path: string, body: unknown) =>
      proxy(
        new Request(`http://shop.test/payin${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const created = [];
    for (const orderId of ['C2B-1', 'PHONE-1']) {
      created.push((await (await post('/payments', { orderId, method: 'sbp' })).json()) as { payment: { id: string }; token: string });
    }
    // Past the proxy's pause between two status calls for one payment.
    await clock.advance(10_000);
    const views = [];
    for (const { payment, token } of created) {
      const status = await post('/status', { paymentId: payment.id, token });
      views.push(((await status.json()) as { payment: { state: string; qr?: string; requisites?: { address: string } } }).payment);
    }
    expect(views.map((v) => v.state)).toEqual(['pending', 'pending']);
    const [c2b, phone] = views;
    expect(c2b!.qr).toBe(sandbox.payments().find((p) => p.orderId === 'C2B-1')!.media[0]);
    expect(c2b!.qr).toMatch(/^https:\/\/qr\.nspk\.ru\/AD1[A-Z0-9]{29}\?type=02&bank=\d{12}&sum=45000&cur=RUB&crc=[0-9A-F]{4}$/);
    expect(phone!.requisites!.address).toMatch(/^\+7 9/);
    expect(isSbpQrLink(phone!.qr)).toBe(false);
    sandbox.close();
    await proxy.close?.();
  });
});
