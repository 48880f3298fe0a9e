/**
 * Server-sent events over a plain ReadableStream, so that any Fetch runtime can serve them. Shared by the proxy,
 * whose event route writes them, and the node adapter, which may write them to its sockets itself: the one
 * place the format and the sink both follow, so neither reaches into the other. An event block is
 * formatted and encoded once (encodedEvent) for every stream it goes to; one writer per stream writes it, and
 * comment lines, and turns every write after the stream ended (the browser left, the payment became final) into
 * a no-op instead of an exception.
 *
 * A server adapter that can write to its socket itself (the node one) may take the stream's place with a sink
 * (attachEventSink): the writer then writes each block straight to it, with no web stream, reader loop or copy
 * per stream; for one change going to a thousand streams those were most of the proxy's work. Whichever way
 * the bytes go, a reader that falls more than MAX_UNREAD_BYTES behind is dropped rather than buffered for: every
 * event is a whole state, so the browser's EventSource reconnects and gets the current one.
 */

const encoder = new TextEncoder();

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  // Ask nginx and friends not to buffer the stream.
  'x-accel-buffering': 'no',
};

/** Bytes a stream may hold for a reader that does not take them; past this, the stream is dropped. */
export const MAX_UNREAD_BYTES = 64 * 1024;

/**
 * One event block; `data` may hold newlines, each becomes its own data line. Without an `id` the block has no id
 * line, and the browser's Last-Event-ID stays the one of the last event that had one.
 */
export function formatEvent(event: string, id: number | string | undefined, data: string): string {
  const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`);
  return `event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}${lines.join('\n')}\n\n`;
}

/** An event block as bytes, to be written to many streams. */
export function encodedEvent(event: string, id: number | string | undefined, data: string): Uint8Array {
  return encoder.encode(formatEvent(event, id, data));
}

/** Where an adapter has the writer put its bytes instead of the web stream. */
export interface EventSink {
  /** Sends the bytes on (the sink may keep a reference to them: they are never changed). */
  write(bytes: Uint8Array): void;
  /** Bytes written and not yet taken by the client. */
  readonly unread: number;
  /**
   * Ends the answer after what was written; `lastOnConnection` when the server is shutting down, so that the
   * connection goes too rather than wait, idle, for the keep-alive to lapse (which a server's close waits for).
   */
  end(lastOnConnection: boolean): void;
  /** Cuts the connection: the client is too far behind. */
  drop(): void;
}

/** The writer behind each stream it made, for attachEventSink. */
const writers = new WeakMap<ReadableStream<Uint8Array>, SseWriter>();

/**
 * Has `sink` take the place of `body`, when body is the untouched stream of an SseWriter; answers the function
 * the adapter calls once the client has gone (the writer then lets go, as when a reader cancels), or undefined
 * when body is any other stream and must be read as usual.
 */
export function attachEventSink(body: ReadableStream<Uint8Array>, sink: EventSink): (() => void) | undefined {
  return writers.get(body)?.attach(sink);
}

export class SseWriter {
  readonly stream: ReadableStream<Uint8Array>;
  readonly #onCancel: () => void;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Until the body is read or a sink attached: the blocks written so far, and their size. */
  #early: Uint8Array[] | undefined = [];
  #earlyBytes = 0;
  #sink: EventSink | undefined;
  #closed = false;
  #lastOnConnection = false;

  /** `onCancel` runs when the reader goes away (the response body was cancelled, or the sink's client left). */
  constructor(onCancel: () => void) {
    this.#onCancel = onCancel;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        // Called on the first read only (the high-water mark is 0): the body is being read as a stream.
        pull: () => this.#flushEarly(),
        cancel: () => this.#gone(),
      },
      // Sized in bytes, so that desiredSize tells how far the reader is behind.
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    writers.set(this.stream, this);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** An event block from encodedEvent, shared by every stream it is written to. */
  write(bytes: Uint8Array): void {
    this.#put(bytes);
  }

  comment(text: string): void {
    this.#put(encoder.encode(`: ${text}\n\n`));
  }

  /** Ends the stream; `lastOnConnection` as EventSink.end has it (a sink only: a web stream has no connection). */
  close(lastOnConnection = false): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#lastOnConnection = lastOnConnection;
    if (this.#sink) this.#sink.end(lastOnConnection);
    else if (!this.#early) this.#closeStream();
    // Still early: whoever takes the body gets the blocks and then the end.
  }

  /** See attachEventSink. */
  attach(sink: EventSink): (() => void) | undefined {
    if (!this.#early || this.stream.locked) return undefined;
    const early = this.#early;
    this.#early = undefined;
    this.#sink = sink;
    for (const bytes of early) sink.write(bytes);
    if (this.#closed) sink.end(this.#lastOnConnection);
    return () => this.#gone();
  }

  #put(bytes: Uint8Array): void {
    if (this.#closed) return;
    if (this.#sink) {
      this.#sink.write(bytes);
      if (this.#sink.unread > MAX_UNREAD_BYTES) this.#drop();
    } else if (this.#early) {
      this.#early.push(bytes);
      this.#earlyBytes += bytes.byteLength;
      if (this.#earlyBytes > MAX_UNREAD_BYTES) this.#drop();
    } else {
      this.#enqueue(bytes);
    }
  }

  #flushEarly(): void {
    const early = this.#early;
    if (!early) return;
    this.#early = undefined;
    for (const bytes of early) this.#enqueue(bytes);
    if (this.#closed) this.#closeStream();
  }

  #enqueue(bytes: Uint8Array): void {
    try {
      // Each stream gets its own copy: a reader may take (transfer) the chunk's buffer.
      this.#controller.enqueue(bytes.slice());
      if ((this.#controller.desiredSize ?? 0) < -MAX_UNREAD_BYTES) this.#drop();
    } catch {
      this.#closed = true;
    }
  }

  #closeStream(): void {
    try {
      this.#controller.close();
    } catch {
      // Already errored or cancelled by the reader.
    }
  }

  /** The reader is too far behind: cut it off and let go, as if it had left. */
  #drop(): void {
    if (this.#sink) this.#sink.drop();
    else {
      try {
        this.#controller.error(new Error('the event-stream reader fell too far behind'));
      } catch {
        // Already closed.
      }
    }
    this.#gone();
  }

  /** The reader left (or was dropped): the owner lets go, unless it had ended the stream itself. */
  #gone(): void {
    const wasClosed = this.#closed;
    this.#closed = true;
    this.#early = undefined;
    if (!wasClosed) this.#onCancel();
  }
}

/** The Last-Event-ID a reconnecting browser sends, as a version number (0 when absent or not a number). */
export function lastEventId(request: { readonly headers: { get(name: string): string | null } }): number {
  const raw = request.headers.get('last-event-id');
  const n = raw === null ? NaN : Number(raw.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}
