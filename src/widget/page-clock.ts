/**
 * The checkout's clock in the page: epoch milliseconds as the page started, then counted as time passes, so that a
 * change of the device's time does not move it. The checkout only measures waits with it (the countdown's end,
 * corrected by every answer to the service's time; how long to follow) and never compares it with a server's: a
 * phone's clock set an hour ahead while paying (by hand, or when the network's time arrives) ended following at
 * once, so a payment made then was never shown paid, and one set an hour back counted down 75 minutes until the
 * next answer. A device that does not count its sleep here is corrected by the check that coming back to the page
 * makes. The page's own timers: nothing here keeps a process alive, so nothing needs unref.
 */
import type { Clock } from '../shared/clock.js';

export const pageClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as number),
};
