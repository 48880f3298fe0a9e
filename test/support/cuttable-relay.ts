/**
 * A TCP relay on loopback between one client and its server (an instance and its store), which a test cuts and mends:
 * the network between one host and the database failing while the database itself, and every other host, goes on.
 * Cut, every connection through it is reset and each new one is reset as soon as it opens, so the client learns at once
 * (a refused or dropped connection, not a silent one that waits on its timeouts).
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface CuttableRelay {
  /** The relay's port on 127.0.0.1, to put in the client's URL in place of the server's. */
  port: number;
  cut(): void;
  /** Connections opened to it while cut (each reset at once): how hard the client knocks meanwhile. */
  readonly refused: number;
  mend(): void;
  close(): Promise<void>;
}

export async function cuttableRelay(target: number): Promise<CuttableRelay> {
  const sockets = new Set<Socket>();
  let cutOff = false;
  let refused = 0;
  const server = createServer((client) => {
    client.on('error', () => {});
    if (cutOff) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
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
    cut: () => {
      cutOff = true;
      for (const socket of sockets) socket.destroy();
    },
    mend: () => {
      cutOff = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
