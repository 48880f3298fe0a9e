/**
 * The connections' sockets, opened here rather than by postgres.js (its `socket` option), so that a connection closed
 * before PostgreSQL said a word fails the statement waiting for it. Something in front of the database that takes the
 * connection and closes it at once (a balancer, PgBouncer, a container's published port, a relay whose database
 * cannot be reached from this host) sends no error, only the end of the stream; postgres.js 3.4.9 then connects again
 * at once, with no connect timeout (each new socket starts it anew) and without failing the statement, so a
 * shopper's create waited for as long as the cut lasted (over 60 s measured) while thousands of connections a
 * second were opened. Ended unanswered, the socket is destroyed with an error instead: the statement fails, the
 * request gets the retryable 503, and the next connect waits out the pool's backoff.
 *
 * A socket whose packets are dropped (a firewall, a NAT entry gone with a failover) neither answers nor ends, and
 * stays so once the network is mended, until the kernel's TCP gives up on it (a quarter of an hour). The store fails
 * the statement after answerTimeoutSeconds, but postgres.js knows nothing of that: it kept the connection, and once
 * every connection of the pool had been stalled by the cut it queued each new statement behind a stalled one, so the
 * proxy answered every create with a 503 long after the database was back (none of 18 served in the minute after
 * the mend, through the fault tests' relay). Nothing of postgres.js's own ends such a connection: `keep_alive` probes
 * only a connection with nothing unanswered, `idle_timeout` and `max_lifetime` wait for the statement in flight, and
 * a query's cancel() goes out on a new connection while its answer would come back on the stalled one. So a socket
 * that has sent something and heard nothing for answerTimeoutSeconds is destroyed here: postgres.js fails what was
 * queued on it and opens a fresh connection for the next statement.
 *
 * Both hold over TLS (`sslmode=require`, a hosted database's usual mode) on Node, Bun and Deno: the store starts TLS
 * itself (secure-socket.ts) and the guards watch the TLS socket, where the end of the stream before PostgreSQL's
 * first word is seen whatever the TLS front sent before it. postgres.js, left to start TLS, took every listener off
 * the socket, and neither guard held: through a front that closed each connection after its handshake, reads went
 * unanswered for 8 s while about 3,000 connections were opened, and a pool stalled by a silent cut stayed so after
 * the mend.
 */
import { connect, Socket } from 'node:net';
import { secureSocket, type TlsSetting } from './secure-socket.js';

/** The parts of postgres.js's parsed options the socket needs. */
interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
}

export interface GuardOptions {
  /** Seconds a socket may stay silent after it last sent something before it is destroyed; none: not watched. */
  answerTimeoutSeconds?: number;
  /** TLS as postgres.js would have started it (postgres.js itself is told none); none: plain TCP. */
  tls?: TlsSetting;
  /** Seconds the TCP connect, the SSLRequest and the TLS handshake may take together (postgres.js's connect_timeout). */
  connectTimeoutSeconds: number;
}

/**
 * postgres.js's `socket` option. Plain, a socket that is still connecting, as postgres.js's own would be (it writes
 * the startup message at once, which waits in the socket, and runs its connect timeout), so that a refused or failed
 * connect goes through its usual close and backoff. Over TLS, a promise of the TLS socket once its handshake is done
 * (secure-socket.ts), which postgres.js awaits as its README allows; a connect that fails before then is handed over
 * as a socket that fails at once, since postgres.js listens only to the socket it is given. The hosts are tried in
 * turn. With `answerTimeoutSeconds`, a socket silent that long after it last sent something is destroyed; one merely
 * idle is kept.
 */
export function guardedSockets(guards: GuardOptions): (options: SocketOptions) => Socket | Promise<Socket> {
  let turn = 0;
  return (options) => {
    const at = turn++ % Math.max(1, options.host.length);
    const host = options.host[at] ?? options.host[0] ?? 'localhost';
    const port = options.port[at] ?? options.port[0] ?? 5432;
    // Named as postgres.js names its own TCP socket (a Unix-domain one carries no host): its errors name the server so.
    const named = (socket: Socket) => (options.path ? socket : Object.assign(socket, { host, port }));
    const raw = options.path ? connect(options.path) : connect(port, host);
    if (!guards.tls) return guarded(named(raw), guards);
    return secureSocket(raw, guards.tls, host, guards.connectTimeoutSeconds * 1000).then(
      (socket) => guarded(named(socket), guards),
      (error: Error) => named(failing(error)),
    );
  };
}

/** `socket` with the guards on: against a close before PostgreSQL answered, and against a silence after a write. */
function guarded<T extends Socket>(socket: T, guards: GuardOptions): T {
  // A connection that PostgreSQL declined to secure (`prefer`) has read its answer to the SSLRequest already.
  const readBefore = socket.bytesRead;
  socket.once('end', () => {
    if (socket.bytesRead > readBefore) return;
    const error = Object.assign(new Error('the connection to PostgreSQL was closed before it answered'), { code: 'CLOSED_UNANSWERED' });
    socket.destroy(error);
  });
  if (guards.answerTimeoutSeconds !== undefined) destroyWhenUnanswered(socket, guards.answerTimeoutSeconds);
  return socket;
}

/**
 * A socket that fails with `error` as soon as postgres.js listens to it: its error fails the statement waiting for
 * the connection, and its close (with an error) takes the connection through the pool's backoff.
 */
function failing(error: Error): Socket {
  const socket = new Socket();
  setImmediate(() => socket.destroy(error));
  return socket;
}

/**
 * A timer that starts with the first write after the last read and stops at the next read: when it runs out, that
 * was sent and never answered. The store fails each of its statements after answerTimeoutSeconds anyway
 * (answeredWithin), so a healthy connection closed then costs it nothing more (lock_timeout bounds a wait for a lock,
 * not a statement's run). The background prune, which nobody waits for, is not bounded so: one that runs longer
 * loses its connection, and PostgreSQL still finishes and commits it (it had the whole statement and its Sync).
 * Not Node's idle timeout on the socket, which a write starts again: postgres.js writes each new statement to a busy
 * connection behind the unanswered one (pipelined), so on an instance that kept serving (a statement every few
 * seconds per connection) a stalled connection was never closed.
 */
function destroyWhenUnanswered(socket: Socket, seconds: number): void {
  let unanswered: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    clearTimeout(unanswered);
    unanswered = undefined;
  };
  const stalled = () => {
    unanswered = undefined;
    // postgres.js took every listener off the socket (it closed it, or started TLS on it and writes elsewhere now).
    if (socket.destroyed || !socket.listeners('data').includes(heard)) return;
    socket.destroy();
    // postgres.js is told at once, not when the socket's 'close' comes a turn of the event loop later: a statement
    // the pool handed to the connection meanwhile was never sent, and on Bun its bytes stayed in postgres.js's write
    // buffer (3.4.9), where they held up the next connection's startup for good. Without an error, postgres.js fails
    // every statement it holds on the connection (CONNECTION_CLOSED); the one that waited was failed by the store
    // already, with ANSWER_TIMEOUT. postgres.js takes its listeners off as it hears this close, so the socket's own
    // 'close' that follows reaches nobody of its.
    socket.emit('close', false);
  };
  const write = socket.write;
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    // Unref'd as Node's socket timeout is: the open socket is what keeps a process running, not its guard.
    unanswered ??= setTimeout(stalled, seconds * 1000);
    unanswered.unref?.();
    return write.apply(this, args);
  } as Socket['write'];
  // A 'data' listener sets the socket flowing: postgres.js adds its own in the same turn, before anything can come.
  socket.on('data', heard);
  socket.once('close', heard);
}
