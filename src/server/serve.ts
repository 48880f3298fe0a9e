/**
 * Starts node:http on a port for a Fetch handler and resolves once it listens, with the bound URL. Port 0 picks
 * a free port (what tests use). Only the listening and closing live here; the adapter is node-listener.ts. The
 * defaults keep slow clients (slowloris) from holding sockets: headers within 10 s, the request within 30 s,
 * and at most 1,000 connections.
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

export interface ServeOptions extends NodeListenerOptions {
  port?: number;
  host?: string;
  /** Time a client has to send its request headers. Default 10 s (slow clients cannot hold sockets open). */
  headersTimeoutMs?: number;
  /** Time a client has to send its whole request. Default 30 s; event streams are answers, not requests. */
  requestTimeoutMs?: number;
  /** Open connections at most; more are refused at once. Default 1,000. */
  maxConnections?: number;
}

export async function serve(
  handler: FetchHandler,
  {
    port = 0,
    host = '127.0.0.1',
    headersTimeoutMs = 10_000,
    requestTimeoutMs = 30_000,
    maxConnections = 1_000,
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
