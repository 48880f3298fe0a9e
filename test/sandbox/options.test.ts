import { describe, expect, it } from 'vitest';
import { createSandbox, DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { createPayment, readRefused, setup, status } from './helpers.js';

describe('sandbox options', () => {
  it('accept the demo merchant by default, with its public credentials', () => {
    const sandbox = createSandbox();
    expect(sandbox.merchants).toEqual([{ ...DEMO_MERCHANT, signAnswers: true, userId: '1001' }]);
    expect(DEMO_MERCHANT).toEqual({ id: 'demo-merchant', token: 'demo-token', secret: 'demo-secret' });
    sandbox.close();
  });

  it('refuse a configuration that could only fail later', () => {
    const m = (over: object) => ({ ...DEMO_MERCHANT, ...over });
    expect(() => createSandbox({ merchants: [m({ secret: '' })] })).toThrow(/non-empty secret/);
    expect(() => createSandbox({ merchants: [m({ token: ' ' })] })).toThrow(/non-empty token/);
    expect(() => createSandbox({ merchants: [m({}), m({ id: 'b' })] })).toThrow(/share one token/);
    expect(() => createSandbox({ publicUrl: 'ftp://x.test' })).toThrow(/publicUrl/);
    expect(() => createSandbox({ ttlSeconds: 0 })).toThrow(/ttlSeconds/);
    expect(() => createSandbox({ commissionPercent: 101 })).toThrow(/commissionPercent/);
    expect(() => createSandbox({ faults: { errorRate: 2 } })).toThrow(/errorRate must be at most 1/);
  });
});

describe('a sandbox left running', () => {
  it('forgets the oldest final payments past maxPayments, and never an open one', async () => {
    const { sandbox } = setup({ maxPayments: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createPayment(sandbox, { orderId: `A-${i}` }));
    sandbox.act(ids[1]!, 'cancel');
    ids.push(await createPayment(sandbox, { orderId: 'A-3' }));
    expect(
      sandbox
        .payments()
        .map((p) => p.id)
        .sort(),
    ).toEqual([ids[0], ids[2], ids[3]].sort());

    // Nothing final left to forget: open payments stay, over the limit, until they end.
    ids.push(await createPayment(sandbox, { orderId: 'A-4' }));
    expect(sandbox.payments()).toHaveLength(4);
    await readRefused(await status(sandbox, { paymentId: ids[1] }), 404);
  });
});
