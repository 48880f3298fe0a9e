/**
 * The QR's module matrix in the proxy's answers (http/qr-matrix-answer.ts): read back with a QR reader, it
 * is exactly the payment's `qr`, in the create answer, the status answer and the event stream, over real HTTP to
 * the real sandbox. A text no QR can hold gets a `null` matrix and no error (at unit level: a long order id reaches the
 * link percent-encoded, which the encoder packs small); the encoded texts are kept in a bounded map.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { paymentAnswerJson } from '../../../src/proxy/http/payment-answer.js';
import { QrMatrixCache, qrMatrixJson, withQrMatrix } from '../../../src/proxy/http/qr-matrix-answer.js';
import type { StoredView } from '../../../src/proxy/infrastructure/store.js';
import { decoded } from '../../support/read-qr-matrix.js';
import { eventually, type Live, startLive } from '../sandbox-harness.js';
import { SseReader } from '../sse-reader.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

type Payment = Parameters<typeof decoded>[0] & { id: string; qr?: string; state: string };

/**
 * A new payment with its QR. The sandbox hands out the requisites a timer tick after the create, as the real service
 * does after a moment, so the create's answer may still be `created`, with no QR and then no matrix either; the
 * status answers bring both, as they do to the widget.
 */
async function paymentWithQr(orderId: string, method: string): Promise<{ payment: Payment; token: string }> {
  const created = await live!.create(orderId, method);
  expect(created.status).toBe(201);
  const { token } = created.body;
  let payment = created.body.payment as Payment;
  if (payment.qr === undefined) expect([payment.state, payment.qrMatrix]).toEqual(['created', undefined]);
  await eventually(
    async () => (payment = (await live!.status(payment.id, token)).body.payment).qr !== undefined,
    5_000,
    'a status answer with the QR',
  );
  return { payment, token };
}

describe('the QR matrix in the answers', () => {
  it('comes with the create answer, the status answer and each event, and reads as the payment qr', async () => {
    live = await startLive();
    const { payment, token } = await paymentWithQr('qr-matrix-1', 'upi');
    expect(payment.qr).toMatch(/^upi:\/\/pay\?/);
    expect(decoded(payment)).toBe(payment.qr);

    const status = await live.status(payment.id, token);
    expect(status.status).toBe(200);
    expect(status.body.payment.qrMatrix).toEqual(payment.qrMatrix);
    expect(decoded(status.body.payment)).toBe(payment.qr);
    expect(status.body.payment.serverTime).toMatch(/^\d{4}-/); // the rest of the answer as before

    const stream = await fetch(`${live.proxyUrl}/payin/events?paymentId=${payment.id}&token=${encodeURIComponent(token)}`);
    const events = new SseReader(stream);
    const shown = JSON.parse((await events.nextEvent())!.data!);
    expect(decoded(shown)).toBe(payment.qr);
    await events.cancel();
  });

  it('comes with an SBP payment whose qr is its hosted page', async () => {
    live = await startLive();
    const { payment } = await paymentWithQr('qr-matrix-2', 'sbp');
    expect(payment.qr).toMatch(/^https?:\/\//);
    expect(decoded(payment)).toBe(payment.qr);
  });

  it('comes with a payment whose qr is longer than a QR holds as bytes: its percent-encoding packs as alphanumerics', async () => {
    live = await startLive();
    // 128 Devanagari letters, percent-encoded in the link twice (tr and tn): about 2,400 bytes, over the 2,331 of
    // a version 40 code at level M in byte mode; "%E0%A4%95" is all QR alphanumerics (5.5 bits a character).
    const { payment, token } = await paymentWithQr('क'.repeat(128), 'upi');
    expect(new TextEncoder().encode(payment.qr).length).toBeGreaterThan(2331);
    expect(decoded(payment)).toBe(payment.qr);
    const status = await live.status(payment.id, token);
    expect(status.status).toBe(200);
    expect(decoded(status.body.payment)).toBe(payment.qr);
  });
});

describe('qr-matrix-answer', () => {
  const tooLong = `upi://pay?pa=shop%40bank&tn=${'x'.repeat(2400)}`; // over the 2,331 bytes of a version 40 code at level M

  it('gives a text too long for a QR a null matrix, which tells the widget not to encode it, and no error', () => {
    const cache = new QrMatrixCache(4);
    const view = { id: 'p', qr: tooLong };
    expect(withQrMatrix(view, cache)).toEqual({ ...view, qrMatrix: null });
    expect(qrMatrixJson(view.qr, cache)).toBe('null');
    const stored = { ...view, createdAt: '2026-01-15T10:00:00.000Z', expiresAt: '2026-01-15T10:15:00.000Z' };
    const answer = JSON.parse(paymentAnswerJson(stored as StoredView, 0, qrMatrixJson(view.qr, cache)));
    expect(answer.payment.qrMatrix).toBe(null);
    // Past the most characters any QR holds, the same, without the encoder asked.
    expect(withQrMatrix({ qr: '1'.repeat(5_597) }, cache).qrMatrix).toBe(null);
  });

  it('gives a view without qr no matrix', () => {
    const view: { id: string; qr?: string } = { id: 'p' };
    expect(withQrMatrix(view, new QrMatrixCache(4))).toEqual({ id: 'p' });
    expect(qrMatrixJson(undefined, new QrMatrixCache(4))).toBeUndefined();
  });

  it('adds the matrix as the payment member of a status answer, which stays JSON', () => {
    const view = { id: 'p', qr: 'upi://pay?pa=a%40b', createdAt: '2026-01-15T10:00:00.000Z', expiresAt: '2026-01-15T10:15:00.000Z' };
    const answer = JSON.parse(paymentAnswerJson(view as StoredView, 0, qrMatrixJson(view.qr, new QrMatrixCache(4))));
    expect(Object.keys(answer)).toEqual(['payment']);
    expect(decoded(answer.payment)).toBe(view.qr);
  });

  it('encodes each text once while it is among the most recently asked for, and keeps at most its bound', () => {
    const cache = new QrMatrixCache(3);
    const texts = ['a', 'b', 'c', 'd', 'e'].map((k) => `upi://pay?pa=${k}%40bank`);
    const first = cache.get(texts[0]!);
    expect(cache.get(texts[0]!)).toBe(first); // the kept entry, not encoded again
    for (const text of texts) cache.get(text);
    expect(cache.size).toBe(3);
    expect(cache.get(texts[4]!)?.modules).toBe(cache.get(texts[4]!)?.modules);
    expect(cache.get(texts[0]!)).not.toBe(first); // pushed out by newer texts, encoded again
    expect(cache.size).toBe(3);
    cache.get(tooLong);
    expect(cache.size).toBe(3);
  });
});
