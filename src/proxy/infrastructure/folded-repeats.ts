/**
 * The logger as the proxy uses it: a line that repeats word for word (same level, message and fields) within a
 * minute is written once, and the number of its repeats follows in one line at the end of that minute. Without it,
 * a stranger could have the proxy write a line per request (forged callbacks at thousands a second, each "refused a
 * callback whose Signature does not verify"), filling the operator's disk and burying the one line that mattered;
 * and an outage wrote the same line for every poll of every open checkout. A genuine failure still has its own line
 * at once: its fields name its payment or order, so it is not a repeat of another's.
 *
 * The count is written by a timer on the proxy's clock (never keeping a process alive) or by `flush()` when the
 * proxy closes. A flood that lasts keeps its key for the next minute too, so it costs one line a minute; a key
 * quiet for a whole minute is forgotten. At most MAX_KEYS lines are watched at once; past that, lines pass as they
 * are (nothing is ever dropped unsaid).
 */
import type { Clock } from '../../shared/clock.js';
import type { ProxyLogger } from '../logger.js';

export const REPEAT_WINDOW_MS = 60_000;
const MAX_KEYS = 512;

type Level = keyof ProxyLogger;

interface Watched {
  level: Level;
  message: string;
  fields?: Record<string, unknown>;
  repeats: number;
  timer: unknown;
}

export interface FoldingLogger extends ProxyLogger {
  /** Writes the counts not yet written and stops the timers (the proxy's close()). */
  flush(): void;
}

export function foldRepeats(logger: ProxyLogger, clock: Clock, windowMs = REPEAT_WINDOW_MS): FoldingLogger {
  const watched = new Map<string, Watched>();

  const writeCount = (entry: Watched) => {
    const fields = { ...entry.fields, repeats: entry.repeats, inLastSeconds: Math.round(windowMs / 1000) };
    entry.repeats = 0;
    logger[entry.level](entry.message, fields);
  };

  const endOfWindow = (key: string, entry: Watched) => {
    if (entry.repeats === 0) {
      watched.delete(key);
      return;
    }
    writeCount(entry);
    entry.timer = clock.setTimeout(() => endOfWindow(key, entry), windowMs);
  };

  const line =
    (level: Level) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const key = keyOf(level, message, fields);
      const entry = key === undefined ? undefined : watched.get(key);
      if (entry) {
        entry.repeats++;
        return;
      }
      logger[level](message, fields);
      if (key === undefined || watched.size >= MAX_KEYS) return;
      const fresh: Watched = { level, message, ...(fields ? { fields } : {}), repeats: 0, timer: undefined };
      fresh.timer = clock.setTimeout(() => endOfWindow(key, fresh), windowMs);
      watched.set(key, fresh);
    };

  return {
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    flush() {
      for (const entry of watched.values()) {
        clock.clearTimeout(entry.timer);
        if (entry.repeats > 0) writeCount(entry);
      }
      watched.clear();
    },
  };
}

/** The line's identity, or undefined for fields that cannot be written as JSON (such a line is never folded). */
function keyOf(level: Level, message: string, fields?: Record<string, unknown>): string | undefined {
  try {
    return `${level}\u0000${message}\u0000${fields === undefined ? '' : JSON.stringify(fields)}`;
  } catch {
    return undefined;
  }
}
