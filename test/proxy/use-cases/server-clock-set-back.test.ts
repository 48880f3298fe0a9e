/**
 * The shop server's clock set back while the proxy runs (an NTP step after a VM resumed, an operator fixing the
 * time): a status answer the proxy shared with the polls of the next few seconds is not taken for one that is still
 * fresh for as long as the clock was set back. The polls of an open page go on reaching the service.
 */
import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/shared/clock.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { setup } from '../harness.js';

const HOUR = 3_600_000;

/** A manual clock whose reading can be set back, as a server's is; its timers still run by `advance`. */
function settableClock() {
  const manual = new ManualClock();
  let back = 0;
  const clock: Clock & { advance: (ms: number) => Promise<void>; setBack: (ms: number) => void } = {
    now: () => manual.now() - back,
    setTimeout: (callback, ms) => manual.setTimeout(callback, ms),
    clearTimeout: (handle) => manual.clearTimeout(handle),
    advance: (ms) => manual.advance(ms),
    setBack: (ms) => {
      back += ms;
    },
  };
  return clock;
}

describe('a shop server whose clock is set back', () => {
  it('asks the service again a few seconds later, not an hour later', async () => {
    const clock = settableClock();
    const t = setup({ clock });
    const { body } = await t.create('A-1');
    await clock.advance(10_000);
    await t.status(body.payment.id, body.token);
    const asked = t.service.paymentStatuses.length;

    clock.setBack(HOUR);
    t.service.set(body.payment.id, { state: 'finished', status: true });
    await clock.advance(10_000);
    const { body: read } = await t.status(body.payment.id, body.token);
    expect(t.service.paymentStatuses.length).toBe(asked + 1);
    expect(read.payment.outcome).toBe('paid');
  });
});
