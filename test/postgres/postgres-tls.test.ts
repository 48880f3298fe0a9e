/**
 * The PostgreSQL store over TLS, through a front that routes by the name the client asks for in its TLS hello (SNI),
 * as a hosted database's proxy does (Neon, for one, refuses a connection that names no endpoint). The store opens
 * the connections' sockets itself (postgres-socket.ts); postgres.js takes that name from the socket, so a socket
 * that did not carry the database's host sent no name, and every connection through such a front was refused.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();

/** A self-signed certificate for `localhost`, made for this run: no key is kept in the repository. */
function localhostCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'payin-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The front on loopback: it answers PostgreSQL's SSLRequest, ends TLS, and passes the connection on to the database
 * only when the TLS hello named `localhost`; a connection that named nothing is closed. The names asked for are kept.
 */
async function sniFront(target: () => number): Promise<{ port: number; names: (string | false | null)[]; close(): Promise<void> }> {
  const context = createSecureContext(localhostCertificate());
  const names: (string | false | null)[] = [];
  const sockets = new Set<Socket>();
  const front: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => {});
    raw.once('readable', () => {
      // The 8 bytes of an SSLRequest; anything else is no client of this test.
      const request = raw.read(8) as Buffer | null;
      if (request?.readUInt32BE(4) !== 80877103) return raw.destroy();
      raw.write('S');
      const secure = new TLSSocket(raw, { isServer: true, secureContext: context });
      secure.on('error', () => raw.destroy());
      secure.once('secure', () => {
        names.push(secure.servername);
        if (secure.servername !== 'localhost') return secure.destroy();
        const database = createConnection({ host: '127.0.0.1', port: target() });
        database.on('error', () => secure.destroy());
        database.on('close', () => secure.destroy());
        secure.on('close', () => database.destroy());
        secure.pipe(database).pipe(secure);
      });
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    port: (front.address() as { port: number }).port,
    names,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  };
}

describe('the PostgreSQL store over TLS', () => {
  let front: Awaited<ReturnType<typeof sniFront>>;
  beforeAll(async () => {
    front = await sniFront(() => server.port);
  });
  afterAll(() => front?.close());

  it('names the database host in its TLS hello, so a front that routes by it lets it through', async () => {
    const store = createPostgresStore({
      url: `postgres://postgres@localhost:${front.port}/postgres?sslmode=require`,
      schema: 'tls_front',
      connectTimeoutSeconds: 2,
      lockTimeoutSeconds: 1,
      answerTimeoutSeconds: 3,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // Bounded: refused by the front, the store's first use (its schema) went on reconnecting for as long as it was.
      const written = store.putOrder({ orderId: 'T-1', payments: [] }).then(() => 'written');
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(resolve, 8_000, 'no answer within 8 s');
      });
      const outcome = await Promise.race([written, late]);
      expect(front.names.length).toBeGreaterThan(0);
      expect(new Set(front.names)).toEqual(new Set(['localhost']));
      expect(outcome).toBe('written');
      expect(await store.getOrder('T-1')).toEqual({ orderId: 'T-1', payments: [] });
    } finally {
      clearTimeout(timer);
      await store.close();
    }
  }, 20_000);
});
