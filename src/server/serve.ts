/**
 * Starts node:http on a port for a Fetch handler and resolves once it listens, with the bound URL. Port 0 picks
 * a free port (what tests use). Only the listening and closing live here; the adapter is node-listener.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from './node-listener.js';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function serve(
  handler: FetchHandler,
  { port = 0, host = '127.0.0.1', ...options }: NodeListenerOptions & { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const server = createServer(toNodeListener(handler, options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    server,
    port: address.port,
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
