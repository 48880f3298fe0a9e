/**
 * A front server that serves an app under a longer path than the app is mounted at, as Next's `basePath` does and
 * as nginx's `location /shop/ { proxy_pass http://app/; proxy_set_header Host $host; }` does: a request for
 * `/shop/...` goes on to the app with `/shop` taken off, everything else is answered 404 by the front itself.
 * Nothing in the answer is rewritten (no Location, no cookie Path), so what the browser gets is what the app wrote.
 * With `trailingSlash`, a path without a final slash is first redirected (308) to the one with it, as Next's
 * `trailingSlash: true` does (not a file's: a path ending in an extension). Over real HTTP on loopback, streaming
 * both ways.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PrefixFront {
  /** The front's origin, e.g. http://127.0.0.1:41234: the app is at `${url}${prefix}/...`. */
  url: string;
  /** Paths of the requests the front refused, as the browser asked for them (none should be). */
  refused: string[];
  /** Cuts every connection through the front, as a network that drops does, and goes on taking new ones. */
  cut(): void;
  close(): Promise<void>;
}

export async function startPrefixFront(appUrl: string, prefix: string, { trailingSlash = false } = {}): Promise<PrefixFront> {
  const app = new URL(appUrl);
  const refused: string[] = [];
  const server = createServer((incoming, outgoing) => {
    const path = incoming.url ?? '/';
    if (!path.startsWith(`${prefix}/`)) {
      refused.push(path);
      outgoing.writeHead(404, { 'content-type': 'text/plain' }).end('not the app');
      return;
    }
    const query = path.indexOf('?') < 0 ? path.length : path.indexOf('?');
    const pathname = path.slice(0, query);
    if (trailingSlash && !pathname.endsWith('/') && !/\.\w+$/.test(pathname)) {
      outgoing.writeHead(308, { location: `${pathname}/${path.slice(query)}` }).end();
      return;
    }
    const forwarded = request(
      { hostname: app.hostname, port: app.port, method: incoming.method, path: path.slice(prefix.length), headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.headersSent || outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    cut: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
