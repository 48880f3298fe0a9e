/**
 * A TCP relay on loopback between one client and its server (an instance and its store), which a test cuts and mends:
 * the network between one host and the database failing while the database itself, and every other host, goes on.
 * Cut, every connection through it is closed and each new one is closed as soon as it opens, unanswered (what a
 * balancer or a published port in front of a database does when it cannot reach it); cut silently, nothing more
 * passes either way and nothing is closed (packets dropped by a firewall, a host gone in a failover). Mended, new
 * connections pass again, but those cut silently stay as they are (a NAT entry that died with the cut): only the
 * client giving up on one, and closing it, ends it. Pointed at another server (a failover behind one address), new
 * connections go there while those open stay where they went.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface CuttableRelay {
  /** The relay's port on 127.0.0.1, to put in the client's URL in place of the server's. */
  port: number;
  /** Resets every connection and each new one; `silent`, holds them all unanswered instead (packets dropped). */
  cut(how?: { silent?: boolean }): void;
  /**
   * Connections opened to it while cut (each reset at once, or, cut silently, held unanswered for good): how hard the
   * client knocks meanwhile.
   */
  readonly refused: number;
  /** Connections passed through that the client has not closed yet, stalled ones included. */
  readonly open: number;
  /** Connections passed through and closed since. */
  readonly closed: number;
  mend(): void;
  /** Sends new connections to the server at `port` from now on; those open stay where they went. */
  switchTo(port: number): void;
  close(): Promise<void>;
}

export async function cuttableRelay(target: number): Promise<CuttableRelay> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let cutOff = false;
  let silent = false;
  const held = new Set<Socket>();
  let refused = 0;
  let closed = 0;
  const server = createServer((client) => {
    client.on('error', () => {});
    if (cutOff) {
      refused++;
      if (silent) held.add(client);
      else client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      closed++;
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    get refused() {
      return refused;
    },
    get open() {
      return pairs.size;
    },
    get closed() {
      return closed;
    },
    cut: (how = {}) => {
      cutOff = true;
      silent = how.silent === true;
      if (!silent) for (const socket of sockets) socket.destroy();
      // Silent: nothing more goes either way, and nobody is told. What the client sends is read and dropped rather
      // than left unread, so that the client closing the connection is seen (and counted in `open`).
      else
        for (const [client, upstream] of pairs) {
          client.unpipe(upstream);
          upstream.unpipe(client);
          upstream.pause();
          client.on('data', () => {});
          client.resume();
        }
    },
    mend: () => {
      cutOff = false;
    },
    switchTo: (next) => {
      target = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...sockets, ...held]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
