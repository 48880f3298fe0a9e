/**
 * Starts node:http on a port for a Fetch handler and resolves once it listens, with the bound URL. Port 0 picks
 * a free port (what tests use). Only the listening and closing live here; the adapter is node-listener.ts. The
 * defaults keep slow clients (slowloris) from holding sockets: headers within 10 s, the request within 30 s,
 * and at most 1,000 connections; `maxConnectionsPerClient` keeps one client from holding all of them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { capConnectionsPerClient } from './connections-per-client.js';
import { toNodeListener, type FetchHandler, type NodeListenerOptions } from './node-listener.js';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions extends NodeListenerOptions {
  port?: number;
  host?: string;
  /** Time a client has to send its request headers. Default 10 s (slow clients cannot hold sockets open). */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request. Default 30 s; event streams are answers, not requests. */
  requestTimeoutMs?: number;
  /** Open connections at most; more are refused at once. Default 1,000. */
  maxConnections?: number;
  /**
   * Open connections from one client (an IPv4 address, an IPv6 /64) at most; more are closed at once. Default: no
   * cap of its own, since behind a web server every connection comes from that server's address. A server that
   * browsers reach directly needs one, or a single address can hold all `maxConnections`.
   */
  maxConnectionsPerClient?: number;
}

export async function serve(
  handler: FetchHandler,
  {
    port = 0,
    host = '127.0.0.1',
    headersTimeoutMs = 10_000,
    requestTimeoutMs = 30_000,
    maxConnections = 1_000,
    maxConnectionsPerClient,
    ...options
  }: ServeOptions = {},
): Promise<RunningServer> {
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // How often Node looks for requests past those limits (its default is 30 s).
      connectionsCheckingInterval: Math.min(1_000, headersTimeoutMs),
    },
    toNodeListener(handler, options),
  );
  server.maxConnections = maxConnections;
  if (maxConnectionsPerClient !== undefined) capConnectionsPerClient(server, maxConnectionsPerClient);
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
