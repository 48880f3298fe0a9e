/**
 * The event streams a proxy holds open, so that close() can end them. A stream never ends on its own before its
 * payment does (it lives up to `streamMaxMs`, 30 minutes), so a shop's graceful shutdown, which closes its server
 * and waits for every answer to end, would wait for the last checkout page to go away, while each stream's ping
 * kept asking the service and the store the shop was about to close. Ending them is harmless: the browser's
 * EventSource reconnects, with its Last-Event-ID, to the next process.
 */

export class OpenStreams {
  readonly #ends = new Set<() => void>();
  #closed = false;

  /** close() has run: a stream opened now gets its current state and ends. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Keeps `end` until the stream ends; answers the function that lets go of it. */
  hold(end: () => void): () => void {
    this.#ends.add(end);
    return () => void this.#ends.delete(end);
  }

  /** Ends every open stream, and every later one once it has sent its current state. */
  endAll(): void {
    this.#closed = true;
    for (const end of [...this.#ends]) end();
  }
}
