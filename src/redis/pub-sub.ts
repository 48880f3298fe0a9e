/**
 * The event streams' side of Redis pub/sub. A connection that has subscribed serves nothing else, so the store
 * keeps one dedicated subscriber connection, opened on the first subscription (a proxy that never streams holds
 * one connection, not two). Many event streams in this process may follow the same payment: they share one
 * Redis subscription per channel, which is dropped when the last of them leaves, so that Redis does not keep
 * sending this process messages nobody here reads.
 *
 * Pub/sub is at most once: a message published while the subscriber is reconnecting is lost (ioredis subscribes
 * again by itself). The event streams tolerate that: each carries a version, and their pings ask the service.
 */
import type { Redis } from 'ioredis';

type Listener = (message: string) => void;

interface ChannelState {
  listeners: Set<Listener>;
  /** Settles when Redis has confirmed the subscription. */
  live: Promise<void>;
}

export class ChannelMultiplexer {
  readonly #channels = new Map<string, ChannelState>();
  readonly #openConnection: () => Redis;
  #connection: Redis | undefined;
  #closed = false;

  /** `openConnection` makes the dedicated subscriber connection, when it is first needed. */
  constructor(openConnection: () => Redis) {
    this.#openConnection = openConnection;
  }

  /** Resolves once Redis has confirmed the subscription; the returned function ends this listener's share of it. */
  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    if (this.#closed) throw new Error('the Redis store is closed');
    let state = this.#channels.get(channel);
    if (!state) {
      const connection = this.#connect();
      const created: ChannelState = { listeners: new Set(), live: connection.subscribe(channel).then(() => undefined) };
      // A refused subscription must not stay in the map, or every later subscriber would wait on the failure.
      created.live.catch(() => {
        if (this.#channels.get(channel) === created) this.#channels.delete(channel);
      });
      this.#channels.set(channel, (state = created));
    }
    const current = state;
    // Its own function, so that one listener subscribed twice is also counted (and removed) twice.
    const own: Listener = (message) => listener(message);
    current.listeners.add(own);
    try {
      await current.live;
    } catch (error) {
      current.listeners.delete(own);
      throw error;
    }
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      current.listeners.delete(own);
      if (current.listeners.size > 0 || this.#channels.get(channel) !== current) return;
      this.#channels.delete(channel);
      // Sent on the same connection as any SUBSCRIBE that follows, so Redis sees the two in this order.
      if (!this.#closed) await this.#connection?.unsubscribe(channel);
    };
  }

  /** Local listeners, for tests and diagnostics. */
  get listenerCount(): number {
    let count = 0;
    for (const state of this.#channels.values()) count += state.listeners.size;
    return count;
  }

  /** The subscriber connection, if one was opened (close() quits it). */
  get connection(): Redis | undefined {
    return this.#connection;
  }

  /** Drops every local listener; the caller quits the connection. */
  close(): void {
    this.#closed = true;
    this.#channels.clear();
  }

  #connect(): Redis {
    if (this.#connection) return this.#connection;
    const connection = this.#openConnection();
    connection.on('message', (channel: string, message: string) => this.#dispatch(channel, message));
    this.#connection = connection;
    return connection;
  }

  #dispatch(channel: string, message: string): void {
    const state = this.#channels.get(channel);
    if (!state) return;
    for (const listener of [...state.listeners]) {
      try {
        listener(message);
      } catch {
        // One broken listener must not keep the message from the others.
      }
    }
  }
}
