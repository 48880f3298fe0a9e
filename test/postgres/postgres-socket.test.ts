/**
 * The guarded sockets of the PostgreSQL store (src/postgres/postgres-socket.ts) under postgres.js itself, on a real
 * PostgreSQL behind a relay that drops the packets silently: a connection left unanswered is closed, and postgres.js
 * is left with nothing waiting on it. A statement handed to the connection in the turn between its socket's end and
 * postgres.js hearing of it (3.4.9) went wrong: with the socket destroyed by an error it waited for good, and later
 * statements went unanswered (Node); without an error it stayed in postgres.js's write buffer and held up the
 * startup of the next connection, and every statement after it (Bun).
 */
import type { Socket } from 'node:net';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { guardedSockets } from '../../src/postgres/postgres-socket.js';
import { cuttableRelay } from '../support/cuttable-relay.js';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();

/** How `operation` ended within `ms`: its value, 'failed', or 'late'. */
function within<T>(ms: number, operation: Promise<T>): Promise<T | 'failed' | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(resolve, ms, 'late');
  });
  return Promise.race([operation.catch(() => 'failed' as const), late]).finally(() => clearTimeout(timer));
}

describe('the guarded sockets, packets dropped', () => {
  it('fail a statement sent just as its connection is closed for want of an answer, and answer the next ones right', async () => {
    const relay = await cuttableRelay(server.port);
    const guarded = guardedSockets({ answerTimeoutSeconds: 1, connectTimeoutSeconds: 1 });
    let sentAsItCloses: Promise<unknown> | undefined;
    type Options = Parameters<typeof guarded>[0];
    const sql = postgres(server.url.replace(`:${server.port}/`, `:${relay.port}/`), {
      max: 1,
      connect_timeout: 1,
      fetch_types: false,
      onnotice: () => {},
      // Sends a statement as soon as the guard has destroyed the socket, before postgres.js can hear of it, as a
      // request can.
      socket: ((options: Options) => {
        const socket = guarded(options) as Socket; // plain TCP: the socket itself
        const destroy = socket.destroy.bind(socket);
        socket.destroy = (error?: Error) => {
          destroy(error);
          sentAsItCloses ??= sql`SELECT 1 AS n`.execute();
          return socket;
        };
        return socket;
      }) as never,
    } as object);
    const numbered = async (n: number) => (await sql`SELECT ${n}::int AS n`)[0]?.n;
    try {
      expect(await numbered(1)).toBe(1);
      relay.cut({ silent: true });
      expect(await within(3_000, numbered(2))).toBe('failed');
      expect(sentAsItCloses).toBeDefined();
      expect(await within(2_000, sentAsItCloses!)).toBe('failed');
      relay.mend();
      for (const n of [3, 4, 5]) expect(await within(2_000, numbered(n))).toBe(n);
    } finally {
      await sql.end({ timeout: 0 });
      await relay.close();
    }
  });

  it('close a connection left unanswered while more statements keep being sent on it', async () => {
    const relay = await cuttableRelay(server.port);
    const sql = postgres(server.url.replace(`:${server.port}/`, `:${relay.port}/`), {
      max: 1,
      connect_timeout: 1,
      fetch_types: false,
      onnotice: () => {},
      socket: guardedSockets({ answerTimeoutSeconds: 1, connectTimeoutSeconds: 1 }),
    } as object);
    const numbered = async (n: number) => (await sql`SELECT ${n}::int AS n`)[0]?.n;
    try {
      expect(await numbered(1)).toBe(1);
      relay.cut({ silent: true });
      const first = within(2_500, numbered(2));
      // A busy instance: postgres.js queues each new statement on the one connection it has (pipelined), so it
      // writes to the stalled socket every 200 ms, more often than the guard's second.
      const more: Promise<unknown>[] = [];
      for (let n = 0; n < 12; n++) {
        more.push(numbered(10 + n).catch(() => 'failed'));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await first).toBe('failed');
      // Served again once mended (the connection opened during the cut is held unanswered, then given up on).
      relay.mend();
      expect(await within(5_000, numbered(3))).toBe(3);
      await Promise.all(more);
    } finally {
      await sql.end({ timeout: 0 });
      await relay.close();
    }
  });
});
