/**
 * The payloads of the store's NOTIFY, and their reading on the listening side. PostgreSQL refuses a payload of 8000
 * bytes or more ("payload string too long"), but a payment's message can be longer (a long QR text or hosted-page
 * address, said twice): such a message goes as pieces, all NOTIFYed in one transaction. PostgreSQL hands a
 * transaction's notifications to every listener together and in the order they were sent (committers queue them
 * one transaction at a time), so a listener gets a message's pieces one after another and joins them.
 *
 * A payload is `[channel, message]`, or `[channel, piece, index, count]` for a piece. Any text may be cut anywhere:
 * JSON carries half a surrogate pair as an escape, and joining the pieces gives the text back as it was.
 */

/** Under PostgreSQL's limit with room to spare. */
const MAX_PAYLOAD_BYTES = 7_900;
/** UTF-16 units per piece: at most 6 bytes each once in JSON (an escaped control character), 6,000 bytes in all. */
const PIECE_UNITS = 1_000;
/** A message of up to a million units (the largest payment view is far smaller); more is refused, never buffered. */
const MAX_PIECES = 1_000;

const encoder = new TextEncoder();

/** The payloads to NOTIFY, in this order and in one transaction, for `message` on `channel`. */
export function notifyPayloads(channel: string, message: string): string[] {
  const whole = JSON.stringify([channel, message]);
  if (encoder.encode(whole).length <= MAX_PAYLOAD_BYTES) return [whole];
  const count = Math.ceil(message.length / PIECE_UNITS);
  if (count > MAX_PIECES) throw new RangeError(`a message of ${message.length} characters is too long to publish`);
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify([channel, message.slice(i * PIECE_UNITS, (i + 1) * PIECE_UNITS), i, count]),
  );
}

/** Reads payloads as they arrive, joining pieces; one message at a time can be under way, as they arrive together. */
export class PayloadReader {
  #partial: { channel: string; count: number; pieces: string[] } | undefined;

  /** The channel and message a payload completes, or undefined (a piece of a message still under way, or not ours). */
  read(payload: string): [channel: string, message: string] | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return undefined; // someone else NOTIFYing on the channel
    }
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') return undefined;
    const [channel, text, index, count] = parsed as [string, string, unknown, unknown];
    if (parsed.length === 2) return [channel, text];
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_PIECES) return undefined;
    if (index === 0) this.#partial = { channel, count: count as number, pieces: [] };
    const partial = this.#partial;
    if (!partial || partial.channel !== channel || partial.count !== count || index !== partial.pieces.length) {
      this.#partial = undefined; // a piece out of its place: the message is lost, as pub/sub may lose one
      return undefined;
    }
    partial.pieces.push(text);
    if (partial.pieces.length < partial.count) return undefined;
    this.#partial = undefined;
    return [channel, partial.pieces.join('')];
  }
}
