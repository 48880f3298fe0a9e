/**
 * The event streams the server holds open: counted for `/metrics` while they last, and ended together on
 * shutdown. A stream never ends on its own, so a graceful stop that waited for them would never stop; ending them
 * is harmless, because the browser's EventSource reconnects (with Last-Event-ID) to the next process.
 */
import type { Metrics } from './metrics.js';

export class EventStreams {
  readonly #open = new Set<() => void>();

  constructor(private readonly metrics: Metrics) {}

  /** The stream's answer, the same bytes, counted as open until it ends either way. */
  follow(response: Response): Response {
    if (!response.body) return response;
    const reader = response.body.getReader();
    let finished = false;
    let end = () => {};
    const finish = () => {
      if (finished) return;
      finished = true;
      this.#open.delete(end);
      this.metrics.streamClosed();
    };
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        end = () => {
          finish();
          void reader.cancel('the server is shutting down').catch(() => {});
          controller.close();
        };
        this.#open.add(end);
        this.metrics.streamOpened();
      },
      async pull(controller) {
        const { done, value } = await reader.read();
        if (finished) return;
        if (done) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    });
    return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Ends every open stream (their answers complete normally, so the browser reconnects). */
  endAll(): number {
    const ends = [...this.#open];
    for (const end of ends) end();
    return ends.length;
  }
}
