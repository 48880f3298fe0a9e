import { describe, expect, it } from 'vitest';
import { foldRepeats } from '../../../src/proxy/infrastructure/folded-repeats.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';
import { capturingLogger } from '../harness.js';

describe('folded repeats of a log line', () => {
  it('writes a line once a minute at most, with the count of its repeats, and forgets it after a quiet minute', async () => {
    const clock = new ManualClock();
    const { lines, logger } = capturingLogger();
    const folded = foldRepeats(logger, clock);
    for (let i = 0; i < 5; i++) folded.warn('the service is down', { path: '/api/v2/status' });
    folded.warn('the service is down', { path: '/api/v2/payments' });
    expect(lines).toEqual(['the service is down {"path":"/api/v2/status"}', 'the service is down {"path":"/api/v2/payments"}']);
    await clock.advance(60_000);
    expect(lines.slice(2)).toEqual(['the service is down {"path":"/api/v2/status","repeats":4,"inLastSeconds":60}']);
    await clock.advance(60_000);
    folded.warn('the service is down', { path: '/api/v2/status' });
    expect(lines).toHaveLength(4);
  });

  it("writes the line again after a window whose timer never ran (a worker's runtime cancels an answered request's timers)", async () => {
    const clock = new ManualClock();
    // The proxy's clock in such a runtime: time goes on, the timers set while answering never fire.
    const cancelled = { now: () => clock.now(), setTimeout: () => undefined, clearTimeout: () => {} };
    const { lines, logger } = capturingLogger();
    const folded = foldRepeats(logger, cancelled);
    folded.warn('refused a callback');
    folded.warn('refused a callback');
    await clock.advance(60_000);
    folded.warn('refused a callback');
    folded.warn('refused a callback');
    expect(lines).toEqual(['refused a callback {}', 'refused a callback {"repeats":1,"inLastSeconds":60}']);
    await clock.advance(120_000);
    folded.warn('refused a callback');
    expect(lines.slice(2)).toEqual(['refused a callback {"repeats":2,"inLastSeconds":60}']);
  });

  it('writes the counts not yet written when flushed, as the proxy closes', () => {
    const clock = new ManualClock();
    const { lines, logger } = capturingLogger();
    const folded = foldRepeats(logger, clock);
    folded.error('the store failed');
    folded.error('the store failed');
    folded.flush();
    expect(lines).toEqual(['the store failed {}', 'the store failed {"repeats":1,"inLastSeconds":60}']);
    folded.error('the store failed');
    expect(lines).toHaveLength(3);
  });

  it('never folds a line whose fields cannot be written as JSON', () => {
    const { lines, logger } = capturingLogger();
    const folded = foldRepeats({ ...logger, warn: (message) => void lines.push(message) }, new ManualClock());
    const fields = { big: 1n };
    folded.warn('odd', fields);
    folded.warn('odd', fields);
    expect(lines).toEqual(['odd', 'odd']);
  });
});
