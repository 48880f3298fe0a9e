/**
 * The token that lets a browser read its payment: an HMAC-SHA256 of the payment id under a key derived from the
 * shop's secret, so that it verifies with no store at all. A proxy that restarted with an empty store, or
 * another instance, still recognises the token it handed out, and no table of tokens can leak. The derivation
 * label keeps this key apart from the one that signs requests to the service: a token is never a valid
 * signature of anything the service would accept. 256 bits, hex.
 */
import { signBody } from '../shared/hmac.js';
import { timingSafeEqual } from '../shared/bytes.js';

const LABEL = 'payin-checkout payment token v1';

export class PaymentTokens {
  #key: Promise<string> | undefined;

  constructor(private readonly secret: string) {}

  /** The token for `paymentId`; the same for the same id and secret, on any instance, after any restart. */
  async issue(paymentId: string): Promise<string> {
    return signBody(await this.#derivedKey(), paymentId, 'hex');
  }

  /** Constant-time check of a token the browser sent. */
  async verify(paymentId: string, token: string): Promise<boolean> {
    return timingSafeEqual(await this.issue(paymentId), token);
  }

  #derivedKey(): Promise<string> {
    this.#key ??= signBody(this.secret, LABEL, 'hex');
    return this.#key;
  }
}
