/**
 * The token that lets a browser read its payment: an HMAC-SHA256 of the payment id under a key derived from the
 * shop's secret, so that it verifies with no store at all. A proxy that restarted with an empty store, or
 * another instance, still recognises the token it handed out, and no table of tokens can leak. The derivation
 * label keeps this key apart from the one that signs requests to the service: a token is never a valid
 * signature of anything the service would accept. 256 bits, hex. The tokens of the last 10,000 payments asked
 * about are kept, so a poll compares two strings instead of computing an HMAC. Only a right token takes that
 * short way: a wrong one costs the same HMAC whether the payment exists or not, so the time an answer takes tells
 * a prober nothing about which payment ids exist. During a rotation of the secret (rotated-secrets.ts) a token
 * is issued under the new secret and verifies under the new or the previous one; a wrong token then costs one HMAC
 * per secret, the same for every payment.
 */
import { signBody } from '../../shared/hmac.js';
import { timingSafeEqual } from '../../shared/bytes.js';
import type { MaybePromise } from '../maybe-async.js';

const LABEL = 'payin-checkout payment token v1';

/** Tokens kept for the payments asked about most recently: a checkout polls, and an HMAC per poll adds up. */
const KEPT_TOKENS = 10_000;

/** A token kept for a payment, and whether the secret that signs made it (only such a one is issued again). */
interface Kept {
  token: string;
  current: boolean;
}

export class PaymentTokens {
  #keys: Promise<string>[] | undefined;
  readonly #kept = new Map<string, Kept>();

  /** `secrets`: the one that signs first, then, during a rotation, the previous one. */
  constructor(private readonly secrets: readonly string[]) {}

  /** The token for `paymentId` under the secret that signs; the same for the same id and secret, on any instance, after any restart. */
  async issue(paymentId: string): Promise<string> {
    const kept = this.#kept.get(paymentId);
    if (kept?.current) return kept.token;
    const [token] = await this.#made(paymentId, 1);
    this.#keep(paymentId, { token: token!, current: true });
    return token!;
  }

  /**
   * Constant-time check of a token the browser sent: at once when it is the token kept for the payment, else
   * after the HMACs that make it under each secret (see maybe-async.ts). An unknown payment and a known one with a
   * wrong token both pay for every HMAC, and neither is kept, so probing cannot push real payments' tokens out
   * either. A token of the previous secret is kept too, so a checkout opened before a rotation polls cheaply.
   */
  verify(paymentId: string, token: string): MaybePromise<boolean> {
    const kept = this.#kept.get(paymentId);
    if (kept !== undefined && timingSafeEqual(kept.token, token)) return true;
    return this.#made(paymentId).then((made) => {
      const matches = made.map((candidate) => timingSafeEqual(candidate, token));
      const index = matches.indexOf(true);
      if (index >= 0) this.#keep(paymentId, { token: made[index]!, current: index === 0 });
      return index >= 0;
    });
  }

  /** The tokens of `paymentId` under the first `count` secrets (all by default), the one that signs first. */
  #made(paymentId: string, count = this.secrets.length): Promise<string[]> {
    const keys = this.#derivedKeys().slice(0, count);
    return Promise.all(keys.map((key) => key.then((k) => signBody(k, paymentId, 'hex'))));
  }

  #keep(paymentId: string, kept: Kept): void {
    // A payment's token replaced (the previous secret's by the new one's) takes no room: nothing else is dropped.
    if (!this.#kept.has(paymentId) && this.#kept.size >= KEPT_TOKENS) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(paymentId, kept);
  }

  #derivedKeys(): Promise<string>[] {
    this.#keys ??= this.secrets.map((secret) => signBody(secret, LABEL, 'hex'));
    return this.#keys;
  }
}
