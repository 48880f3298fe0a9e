/**
 * Writes a server-sent-event answer straight to node's ServerResponse. Read as a web stream, every block of
 * every stream costs a queued chunk, a copy and a few promise turns in a reader loop before it reaches its
 * socket; when one payment changes under a thousand open streams that is most of the time to the last one.
 * Here the stream's writer (proxy/sse.ts) is handed a sink instead, and each block is written to the response
 * as it comes.
 *
 * The ends of streams wait for the next turn of the event loop and go together: a final state written to a
 * thousand streams reaches every one of them before the first socket is closed, rather than each close (and
 * the client's handling of it) holding up the streams after it.
 */
import type { ServerResponse } from 'node:http';
import { attachEventSink } from '../proxy/sse.js';

/** Answers whose end waits for the next turn; one setImmediate serves them all. */
const ending: ServerResponse[] = [];

function endSoon(res: ServerResponse): void {
  if (ending.push(res) === 1) setImmediate(endAll);
}

function endAll(): void {
  for (const res of ending.splice(0)) res.end();
}

/**
 * Takes over `body` when it is an event stream of this package, writing it to `res` (whose head is written);
 * answers false, leaving body untouched, for any other stream.
 */
export function sendEventStream(body: ReadableStream<Uint8Array>, res: ServerResponse): boolean {
  const gone = attachEventSink(body, {
    write(bytes) {
      // Node holds the chunk until the end of this turn and then writes it with its framing in one call; so a
      // change written to a thousand streams goes out as a thousand writes in a row after the streams' own work,
      // and a client kept busy by them is not woken again for each.
      if (!res.destroyed) res.write(bytes);
    },
    get unread() {
      return res.writableLength;
    },
    end: () => endSoon(res),
    drop: () => res.destroy(),
  });
  if (!gone) return false;
  if (res.destroyed) gone();
  else res.once('close', gone);
  return true;
}
