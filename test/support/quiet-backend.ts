/**
 * A shop's backend that went quiet (an ERP, a webhook endpoint): on a loopback port, it takes each request and never
 * answers, and notes when the caller gave up on one (its connection closed), so that a test can tell whether a
 * request a hook made was ended, and when.
 */
import { createServer } from 'node:http';

export interface QuietRequest {
  /** Epoch ms the request arrived. */
  at: number;
  /** Epoch ms its connection closed: the caller gave up. Undefined while it is still open. */
  closedAt?: number;
  /** Resolves with closedAt once it is set. */
  closed: Promise<number>;
}

export interface QuietBackend {
  url: string;
  requests: QuietRequest[];
  close(): Promise<void>;
}

export async function startQuietBackend(): Promise<QuietBackend> {
  const requests: QuietRequest[] = [];
  const server = createServer((req, res) => {
    let closed = (_at: number) => {};
    const request: QuietRequest = { at: Date.now(), closed: new Promise((resolve) => (closed = resolve)) };
    requests.push(request);
    req.resume();
    // Never answered, so the answer closes only when the connection does.
    res.on('close', () => closed((request.closedAt = Date.now())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
