/**
 * The PostgreSQL store's connections while the database is down and when it comes back. postgres.js waits longer
 * before each reconnect (up to 20 s by its own reckoning, counted across the pool and over the whole outage), and
 * a statement handed to a connection waits that out: a busy shop's requests got their 503 after up to half a
 * minute, and went on waiting seconds after the database was back. The store bounds the wait at a second.
 */
import { describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { usePostgresServer } from '../postgres/postgres-server-harness.js';

const server = usePostgresServer();

/** How an operation ended within `ms`: 'ok', 'failed', or 'late' when it had not ended by then. */
function within(ms: number, operation: Promise<unknown>): Promise<'ok' | 'failed' | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, ms, 'late');
  });
  const ended = operation.then(
    () => 'ok' as const,
    () => 'failed' as const,
  );
  return Promise.race([ended, late]).finally(() => clearTimeout(timer));
}

describe('the PostgreSQL store reconnecting', () => {
  it('fails each operation within seconds all through an outage, and serves at once when the database is back', async () => {
    const store = createPostgresStore({ url: server.url, schema: 'reconnect', connectTimeoutSeconds: 2 });
    try {
      await store.putOrder({ orderId: 'R-1', payments: [] });
      await server.stop();
      // Rounds of 20 operations at once, as a busy shop's requests: the last round fails as fast as the first.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => within(3_000, store.getOrder('R-1'))));
        expect({ round, answers: [...new Set(answers)] }).toEqual({ round, answers: ['failed'] });
      }
      await server.start();
      // Each is answered at once. One may still fail: postgres.js can keep the "shutting down" error (57P01) a
      // connection met at the stop and hand it to that connection's first statement after it reconnects.
      const first = await Promise.all(Array.from({ length: 20 }, () => within(2_000, store.getOrder('R-1'))));
      expect(first).not.toContain('late');
      const next = await Promise.all(Array.from({ length: 20 }, () => within(2_000, store.getOrder('R-1'))));
      expect([...new Set(next)]).toEqual(['ok']);
    } finally {
      await store.close();
    }
  }, 30_000);
});
