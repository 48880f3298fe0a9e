/**
 * A shop's hook that fails for hours (its ERP is down) is retried every 5 minutes at most, for every state it has not
 * heard. The log must say so in a line an operator can act on (the payment and the order, what failed), and then
 * not once per retry: that wrote 12 lines an hour per payment, burying the line about anything else.
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger, setup } from '../harness.js';

describe('the log of a hook that keeps failing', () => {
  it('says the first failure with the payment and order, then only the 2nd, 4th, 8th... and when it is heard at last', async () => {
    const { lines, logger } = capturingLogger();
    let failing = true;
    let heardPaid = 0;
    const t = setup({
      logger,
      clientId: () => 'one-client',
      reconcileEveryMs: 0,
      onPaymentUpdate: (payment) => {
        if (payment.outcome !== 'paid') return;
        if (failing) throw new Error('ERP offline');
        heardPaid++;
      },
    });
    const { body } = await t.create('A-hook');
    const id = body.payment.id;
    t.service.set(id, { state: 'finished', status: true });
    expect((await t.callback(t.service.payments.get(id))).status).toBe(200);
    // Three hours of retries on the test's clock: every 5 minutes once the backoff has grown.
    for (let minute = 0; minute < 180; minute++) await t.clock.advance(60_000);
    const failed = lines.filter((line) => line.startsWith('onPaymentUpdate failed'));
    expect(failed.map((line) => Number(/"attempt":(\d+)/.exec(line)?.[1]))).toEqual([1, 2, 4, 8, 16, 32]);
    expect(failed[0]).toContain(`"paymentId":"${id}"`);
    expect(failed[0]).toContain('"orderId":"A-hook"');
    expect(failed[0]).toContain('ERP offline');

    failing = false;
    for (let minute = 0; minute < 6; minute++) await t.clock.advance(60_000);
    expect(heardPaid).toBe(1);
    const heard = lines.filter((line) => line.startsWith('onPaymentUpdate heard'));
    expect(heard).toEqual([expect.stringMatching(new RegExp(`"paymentId":"${id}".*"orderId":"A-hook"`))]);
    // About 40 retries in three hours (every 5 minutes once the backoff has grown), of which 6 were said.
    expect(Number(/"failedAttempts":(\d+)/.exec(heard[0]!)?.[1])).toBeGreaterThan(40);
  });
});
