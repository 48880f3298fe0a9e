/**
 * Server-sent events over a plain ReadableStream, so that any Fetch runtime can serve them. An event block is
 * formatted and encoded once (encodedEvent) for every stream it goes to; one writer per stream writes it, and
 * comment lines, and turns every write after the stream ended (the browser left, the payment became final) into
 * a no-op instead of an exception.
 */

const encoder = new TextEncoder();

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  // Ask nginx and friends not to buffer the stream.
  'x-accel-buffering': 'no',
};

/** One event block; `data` may hold newlines, each becomes its own data line. */
export function formatEvent(event: string, id: number | string, data: string): string {
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`);
  return `event: ${event}\nid: ${id}\n${lines.join('\n')}\n\n`;
}

/** An event block as bytes, to be written to many streams. */
export function encodedEvent(event: string, id: number | string, data: string): Uint8Array {
  return encoder.encode(formatEvent(event, id, data));
}

export class SseWriter {
  readonly stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;

  /** `onCancel` runs when the reader goes away (the response body was cancelled). */
  constructor(onCancel: () => void) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#closed = true;
        onCancel();
      },
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** An event block from encodedEvent; each stream gets its own copy, since a reader may take the chunk's buffer. */
  write(bytes: Uint8Array): void {
    this.#enqueue(bytes.slice());
  }

  comment(text: string): void {
    this.#enqueue(encoder.encode(`: ${text}\n\n`));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller.close();
    } catch {
      // Already errored or cancelled by the reader.
    }
  }

  #enqueue(bytes: Uint8Array): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(bytes);
    } catch {
      this.#closed = true;
    }
  }
}

/** The Last-Event-ID a reconnecting browser sends, as a version number (0 when absent or not a number). */
export function lastEventId(request: { readonly headers: { get(name: string): string | null } }): number {
  const raw = request.headers.get('last-event-id');
  const n = raw === null ? NaN : Number(raw.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
