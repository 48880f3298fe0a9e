/**
 * The logger as the proxy uses it: a line that repeats word for word (same level, message and fields) within a
 * minute is written once, and the number of its repeats follows in one line at the end of that minute. Without it,
 * a stranger could have the proxy write a line per request (forged callbacks at thousands a second, each "refused a
 * callback whose Signature does not verify"), filling the operator's disk and burying the one line that mattered;
 * and an outage wrote the same line for every poll of every open checkout. A genuine failure still has its own line
 * at once: its fields name its payment or order, so it is not a repeat of another's.
 *
 * The count is written by a timer on the proxy's clock (never keeping a process alive), by the line's next repeat
 * once the window is over where that timer never ran, or by `flush()` when the proxy closes. A flood that lasts keeps its key for the next minute too, so it costs one line a minute; a key
 * quiet for a whole minute is forgotten. At most MAX_KEYS lines are watched at once; past that, lines pass as they
 * are (nothing is ever dropped unsaid).
 */
import type { Clock } from '../../shared/clock.js';
import type { ProxyLogger } from '../logger.js';

export const REPEAT_WINDOW_MS = 60_000;
const MAX_KEYS = 512;

type Level = keyof ProxyLogger;

interface Watched {
  /** Writes the line: the first time with 0, at the end of a window with the number of repeats folded into it. */
  write: (repeats: number) => void;
  repeats: number;
  /** When the window began (the clock's epoch ms). */
  since: number;
  timer: unknown;
}

/**
 * The first-then-count rule for lines that repeat under a key of the caller's choosing: the standalone server folds
 * its refusals of order tokens by their reason, whatever order id each names (folding them word for word would let
 * a stranger write a line per made-up order id).
 */
export class RepeatFolder {
  readonly #watched = new Map<string, Watched>();

  constructor(
    private readonly clock: Clock,
    readonly windowMs = REPEAT_WINDOW_MS,
  ) {}

  /** The window in whole seconds, as the lines that count repeats say it ("in the last 60 s"). */
  get windowSeconds(): number {
    return Math.round(this.windowMs / 1000);
  }

  /** Calls write(0) now, unless `key` was said within the window: then the repeat is counted for write(count) later. */
  say(key: string, write: (repeats: number) => void): void {
    let entry = this.#watched.get(key);
    // A window whose timer never ran (a worker's runtime cancels the timers of a request that has been answered) ends
    // here: otherwise the line would be counted, and never written, for as long as the process lives.
    if (entry && this.clock.now() - entry.since >= this.windowMs) {
      this.clock.clearTimeout(entry.timer);
      this.#endOfWindow(key, entry);
      entry = this.#watched.get(key);
    }
    if (entry) {
      entry.repeats++;
      return;
    }
    write(0);
    if (this.#watched.size >= MAX_KEYS) return;
    const fresh: Watched = { write, repeats: 0, since: this.clock.now(), timer: undefined };
    fresh.timer = this.clock.setTimeout(() => this.#endOfWindow(key, fresh), this.windowMs);
    this.#watched.set(key, fresh);
  }

  /** Writes the counts not yet written and stops the timers. */
  flush(): void {
    for (const entry of this.#watched.values()) {
      this.clock.clearTimeout(entry.timer);
      if (entry.repeats > 0) entry.write(entry.repeats);
    }
    this.#watched.clear();
  }

  #endOfWindow(key: string, entry: Watched): void {
    if (entry.repeats === 0) {
      this.#watched.delete(key);
      return;
    }
    const repeats = entry.repeats;
    entry.repeats = 0;
    entry.since = this.clock.now();
    entry.write(repeats);
    entry.timer = this.clock.setTimeout(() => this.#endOfWindow(key, entry), this.windowMs);
  }
}

export interface FoldingLogger extends ProxyLogger {
  /** Writes the counts not yet written and stops the timers (the proxy's close()). */
  flush(): void;
}

export function foldRepeats(logger: ProxyLogger, clock: Clock, windowMs = REPEAT_WINDOW_MS): FoldingLogger {
  const folder = new RepeatFolder(clock, windowMs);
  const inLastSeconds = folder.windowSeconds;
  const line =
    (level: Level) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const key = keyOf(level, message, fields);
      if (key === undefined) logger[level](message, fields);
      else folder.say(key, (repeats) => logger[level](message, repeats ? { ...fields, repeats, inLastSeconds } : fields));
    };
  return { info: line('info'), warn: line('warn'), error: line('error'), flush: () => folder.flush() };
}

/** The line's identity, or undefined for fields that cannot be written as JSON (such a line is never folded). */
function keyOf(level: Level, message: string, fields?: Record<string, unknown>): string | undefined {
  try {
    return `${level}\u0000${message}\u0000${fields === undefined ? '' : JSON.stringify(fields)}`;
  } catch {
    return undefined;
  }
}
