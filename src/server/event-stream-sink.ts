/**
 * Writes a server-sent-event answer straight to node's ServerResponse. Read as a web stream, every block of
 * every stream costs a queued chunk, a copy and a few promise turns in a reader loop before it reaches its
 * socket, and a thousand streams of one payment pay that a thousand times per change. Here the stream's writer
 * (shared/event-stream.ts) is handed a sink instead, and its blocks are written to the response directly.
 *
 * On HTTP/1.1 the answer is chunked, and ServerResponse frames every write anew (the length in hex, the block,
 * a line end: three more buffers), holds it until the end of the turn and sends it then: a change for a thousand
 * streams left only once every stream had it. A block is the same bytes for every stream it goes to (the event
 * route encodes each state once), so its chunk is framed once here and written to each stream's socket as it
 * is, at once: the first stream has the change while the loop still writes to the others (in the fan-out bench
 * the proxy spent 137-182 ms of CPU in place of 186-238, the first stream had it at 10-22 ms in place of
 * 29-51). ServerResponse still writes the head and the last chunk, which ends the answer.
 *
 * The ends of streams wait for the next turn of the event loop and go together: a final state written to a
 * thousand streams reaches every one of them before the first answer ends. Ended at once, or with the end
 * sent in the same call as the last block, the clients were busy closing answers while the rest of the
 * final states waited to be read (in the fan-out bench, the reading process spent 55-104 ms in place of 17-30).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { attachEventSink } from '../shared/event-stream.js';

/** Answers whose end waits for the next turn; one setImmediate serves them all. */
const ending: ServerResponse[] = [];
/** Of those, the ones whose connection goes with them (the server is shutting down). */
const last = new WeakSet<ServerResponse>();

function endSoon(res: ServerResponse, lastOnConnection: boolean): void {
  if (lastOnConnection) last.add(res);
  if (ending.push(res) === 1) setImmediate(endAll);
}

function endAll(): void {
  for (const res of ending.splice(0)) {
    if (res.destroyed) continue;
    // Taken now: node:http lets go of the answer's socket once it has finished.
    const socket = res.socket;
    res.end();
    if (last.has(res)) res.once('finish', () => socket?.end());
  }
}

/** Each block's chunk, framed once for every stream it is written to. */
const chunks = new WeakMap<Uint8Array, Buffer>();
const LINE_END = Buffer.from('\r\n', 'latin1');

function chunkOf(bytes: Uint8Array): Buffer {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`, 'latin1'), bytes, LINE_END]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/**
 * The socket of a chunked answer, its head sent, for blocks to be written to as chunks (call once); undefined when the
 * answer is not chunked (an HTTP/1.0 client), and its writes go through ServerResponse. A response has its
 * socket only while it is the one answering on it (a pipelined request's answer waits without).
 */
function chunkedSocket(res: ServerResponse): Socket | undefined {
  const socket = res.socket;
  if (!socket || !(res as ServerResponse & { chunkedEncoding?: boolean }).chunkedEncoding) return undefined;
  // The head is written (headersSent) but may still wait for the first write of a body: send it now.
  res.flushHeaders();
  return socket;
}

/**
 * Takes over `body` when it is an event stream of this package, writing it to `res` (whose head is written);
 * answers false, leaving body untouched, for any other stream.
 */
export function sendEventStream(body: ReadableStream<Uint8Array>, res: ServerResponse): boolean {
  let socket: Socket | undefined;
  const gone = attachEventSink(body, {
    write(bytes) {
      if (res.destroyed || bytes.byteLength === 0) return;
      socket ??= chunkedSocket(res);
      if (!socket) res.write(bytes);
      else if (!socket.destroyed) socket.write(chunkOf(bytes));
    },
    // ServerResponse counts its socket's buffer too, so this is what the client has not taken either way.
    get unread() {
      return res.writableLength;
    },
    end: (lastOnConnection) => endSoon(res, lastOnConnection),
    drop: () => res.destroy(),
  });
  if (!gone) return false;
  if (res.destroyed) gone();
  else res.once('close', gone);
  return true;
}
