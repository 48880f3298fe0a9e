/**
 * A TLS front on loopback for PostgreSQL, as a hosted database's proxy is (Neon, Supabase, RDS through a balancer):
 * it answers PostgreSQL's SSLRequest, ends TLS with a self-signed certificate for `localhost` made for this run (no
 * key is kept in the repository), and passes the connection on to the database only when the TLS hello named
 * `localhost`, routing by that name (SNI) as Neon's does. A connection that named nothing is closed right after
 * its handshake, unanswered: what such a front does when it cannot reach the database.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';

export interface TlsFront {
  /** The front's port on 127.0.0.1. */
  port: number;
  /** The name each handshake asked for (false or null: none). */
  readonly names: (string | false | null)[];
  /** Its certificate (PEM, public): a client that trusts it checks the names in it. */
  cert: Buffer;
  close(): Promise<void>;
}

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

/** A front before the database on `target()`, the port read at each connection. */
export async function tlsFront(target: () => number): Promise<TlsFront> {
  const certificate = localhostCertificate();
  const context = createSecureContext(certificate);
  const names: (string | false | null)[] = [];
  const sockets = new Set<Socket>();
  const front: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.on('error', () => {});
    raw.once('readable', () => {
      // The 8 bytes of an SSLRequest; anything else is no client of this front.
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
    cert: certificate.cert,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  };
}
