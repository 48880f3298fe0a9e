/**
 * The QR encoder's cost is bounded by what a QR can hold, whatever the service puts in a payment. The qr text comes
 * from the service's answer (a hosted page URL, an SBP link, requisites in a UPI link), and the encoder analyses the
 * whole text before it finds it too long: a mixed 1 MB text held the event loop for 8 s on this kind of machine,
 * for every proxy in the process. A text longer than the largest code at level M (5,596 digits, the densest mode)
 * is answered without a matrix before the encoder sees it, and is not kept.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

const encoderCalls = vi.hoisted(() => ({ texts: [] as number[] }));

vi.mock('qrcode/lib/core/qrcode.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('qrcode/lib/core/qrcode.js')>();
  return {
    ...actual,
    create: (text: string, options: Parameters<typeof actual.create>[1]) => {
      encoderCalls.texts.push(text.length);
      return actual.create(text, options);
    },
  };
});

const { QrMatrixCache, qrMatrixJson } = await import('../../../src/proxy/http/qr-matrix-answer.js');

describe('the QR matrix of a hostile qr text', () => {
  beforeEach(() => {
    encoderCalls.texts = [];
  });

  it('never hands the encoder a text longer than any QR holds, and keeps no entry for it', () => {
    const cache = new QrMatrixCache(4);
    const huge = `https://pay.example/${'aA1-'.repeat(250_000)}`;
    expect(qrMatrixJson(huge, cache)).toBe('null');
    expect(qrMatrixJson(`upi://pay?pa=shop%40bank&tn=${'9'.repeat(5_597)}`, cache)).toBe('null');
    expect(encoderCalls.texts).toEqual([]);
    expect(cache.size).toBe(0);
  });

  it('still encodes every text a QR can hold, up to the 5,596 digits of the largest one', () => {
    const cache = new QrMatrixCache(4);
    expect(qrMatrixJson('upi://pay?pa=shop%40bank', cache)).toBeDefined();
    expect(qrMatrixJson('7'.repeat(5_596), cache)).toBeDefined();
    expect(encoderCalls.texts).toEqual([24, 5_596]);
  });
});
