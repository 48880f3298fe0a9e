/**
 * The connections' sockets, opened here rather than by postgres.js (its `socket` option), so that a connection closed
 * before PostgreSQL said a word fails the statement waiting for it. Something in front of the database that takes the
 * connection and closes it at once (a balancer, PgBouncer, a container's published port, a relay whose database
 * cannot be reached from this host) sends no error, only the end of the stream; postgres.js 3.4.9 then connects again
 * at once, with no connect timeout (each new socket starts it anew) and without failing the statement, so a
 * shopper's create waited for as long as the cut lasted (over 60 s measured) while thousands of connections a
 * second were opened. Ended unanswered, the socket is destroyed with an error instead: the statement fails, the
 * request gets the retryable 503, and the next connect waits out the pool's backoff. Over TLS this guard is gone once
 * the handshake starts (postgres.js takes every listener off the socket before it wraps it), and answerTimeoutSeconds
 * is what bounds such a request (docs/stores.md).
 */
import { connect, type Socket } from 'node:net';

/** The parts of postgres.js's parsed options the socket needs. */
interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

/**
 * postgres.js's `socket` option: a socket that is still connecting, as postgres.js's own would be (it writes the
 * startup message at once, which waits in the socket, and runs its connect timeout), so that a refused or failed
 * connect goes through its usual close and backoff. The hosts are tried in turn.
 */
export function guardedSockets(): (options: SocketOptions) => Socket {
  let turn = 0;
  return (options) => {
    const at = turn++ % Math.max(1, options.host.length);
    const host = options.host[at] ?? options.host[0];
    const port = options.port[at] ?? options.port[0] ?? 5432;
    // Named as postgres.js names its own TCP socket: its TLS hello takes the server name (SNI) from `host`.
    const socket = options.path ? connect(options.path) : Object.assign(connect(port, host), { host, port });
    socket.once('end', () => {
      if (socket.bytesRead > 0) return;
      const error = Object.assign(new Error('the connection to PostgreSQL was closed before it answered'), { code: 'CLOSED_UNANSWERED' });
      socket.destroy(error);
    });
    return socket;
  };
}
