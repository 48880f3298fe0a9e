/**
 * Reads server-sent events from a Response body for tests: blocks of `event`/`id`/`data` lines and comments,
 * up to a count or the end of the stream, never longer than a bound of real time.
 */

export interface ReadEvent {
  event?: string;
  id?: string;
  data?: string;
  comment?: string;
}

export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';
  done = false;

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** The next event or comment block; undefined once the stream ended. */
  async next(timeoutMs = 3_000): Promise<ReadEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return parseBlock(block);
      }
      if (this.done) return undefined;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error('no event within the time allowed');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no event within the time allowed')), remaining))),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.done = true;
      else this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next block that is an event (comments skipped). */
  async nextEvent(timeoutMs?: number): Promise<ReadEvent | undefined> {
    for (let i = 0; i < 100; i++) {
      const block = await this.next(timeoutMs);
      if (!block || block.event) return block;
    }
    throw new Error('only comments');
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

function parseBlock(block: string): ReadEvent {
  const out: ReadEvent = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) out.comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) out.event = line.slice(7);
    else if (line.startsWith('id: ')) out.id = line.slice(4);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length) out.data = data.join('\n');
  return out;
}
