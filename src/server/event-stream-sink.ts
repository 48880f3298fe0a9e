/**
 * Writes a server-sent-event answer straight to node's ServerResponse. Read as a web stream, every block of
 * every stream costs a queued chunk, a copy and a few promise turns in a reader loop before it reaches its
 * socket, and a thousand streams of one payment pay that a thousand times per change. Here the stream's writer
 * (proxy/sse.ts) is handed a sink instead, and its blocks are written to the response directly.
 *
 * The ends of streams wait for the next turn of the event loop and go together: a final state written to a
 * thousand streams reaches every one of them before the first answer ends. Ended at once, or with the end
 * sent in the same call as the last block, the clients were busy closing answers while the rest of the
 * final states waited to be read (in the fan-out bench, the reading process spent 90-210 ms in place of 15-90).
 */
import type { ServerResponse } from 'node:http';
import { attachEventSink } from '../proxy/sse.js';

/** Answers whose end waits for the next turn; one setImmediate serves them all. */
const ending: ServerResponse[] = [];

function endSoon(res: ServerResponse): void {
  if (ending.push(res) === 1) setImmediate(endAll);
}

function endAll(): void {
  for (const res of ending.splice(0)) if (!res.destroyed) res.end();
}

/**
 * Takes over `body` when it is an event stream of this package, writing it to `res` (whose head is written);
 * answers false, leaving body untouched, for any other stream.
 */
export function sendEventStream(body: ReadableStream<Uint8Array>, res: ServerResponse): boolean {
  const gone = attachEventSink(body, {
    write(bytes) {
      // Node holds the chunk until the end of this turn, then writes it with its framing in one call: a change
      // for a thousand streams goes out as a thousand writes in a row once all of them have it. Flushed one by
      // one as each stream got it (cork/uncork here), the bench's reading process spent more CPU (27-68 ms
      // against 17-27) for no earlier last arrival.
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
