/**
 * Publish/subscribe within one process, for the stores that serve one process (memory, SQLite). Listeners are
 * called asynchronously, like a real pub/sub, so that code written against these stores does not come to rely on
 * synchronous delivery, and one broken listener never keeps a message from the others.
 */

export class LocalPubSub {
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  publish(channel: string, message: string): void {
    const listeners = this.#channels.get(channel);
    if (!listeners) return;
    // One turn for all of them: a payment followed by a thousand event streams is one queued task, not a thousand.
    const now = [...listeners];
    queueMicrotask(() => {
      for (const listener of now) {
        try {
          listener(message);
        } catch {
          // One broken subscriber must not keep the message from the others.
        }
      }
    });
  }

  subscribe(channel: string, listener: (message: string) => void): () => Promise<void> {
    let listeners = this.#channels.get(channel);
    if (!listeners) this.#channels.set(channel, (listeners = new Set()));
    const own = (message: string) => listener(message);
    listeners.add(own);
    return async () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) this.#channels.delete(channel);
    };
  }

  /** Open subscriptions, for tests that check that streams let go of theirs. */
  get size(): number {
    let n = 0;
    for (const set of this.#channels.values()) n += set.size;
    return n;
  }
}
