/** The element's clock is the one the proxy and the sandbox run on (src/shared/clock.ts). */
export { type Clock, systemClock } from '../shared/clock.js';
