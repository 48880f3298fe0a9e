/**
 * A cap on the connections one client holds open on a node:http server. The server's own cap (maxConnections)
 * counts every client together, so one address that opened that many and sent nothing (a slowloris: each is
 * dropped only at the headers timeout, then opened again) left no connection for anyone else. A client is what
 * the per-client limits call one (client-network.ts): an IPv4 address, or an IPv6 /64, whose owner picks addresses
 * in it at will. Behind a web server every connection comes from that server, so a cap per address is for a
 * server that browsers reach directly.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { clientNetwork } from '../shared/client-network.js';

/** Closes, at once, each new connection of a client that already holds `max`. */
export function capConnectionsPerClient(server: Server, max: number): void {
  // One entry per client with a connection open: never more than the server's open connections.
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const client = clientNetwork(socket.remoteAddress ?? '');
    const count = (open.get(client) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
