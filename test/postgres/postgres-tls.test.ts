/**
 * The PostgreSQL store over TLS, through a front that routes by the name the client asks for in its TLS hello (SNI),
 * as a hosted database's proxy does (Neon, for one, refuses a connection that names no endpoint). The store opens
 * the connections' sockets itself (postgres-socket.ts); postgres.js takes that name from the socket, so a socket
 * that did not carry the database's host sent no name, and every connection through such a front was refused.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { secureSocket } from '../../src/postgres/secure-socket.js';
import { cuttableRelay } from '../support/cuttable-relay.js';
import { type TlsFront, tlsFront } from '../support/tls-front.js';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();

/** 'late', after `ms` (the timer does not hold the process open). */
const late = (ms: number) => new Promise<'late'>((resolve) => setTimeout(resolve, ms, 'late').unref());

/** A store under `schema` whose URL asks for TLS (`sslmode=require`) at `host`:`port`; a lock waits at most 1 s. */
function storeOverTls(
  host: string,
  port: number,
  schema: string,
  timeouts: { answerTimeoutSeconds: number; connectTimeoutSeconds?: number },
) {
  return createPostgresStore({
    url: `postgres://postgres@${host}:${port}/postgres?sslmode=require`,
    schema,
    connectTimeoutSeconds: timeouts.connectTimeoutSeconds ?? 2,
    lockTimeoutSeconds: 1,
    answerTimeoutSeconds: timeouts.answerTimeoutSeconds,
  });
}

describe('the PostgreSQL store over TLS', () => {
  let front: TlsFront;
  beforeAll(async () => {
    front = await tlsFront(() => server.port);
  });
  afterAll(() => front?.close());

  it('names the database host in its TLS hello, so a front that routes by it lets it through', async () => {
    const store = storeOverTls('localhost', front.port, 'tls_front', { answerTimeoutSeconds: 3 });
    try {
      // Bounded: refused by the front, the store's first use (its schema) went on reconnecting for as long as it was.
      const written = store.putOrder({ orderId: 'T-1', payments: [] }).then(() => 'written');
      const outcome = await Promise.race([written, late(8_000)]);
      expect(front.names.length).toBeGreaterThan(0);
      expect(new Set(front.names)).toEqual(new Set(['localhost']));
      expect(outcome).toBe('written');
      expect(await store.getOrder('T-1')).toEqual({ orderId: 'T-1', payments: [] });
    } finally {
      await store.close();
    }
  }, 20_000);

  it('checks that the certificate names the database host, its address too, where the certificate is checked', async () => {
    // The front's certificate names localhost, not 127.0.0.1. Trusted here as a shop's CA would be (NODE_EXTRA_CA_CERTS
    // with sslmode=verify-full): the names are checked as with any verifying mode, which differ only in what is trusted.
    const secured = (host: string) =>
      secureSocket(connect(front.port, host), { ssl: { ca: front.cert } }, host, 2_000).then(
        (socket) => {
          socket.destroy();
          return 'secured';
        },
        (error: Error & { code?: string }) => error.code,
      );
    expect(await secured('localhost')).toBe('secured');
    // Before, a host given by its address was checked against the name localhost (Node's default when neither a
    // name is sent nor a host given), so any certificate for localhost was taken for the database at that address.
    expect(await secured('127.0.0.1')).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('goes on unencrypted with sslmode=prefer where the database declines TLS, and says what is wrong with require', async () => {
    // The test's PostgreSQL has no certificate: it answers the SSLRequest with N.
    const open = (mode: string) =>
      createPostgresStore({
        url: `${server.url}?sslmode=${mode}`,
        schema: 'tls_declined',
        connectTimeoutSeconds: 2,
        lockTimeoutSeconds: 1,
      });
    const preferring = open('prefer');
    const requiring = open('require');
    const verifying = open('verify-full');
    try {
      expect(await preferring.getOrder('T-4')).toBeUndefined();
      // Before, postgres.js tried TLS anyway, and the log read as a reset connection (ECONNRESET).
      await expect(requiring.getOrder('T-4')).rejects.toThrow(/does not accept TLS here: is sslmode=require meant for this server\?/);
      // The mode the URL gave, not always require.
      await expect(verifying.getOrder('T-4')).rejects.toThrow(/does not accept TLS here: is sslmode=verify-full meant for this server\?/);
    } finally {
      await Promise.all([preferring.close(), requiring.close(), verifying.close()]);
    }
  });

  it('fails its operations within a second, and connects again at the backoff, when the front closes each connection after its handshake', async () => {
    // Named by its address, the database's host sends no name in its hello, and the front closes the connection
    // once TLS is up and before PostgreSQL says a word: a front that cannot reach the database.
    const store = storeOverTls('127.0.0.1', front.port, 'tls_closed', { answerTimeoutSeconds: 6 });
    const knocksBefore = front.names.length;
    const started = Date.now();
    try {
      // Ten reads at once, then one every 100 ms for 3 s: each fails, and the pool knocks at its backoff meanwhile.
      const failedAfter = async () => {
        const askedAt = Date.now();
        const read = store.getOrder('T-CLOSED').then(
          () => 'read',
          () => Date.now() - askedAt,
        );
        return Promise.race([read, late(8_000)]);
      };
      const reads = await Promise.all(Array.from({ length: 10 }, failedAfter));
      while (Date.now() - started < 3_000) {
        reads.push(await failedAfter());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const knocks = front.names.length - knocksBefore;
      const slowest = Math.max(...reads.map((read) => (typeof read === 'number' ? read : Number.POSITIVE_INFINITY)));
      const figure = `${reads.length} reads, the slowest failed after ${slowest} ms (${reads.filter((read) => read === 'late').length} unanswered at 8 s); ${knocks} connections in ${Date.now() - started} ms`;
      // Before, each read waited out answerTimeoutSeconds while postgres.js connected again at once, thousands of
      // times a second.
      expect(slowest, figure).toBeLessThan(2_000);
      expect(knocks, figure).toBeLessThan(100);
    } finally {
      await Promise.race([store.close(), late(3_000)]);
    }
  }, 20_000);

  it('closes the connections a silent cut stalled, so that an operation is served again right after the mend', async () => {
    // The relay before the front drops the TLS connection's packets when cut: a firewall, a NAT entry lost.
    const relay = await cuttableRelay(front.port);
    const store = storeOverTls('localhost', relay.port, 'tls_mended', { answerTimeoutSeconds: 2 });
    try {
      await store.putOrder({ orderId: 'T-3', payments: [] });
      await Promise.all(Array.from({ length: 12 }, () => store.getOrder('T-3'))); // the pool's connections all open
      relay.cut({ silent: true });
      const cut = await Promise.all(
        Array.from({ length: 12 }, () =>
          store.getOrder('T-3').then(
            () => 'read',
            () => 'failed',
          ),
        ),
      );
      expect(cut).toEqual(Array(12).fill('failed'));
      relay.mend();
      const mendedAt = Date.now();
      let refused = 0;
      let read = await store.getOrder('T-3').catch(() => undefined);
      while (!read && Date.now() - mendedAt < 10_000) {
        refused++;
        read = await store.getOrder('T-3').catch(() => undefined);
      }
      const figure = `${refused} refused in ${Date.now() - mendedAt} ms after the mend`;
      // Before, every operation went to a stalled connection and waited out answerTimeoutSeconds, for good.
      expect(read, figure).toEqual({ orderId: 'T-3', payments: [] });
      expect(Date.now() - mendedAt, figure).toBeLessThan(4_000);
    } finally {
      await Promise.race([store.close(), late(3_000)]);
      await relay.close();
    }
  }, 30_000);

  it('fails an operation after connectTimeoutSeconds when nothing answers the connection, TLS not begun', async () => {
    // The store's own connect timeout covers the SSLRequest and the handshake, before postgres.js's takes over.
    const relay = await cuttableRelay(front.port);
    relay.cut({ silent: true });
    const store = storeOverTls('localhost', relay.port, 'tls_unanswered', { answerTimeoutSeconds: 5, connectTimeoutSeconds: 1 });
    const started = Date.now();
    try {
      const outcome = await Promise.race([store.getOrder('T-5').catch((error: Error) => error.message), late(4_000)]);
      expect(outcome).toMatch(/did not answer the connection in time: .* \(CONNECT_TIMEOUT\)$/);
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      await Promise.race([store.close(), late(3_000)]);
      await relay.close();
    }
  });
});
