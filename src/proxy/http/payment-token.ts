/**
 * The token that lets a browser read its payment: an HMAC-SHA256 of the payment id under a key derived from the
 * shop's secret, so that it verifies with no store at all. A proxy that restarted with an empty store, or
 * another instance, still recognises the token it handed out, and no table of tokens can leak. The derivation
 * label keeps this key apart from the one that signs requests to the service: a token is never a valid
 * signature of anything the service would accept. 256 bits, hex. The tokens of the last 10,000 payments asked
 * about are kept, so a poll compares two strings instead of computing an HMAC. Only a right token takes that
 * short way: a wrong one costs the same HMAC whether the payment exists or not, so the time an answer takes tells
 * a prober nothing about which payment ids exist.
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
    const token = await this.#make(paymentId);
    this.#keep(paymentId, token);
    return token;
  }

  /**
   * Constant-time check of a token the browser sent: at once when it is the token kept for the payment, else
   * after the HMAC that makes it (see maybe-async.ts). An unknown payment and a known one with a wrong token both
   * pay for the HMAC, and neither is kept, so probing cannot push real payments' tokens out either.
   */
  verify(paymentId: string, token: string): MaybePromise<boolean> {
    const kept = this.#issued.get(paymentId);
    if (kept !== undefined && timingSafeEqual(kept, token)) return true;
    return this.#make(paymentId).then((made) => {
      const valid = timingSafeEqual(made, token);
      if (valid) this.#keep(paymentId, made);
      return valid;
    });
  }

  #make(paymentId: string): Promise<string> {
    return this.#derivedKey().then((key) => signBody(key, paymentId, 'hex'));
  }

  #keep(paymentId: string, token: string): void {
    if (this.#issued.size >= KEPT_TOKENS) this.#issued.delete(this.#issued.keys().next().value!);
    this.#issued.set(paymentId, token);
  }

  #derivedKey(): Promise<string> {
    this.#key ??= signBody(this.secret, LABEL, 'hex');
    return this.#key;
  }
}
