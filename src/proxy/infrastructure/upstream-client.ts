/**
 * Signed calls to the payment service. Each body is serialised once and exactly those bytes are signed and
 * sent, with `Authorization: Bearer` and `Signature`. An answer that carries a Signature must verify, or it is
 * treated as an upstream failure and never as the truth. Creates are sent once and never retried blindly (a
 * retry could create a second payment); status lookups are reads and retry with jittered backoff until a deadline.
 */
import { signBody } from '../../shared/hmac.js';
import { verifiedUnderAny } from './rotated-secrets.js';
import {
  parseCreateAnswer,
  parseStatusAnswer,
  parseStatusList,
  type CreateAnswer,
  type CreatePaymentRequest,
  type Parsed,
  type StatusList,
} from '../../shared/provider-messages.js';
import type { ProviderPayment } from '../../shared/provider-payment.js';
import { sleep } from '../../shared/clock.js';
import { shownUrl } from '../../shared/shown-url.js';
import { backoffDelay } from './backoff.js';
import { answerDatetime } from './service-clock.js';
import { BodyTooLargeError, nestedTooDeep } from '../../shared/body.js';
import type { ResolvedOptions } from '../resolved-options.js';

export type UpstreamFailure = 'timeout' | 'network' | 'http' | 'refused' | 'malformed' | 'signature';

export class UpstreamError extends Error {
  /**
   * The integer `code` of a `{status: false, code}` refusal that came with a 2xx: the service refuses either way,
   * and then only the code says what the refusal is (404: no such payment).
   */
  refusalCode?: number;

  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    readonly httpStatus?: number,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'UpstreamError';
  }

  /** True when the service may well have acted on the request before the failure (a create may exist). */
  get outcomeUnknown(): boolean {
    return this.kind !== 'refused' && !(this.kind === 'http' && this.httpStatus! >= 400 && this.httpStatus! < 500);
  }

  /** Worth asking again (for reads): outages, timeouts and garbled answers, not refusals. */
  get retryable(): boolean {
    return this.outcomeUnknown || this.httpStatus === 429;
  }
}

export type StatusQuery = { paymentId: string } | { orderId: string } | { paymentIds: string[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** True for the service's `{status: false, ...}` failure body. */
function isRefusal(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { status?: unknown }).status === false;
}

/** The parsed answer, or an UpstreamError saying whether the service refused or answered garbage. */
function unwrap<T>(answer: unknown, parsed: Parsed<T>): T {
  if (parsed.ok) return parsed.value;
  if (!isRefusal(answer)) throw new UpstreamError('malformed', parsed.error);
  const error = new UpstreamError('refused', parsed.error);
  const code = (answer as { code?: unknown }).code;
  if (Number.isInteger(code)) error.refusalCode = code as number;
  throw error;
}

export class UpstreamClient {
  constructor(private readonly options: ResolvedOptions) {}

  /** One attempt, never repeated here: on an unknown outcome the caller looks the order up instead. */
  async createPayment(body: CreatePaymentRequest): Promise<CreateAnswer> {
    const answer = await this.#post('/api/v2/payments', body, this.options.timeouts.createMs);
    return unwrap(answer, parseCreateAnswer(answer));
  }

  /** A status lookup, retried with jittered backoff while it is worth it and the deadline allows. */
  status(query: StatusQuery): Promise<ProviderPayment[]> {
    return this.#lookUp(query, parseStatusAnswer);
  }

  /**
   * A status lookup of several payments (a reconcile batch), each read on its own: a payment the service describes
   * in a way the proxy cannot read is named in `unreadable`, and the rest of the batch still counts.
   */
  statusOfPayments(paymentIds: string[]): Promise<StatusList> {
    return this.#lookUp({ paymentIds }, parseStatusList);
  }

  async #lookUp<T>(query: StatusQuery, parse: (answer: unknown) => Parsed<T>): Promise<T> {
    const { clock, random, timeouts } = this.options;
    const deadline = clock.now() + timeouts.statusDeadlineMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const remaining = Math.max(1, Math.min(timeouts.statusMs, deadline - clock.now()));
        const answer = await this.#post('/api/v2/status', { merchantId: this.options.provider.merchantId, ...query }, remaining);
        return unwrap(answer, parse(answer));
      } catch (error) {
        if (!(error instanceof UpstreamError) || !error.retryable || attempt >= 8) throw error;
        const delay = backoffDelay(attempt, random);
        if (clock.now() + delay >= deadline) throw error;
        await sleep(clock, delay);
      }
    }
  }

  /** The service's answer about one payment (the status answer may be an object or an array). */
  async paymentStatus(paymentId: string): Promise<ProviderPayment> {
    const entry = (await this.status({ paymentId })).find((p) => p.id === paymentId);
    if (!entry) throw new UpstreamError('malformed', 'the status answer does not contain the payment asked for');
    return entry;
  }

  async #post(path: string, body: object, timeoutMs: number): Promise<unknown> {
    const { provider, clock } = this.options;
    const bytes = encoder.encode(JSON.stringify(body));
    const signature = await signBody(provider.secret, bytes, provider.signatureEncoding);
    const controller = new AbortController();
    let timedOut = false;
    const timer = clock.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let status: number;
    let text: Uint8Array;
    let answerSignature: string | null;
    const sentAt = clock.now();
    try {
      const answer = await this.options.transport(`${provider.baseUrl}${path}`, {
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${provider.token}`,
          signature,
        },
        body: bytes,
        signal: controller.signal,
      });
      status = answer.status;
      answerSignature = answer.header('signature');
      text = answer.bytes;
    } catch (error) {
      // The cause is kept for the log line (errors.ts describes it), so that "Illegal invocation" or a DNS
      // failure is seen, not guessed.
      if (error instanceof BodyTooLargeError) {
        throw new UpstreamError('malformed', `the answer to ${path} is larger than ${error.limit} bytes; is PAYIN_BASE_URL the service?`);
      }
      throw timedOut
        ? new UpstreamError('timeout', `the service did not answer ${path} within ${timeoutMs} ms`, undefined, error)
        : new UpstreamError('network', `could not reach the service for ${path}: ${causeText(error)}`, undefined, error);
    } finally {
      clock.clearTimeout(timer);
    }
    const success = status >= 200 && status <= 299;
    // Only a successful answer is ever believed, so only its signature decides anything. The service signs every
    // answer: a missing one is refused like a wrong one (unless verifyAnswers is off), and a present but wrong one
    // (an empty one included) always makes the answer a failure, never the truth.
    if (success && answerSignature === null && provider.verifyAnswers) {
      throw new UpstreamError(
        'signature',
        `the answer to ${path} has no Signature header (a service that never signs needs provider.verifyAnswers: false)`,
      );
    }
    if (
      success &&
      answerSignature !== null &&
      !(await verifiedUnderAny(provider.secrets, text, answerSignature, provider.signatureEncoding))
    ) {
      throw new UpstreamError(
        'signature',
        `the answer to ${path} carries a Signature that does not verify (wrong PAYIN_SECRET or signatureEncoding?)`,
      );
    }
    let json: unknown;
    try {
      // Signed or not, an answer nested thousands deep would overflow the stack of whatever walks it next (the
      // schema check, the search for an SBP link): it is refused as malformed, as such a callback is.
      json = nestedTooDeep(text) ? undefined : JSON.parse(decoder.decode(text));
    } catch {
      json = undefined;
    }
    if (!success) {
      throw new UpstreamError(
        isRefusal(json) && status < 500 ? 'refused' : 'http',
        `the service answered ${path} with HTTP ${status}${hint(path, status, provider.baseUrl)}`,
        status,
      );
    }
    if (json === undefined)
      throw new UpstreamError('malformed', `the answer to ${path} is not JSON, or nests deeper than any answer of the service`);
    this.options.serviceClock.heard(answerDatetime(json), sentAt, clock.now());
    return json;
  }
}

/** Said of a 401 or 403: the usual slip when going live, which no retry mends. */
const CREDENTIALS_REFUSED =
  ": it refused the merchant's credentials; check PAYIN_MERCHANT_ID, PAYIN_TOKEN and PAYIN_SECRET (or the provider option)";

/**
 * What a failed status says about the configuration, when it says anything: refused credentials, or a create
 * endpoint that is not there (404 or 405; a status lookup's 404 is an unknown payment). The latter is a base URL
 * that is not the service's, most often one that ends in /api/v2 already.
 */
function hint(path: string, status: number, baseUrl: string): string {
  if (status === 401 || status === 403) return CREDENTIALS_REFUSED;
  if (path === '/api/v2/payments' && (status === 404 || status === 405)) {
    return `: there is no such endpoint at ${shownBase(baseUrl)}: check PAYIN_BASE_URL (or provider.baseUrl), the service's address without /api/v2, which the proxy adds`;
  }
  return '';
}

/** The error's own words, for a log line: never a request body or a header, which may carry secrets. */
function causeText(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return error instanceof Error ? `${error.name}: ${error.message}${cause}` : String(error);
}

/** The base URL (resolved without a trailing slash) as a log line may show it (shown-url.ts): a bare origin without its slash. */
function shownBase(baseUrl: string): string {
  try {
    return shownUrl(baseUrl).replace(/\/$/, '');
  } catch {
    return 'PAYIN_BASE_URL';
  }
}
