/**
 * The store check behind /healthz and proxy.checkStore(): a ping bounded by a timeout on the injected clock,
 * shared by concurrent callers and reused while fresh, so that a health route never hammers the database.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../../src/proxy/index.js';
import type { ProxyLogger } from '../../../src/proxy/logger.js';
import { StoreHealth } from '../../../src/proxy/infrastructure/store-health.js';
import type { ProxyStore } from '../../../src/proxy/infrastructure/store.js';
import { ManualClock } from '../../../src/shared/manual-clock.js';

/** A store whose pings are answered by the test: each ping waits until `answer(error?)` settles it. */
class PingedStore {
  pings = 0;
  #waiting: ((error?: Error) => void)[] = [];

  ping(): Promise<void> {
    this.pings++;
    return new Promise((resolve, reject) => {
      this.#waiting.push((error) => (error ? reject(error) : resolve()));
    });
  }

  answer(error?: Error): void {
    for (const settle of this.#waiting.splice(0)) settle(error);
  }
}

function health(store: object, clock = new ManualClock()) {
  const lines: string[] = [];
  const keep = (level: string) => (message: string, fields?: object) => lines.push(`${level}: ${message} ${JSON.stringify(fields ?? {})}`);
  const logger: ProxyLogger = { info: keep('info'), warn: keep('warn'), error: keep('error') };
  return { check: new StoreHealth(store as ProxyStore, { clock, logger }), clock, lines };
}

describe('the store check', () => {
  it('answers ok for a store that pings, and "unchecked" (still ok) for a shop store without ping', async () => {
    expect(await health(createMemoryStore()).check.check()).toEqual({ ok: true, store: 'ok' });
    expect(await health({}).check.check()).toEqual({ ok: true, store: 'unchecked' });
  });

  it('answers unreachable when the ping fails, and logs it once with the store named, not on every check', async () => {
    const store = new PingedStore();
    const { check, clock, lines } = health(store);
    for (let round = 0; round < 3; round++) {
      const answer = check.check();
      store.answer(new Error('connect ECONNREFUSED 127.0.0.1:6399'));
      expect(await answer).toEqual({ ok: false, store: 'unreachable' });
      await clock.advance(1_000);
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: the pinged store is unreachable; .*ECONNREFUSED/);

    const back = check.check();
    store.answer();
    expect(await back).toEqual({ ok: true, store: 'ok' });
    expect(lines[1]).toMatch(/^info: the pinged store is reachable again/);
  });

  it('answers unreachable when the ping hangs past 2 s of its clock, instead of hanging itself', async () => {
    const store = new PingedStore();
    const { check, clock } = health(store);
    let answer: unknown;
    void check.check().then((value) => (answer = value));
    await clock.advance(1_999);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect(answer).toEqual({ ok: false, store: 'unreachable' });
  });

  it('shares one ping among concurrent checks, and reuses the answer for a second before asking again', async () => {
    const store = new PingedStore();
    const { check, clock } = health(store);
    const answers = Array.from({ length: 50 }, () => check.check());
    store.answer();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 50 }, () => ({ ok: true, store: 'ok' })));
    expect(store.pings).toBe(1);

    await clock.advance(999);
    expect(await check.check()).toEqual({ ok: true, store: 'ok' });
    expect(store.pings).toBe(1);

    await clock.advance(1);
    const again = check.check();
    store.answer(new Error('gone'));
    expect(await again).toEqual({ ok: false, store: 'unreachable' });
    expect(store.pings).toBe(2);
  });
});
