/**
 * Rotating PAYIN_SECRET without refusing open checkouts, through the real sandbox over loopback: the service gives
 * the shop a new secret, and the shop restarts its proxy with the new one and the old one, space-separated. A
 * checkout opened before (its read token derived from the old secret) goes on following its payment to the end;
 * new tokens are derived from the new secret; a token of any other secret is refused as ever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { signBody } from '../../src/shared/hmac.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';
import { SseReader } from './sse-reader.js';

const OLD = DEMO_MERCHANT.secret;
const NEW = 'the-secret-the-service-issued-next';

/** The read token a proxy under `secret` issues for `paymentId` (docs/security.md says how it is made). */
const tokenUnder = async (secret: string, paymentId: string) =>
  signBody(await signBody(secret, 'payin-checkout payment token v1'), paymentId);

const provider = (secret: string) => ({ baseUrl: '', merchantId: DEMO_MERCHANT.id, token: DEMO_MERCHANT.token, secret });

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

/** A checkout opened under the old secret, then the service's switch to the new one and the shop's restart. */
async function openedThenRotated(secrets: string): Promise<{ id: string; token: string }> {
  live = await startLive();
  const opened = await live.create('A-1');
  expect(opened.status).toBe(201);
  live.sandbox.rotateSecret(DEMO_MERCHANT.id, NEW);
  await live.restart({ provider: { ...provider(secrets), baseUrl: live.sandboxUrl } });
  return { id: opened.body.payment.id, token: opened.body.token };
}

describe('rotating PAYIN_SECRET', () => {
  it('lets a checkout opened under the old secret follow its payment to paid after a restart with the new and the old one', async () => {
    const { id, token } = await openedThenRotated(`${NEW} ${OLD}`);
    const resumed = await live!.status(id, token);
    expect(resumed.status).toBe(200);
    expect(resumed.body.payment).toMatchObject({ id, final: false });
    const response = await fetch(`${live!.proxyUrl}/payin/events?paymentId=${id}&token=${token}`);
    expect(response.status).toBe(200);
    const events = new SseReader(response);
    expect(JSON.parse((await events.nextEvent())!.data!)).toMatchObject({ id, final: false });
    // The service, now on the new secret, signs its callback with it; the restarted proxy believes it.
    live!.sandbox.act(id, 'pay');
    expect(JSON.parse((await events.nextEvent(5_000))!.data!)).toMatchObject({ id, outcome: 'paid', final: true });
    expect((await live!.status(id, token)).body.payment.outcome).toBe('paid');
    await eventually(() => live!.updates.some((u) => u.payment.id === id && u.payment.outcome === 'paid'), 5_000, 'the paid hook');
  });

  it('issues tokens under the new secret, and refuses a token of a secret that is neither', async () => {
    const { id, token } = await openedThenRotated(`${NEW} ${OLD}`);
    // The same order's pending payment, answered again to a page that reloads without its token: a new-secret token.
    const again = await live!.create('A-1');
    expect(again.status).toBe(200);
    expect(again.body.token).toBe(await tokenUnder(NEW, id));
    expect(again.body.token).not.toBe(token);
    expect((await live!.status(id, again.body.token)).status).toBe(200);
    const created = await live!.create('A-2');
    expect(created.status).toBe(201);
    expect(created.body.token).toBe(await tokenUnder(NEW, created.body.payment.id));
    const stranger = await tokenUnder('a-secret-neither-new-nor-old', id);
    expect((await live!.status(id, stranger)).status).toBe(404);
    const streamed = await fetch(`${live!.proxyUrl}/payin/events?paymentId=${id}&token=${stranger}`);
    expect(streamed.status).toBe(404);
    await streamed.body?.cancel();
  });

  it('refuses the old tokens once the old secret is dropped', async () => {
    const { id, token } = await openedThenRotated(NEW);
    expect((await live!.status(id, token)).status).toBe(404);
    expect((await live!.status(id, await tokenUnder(NEW, id))).status).toBe(200);
  });
});
