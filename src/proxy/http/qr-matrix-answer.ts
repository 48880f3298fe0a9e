/**
 * The QR's module matrix in every answer that shows a view with `qr` (create, status, each event), so that the
 * shopper's phone draws the code instead of encoding it: the encoder stays off the widget's first screen (the
 * script-tag core does not carry it). Encoded with the qrcode package's own encoder at error correction level M,
 * in the form of shared/qr-modules.ts. Status polls repeat the same text every few seconds, so each text is
 * encoded once: a small map keeps the last texts' matrices, bounded, the least recently used out first. A text too
 * long for any QR gets `null` for its matrix: the widget then shows the requisites, as it always did, and does not
 * fetch its own encoder for a text that no encoder can draw (an absent matrix, from a server that does not send
 * one, is what makes it fetch the encoder). The text is the
 * service's (a hosted page, an SBP link, requisites), so its length is checked before the encoder sees it: the
 * encoder analyses the whole text before it finds it too long (8 s of event loop for a mixed 1 MB text).
 */

/// <reference path="./qrcode-core.d.ts" />
// (Referenced so that every compilation of a module that imports this one has the types of qrcode's encoder.)
// The encoder's module, not the package's entry: on Node that entry also loads the PNG renderer (pngjs) and `fs`.
import { create } from 'qrcode/lib/core/qrcode.js';
import { packQrModules, type QrMatrix, type QrModules } from '../../shared/qr-modules.js';

/** The module matrix of `text` at level M; throws when no QR can hold it. */
export function qrMatrix(text: string): QrMatrix {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  return { size: modules.size, isDark: (row, col) => modules.get(row, col) === 1 };
}

/** The most characters a QR holds at level M: 5,596 digits (version 40), the densest mode; any other costs more. */
const MAX_QR_CHARS = 5_596;

/** Encodes QR texts, each once while it stays among the `limit` most recently asked for. */
export class QrMatrixCache {
  readonly #limit: number;
  /** Each text's matrix and its JSON, or null when the text is too long for a QR. */
  readonly #entries = new Map<string, { modules: QrModules; json: string } | null>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The matrix of `text` (and its JSON text), or undefined when no QR can hold it. */
  get(text: string): { modules: QrModules; json: string } | undefined {
    if (text.length > MAX_QR_CHARS) return undefined; // no QR holds it: neither encoded nor kept
    let entry = this.#entries.get(text);
    if (entry === undefined) {
      entry = encoded(text);
      if (this.#entries.size >= this.#limit) this.#entries.delete(this.#entries.keys().next().value!);
    } else {
      this.#entries.delete(text); // moved to the end: the most recently asked for
    }
    this.#entries.set(text, entry);
    return entry ?? undefined;
  }
}

function encoded(text: string): { modules: QrModules; json: string } | null {
  try {
    const modules = packQrModules(qrMatrix(text));
    return { modules, json: JSON.stringify(modules) };
  } catch {
    // Too long for a QR: the widget shows the requisites. No answer ever fails for a matrix.
    return null;
  }
}

/** One per process: the texts are the payments' own, the same for every proxy in it. */
const shared = new QrMatrixCache(256);

/** `view` with the matrix of its `qr`, or with `null` when no QR can hold it; a view without `qr` as it is. */
export function withQrMatrix<V extends { qr?: string }>(view: V, cache = shared): V & { qrMatrix?: QrModules | null } {
  if (view.qr === undefined) return view;
  return { ...view, qrMatrix: cache.get(view.qr)?.modules ?? null };
}

/**
 * The JSON text of the matrix of `qr` (`null` when no QR can hold it), for an answer written as text
 * (payment-answer.ts's paymentAnswerJson); undefined without `qr`.
 */
export function qrMatrixJson(qr: string | undefined, cache = shared): string | undefined {
  return qr === undefined ? undefined : (cache.get(qr)?.json ?? 'null');
}
