/**
 * A create whose payment the service made but whose record the store refused: the shopper gets 503 `unavailable`
 * (Retry), and the retry finds that payment at the service instead of making a second one, also for an order the
 * store already knows (the shopper switched methods), which is not looked up at the service by itself.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../src/proxy/index.js';
import type { PaymentRecord } from '../../../src/proxy/infrastructure/store.js';
import { startLive, type Live } from '../sandbox-harness.js';

/** A store on a database that refuses the next first write of a payment of `method`, as a dropped connection does. */
class FlakyStore extends MemoryStore {
  refuseFirstWriteOf: string | undefined;

  override async putPayment(record: PaymentRecord, expectedVersion: number): Promise<boolean> {
    if (expectedVersion === 0 && record.view.method === this.refuseFirstWriteOf) {
      this.refuseFirstWriteOf = undefined;
      throw new Error('Connection terminated unexpectedly');
    }
    return super.putPayment(record, expectedVersion);
  }
}

// The service's callbacks would adopt the payment by themselves; the retry must find it without their help.
const NO_CALLBACKS = 'http://127.0.0.1:9/payin/callback';

const opened: Live[] = [];
afterEach(async () => {
  for (const live of opened.splice(0)) await live.close();
});

describe('a create whose record the store refused after the service made the payment', () => {
  it('answers 503 unavailable, and the retry hands out that payment: one payment at the service', async () => {
    const store = new FlakyStore();
    const live = await startLive({ store, reconcileEveryMs: 0, callbackUrl: NO_CALLBACKS });
    opened.push(live);
    expect((await live.create('FLAKY-1', 'upi')).status).toBe(201);

    store.refuseFirstWriteOf = 'sbp';
    const failed = await live.create('FLAKY-1', 'sbp');
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('unavailable');
    const made = live.sandbox.payments().filter((p) => p.orderId === 'FLAKY-1' && p.method === 'sbp');
    expect(made).toHaveLength(1);

    const again = await live.create('FLAKY-1', 'sbp');
    expect([200, 201]).toContain(again.status);
    expect(again.body.payment.id).toBe(made[0]!.id);
    expect(live.sandbox.payments().filter((p) => p.orderId === 'FLAKY-1' && p.method === 'sbp')).toHaveLength(1);
  });

  it('does the same for an order the store has never seen', async () => {
    const store = new FlakyStore();
    const live = await startLive({ store, reconcileEveryMs: 0, callbackUrl: NO_CALLBACKS });
    opened.push(live);
    store.refuseFirstWriteOf = 'upi';
    expect((await live.create('FLAKY-2', 'upi')).status).toBe(503);
    const made = live.sandbox.payments().filter((p) => p.orderId === 'FLAKY-2');
    expect(made).toHaveLength(1);
    const again = await live.create('FLAKY-2', 'upi');
    expect([200, 201]).toContain(again.status);
    expect(again.body.payment.id).toBe(made[0]!.id);
    expect(live.sandbox.payments().filter((p) => p.orderId === 'FLAKY-2')).toHaveLength(1);
  });
});
