/**
 * The token that lets a browser read its payment: an HMAC-SHA256 of the payment id under a key derived from the
 * shop's secret, so that it verifies with no store at all. A proxy that restarted with an empty store, or
 * another instance, still recognises the token it handed out, and no table of tokens can leak. The derivation
 * label keeps this key apart from the one that signs requests to the service: a token is never a valid
 * signature of anything the service would accept. 256 bits, hex. The tokens of the last 10,000 payments asked
 * about are kept, so a poll compares two strings instead of computing an HMAC.
 */
import { signBody } from '../../shared/hmac.js';
import { timingSafeEqual } from '../../shared/bytes.js';
import type { MaybePromise } from '../maybe-async.js';

const LABEL = 'payin-checkout payment token v1';

/** Tokens kept for the payments asked about most recently: a checkout polls, and an HMAC per poll adds up. */
const KEPT_TOKENS = 10_000;

export class PaymentTokens {
  #key: Promise<string> | undefined;
  readonly #issued = new Map<string, string>();

  constructor(private readonly secret: string) {}

  /** The token for `paymentId`; the same for the same id and secret, on any instance, after any restart. */
  async issue(paymentId: string): Promise<string> {
    const kept = this.#issued.get(paymentId);
    if (kept) return kept;
    const token = await signBody(await this.#derivedKey(), paymentId, 'hex');
    if (this.#issued.size >= KEPT_TOKENS) this.#issued.delete(this.#issued.keys().next().value!);
    this.#issued.set(paymentId, token);
    return token;
  }

  /**
   * Constant-time check of a token the browser sent: at once for a token kept for the payment, else after the
   * HMAC that makes it (see maybe-async.ts).
   */
  verify(paymentId: string, token: string): MaybePromise<boolean> {
    return this.verifyKept(paymentId, token) ?? this.issue(paymentId).then((issued) => timingSafeEqual(issued, token));
  }

  /** The check of a token kept for the payment, with no HMAC; undefined when none is kept (verify() makes it). */
  verifyKept(paymentId: string, token: string): boolean | undefined {
    const kept = this.#issued.get(paymentId);
    return kept === undefined ? undefined : timingSafeEqual(kept, token);
  }

  #derivedKey(): Promise<string> {
    this.#key ??= signBody(this.secret, LABEL, 'hex');
    return this.#key;
  }
}
