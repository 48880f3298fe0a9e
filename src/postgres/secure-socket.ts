/**
 * TLS to PostgreSQL, started by the store on the socket it opened rather than by postgres.js. postgres.js 3.4.9
 * takes every listener off the socket it is given as it starts TLS on it (secure(): socket.removeAllListeners()),
 * so the guards of postgres-socket.ts, on that socket, were gone on every connection with `sslmode=require`, the
 * mode of nearly every hosted database. Here the TLS socket is what postgres.js is given, with TLS off in its own
 * options: it speaks plain PostgreSQL over it and never touches the socket under it, and the guards go on the TLS
 * socket, where they see what PostgreSQL sends rather than what the TLS front does.
 *
 * What is done is what postgres.js does (its secure()), from its own reading of the URL (`sslmode`, `sslrootcert`,
 * `sslnegotiation`, PGSSL): the SSLRequest unless the negotiation is direct, a server that declines going on
 * unencrypted only with `prefer`, the host named in the hello unless it is an address, and the certificate checked
 * except with `require`, `allow` and `prefer`; where it is checked, it must name the host, an address too (safer than
 * postgres.js there, which checks an address's certificate against the name localhost).
 */
import { isIP, type Socket } from 'node:net';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';

/** postgres.js's parsed `ssl` and `sslnegotiation` (its README's options), read before TLS is taken from it. */
export interface TlsSetting {
  ssl: boolean | string | ConnectionOptions;
  sslnegotiation?: unknown;
}

/** The 8 bytes that ask PostgreSQL for TLS (its protocol's SSLRequest code, 80877103). */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 4, 210, 22, 47]);

/**
 * The connection `raw` made secure as `tls` says: its TLS socket once the handshake is done, or `raw` itself when the
 * server declined and `prefer` allows that. Fails with the socket's error, or when nothing is settled within `ms`.
 */
export function secureSocket(raw: Socket, tls: TlsSetting, host: string, ms: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    let current = raw;
    const fail = (error: Error) => {
      clearTimeout(timer);
      current.destroy();
      raw.destroy();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(coded('CONNECT_TIMEOUT', `PostgreSQL did not answer the connection and its TLS within ${ms / 1000} s`)),
      ms,
    );
    const onError = (error: Error) => fail(error);
    const onEnd = () => fail(coded('CLOSED_UNANSWERED', 'the connection to PostgreSQL was closed before it answered'));
    raw.on('error', onError);
    raw.once('end', onEnd);
    const handshake = () => {
      raw.off('error', onError);
      raw.off('end', onEnd);
      const direct = tls.sslnegotiation === 'direct';
      const secure = connectTls({
        socket: raw,
        servername: isIP(host) ? undefined : host,
        // The name the certificate must carry where it is checked. Without it, a host given by its address (no name
        // sent) was checked against the name localhost, Node's default, as postgres.js's own TLS checks it: a
        // certificate for localhost from any trusted CA was taken for the database at 10.0.0.5.
        host,
        ...(direct ? { ALPNProtocols: ['postgresql'] } : {}),
        ...(tls.ssl === 'require' || tls.ssl === 'allow' || tls.ssl === 'prefer' ? { rejectUnauthorized: false } : {}),
        ...(typeof tls.ssl === 'object' ? tls.ssl : {}),
      });
      current = secure;
      secure.on('error', onError);
      secure.once('end', onEnd);
      secure.once('secureConnect', () => {
        clearTimeout(timer);
        secure.off('error', onError);
        secure.off('end', onEnd);
        resolve(secure);
      });
    };
    if (tls.sslnegotiation === 'direct') return void raw.once('connect', handshake);
    raw.write(SSL_REQUEST);
    raw.once('data', (answer: Buffer) => {
      if (answer[0] === 83) return handshake(); // S
      if (tls.ssl !== 'prefer')
        return fail(coded('TLS_REFUSED', `PostgreSQL does not accept TLS here: is ${asked(tls)} meant for this server?`));
      clearTimeout(timer);
      raw.off('error', onError);
      raw.off('end', onEnd);
      resolve(raw);
    });
  });
}

/** What the URL asked for, as the shop wrote it: `sslmode=verify-full`, or TLS (`ssl=true`, PGSSL). */
function asked(tls: TlsSetting): string {
  return typeof tls.ssl === 'string' ? `sslmode=${tls.ssl}` : 'TLS';
}

function coded(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
