/**
 * The manual clock of the proxy's and the sandbox's tests (src/shared/manual-clock.ts), starting now, since the
 * fake proxy's payments expire on the real clock, plus `until()` for the browser: time moves only through
 * `advance(ms)`; network answers are real, so a test advances the clock and then waits, with a bound, for what
 * the answer changes.
 */
import { waitUntil } from '@open-wc/testing';
import { ManualClock as SharedManualClock } from '../../../src/shared/manual-clock.js';

export class ManualClock extends SharedManualClock {
  constructor(start = Date.now()) {
    super(start);
  }

  /**
   * Without moving time, fires what is due now until `condition` holds, within `ms`: for the timers of no delay
   * that something real sets (this tab taking the lead, a stream failing), which a test cannot await itself.
   */
  async until(condition: () => boolean, what: string, ms = 5000): Promise<void> {
    await waitUntil(
      async () => {
        await this.advance(0);
        return condition();
      },
      what,
      { timeout: ms, interval: 20 },
    );
  }
}
