/**
 * POSTs to the shop's backend signed in the Standard Webhooks format (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` under the `whsec_` secret): the same
 * signature for the webhooks it receives and the pricing calls it answers, so the shop verifies both with one
 * function (docs/standalone.md shows it in PHP, Python and Ruby). Every call has a time limit; a non-2xx answer is an error.
 * A user and password in the URL (a backend behind HTTP basic auth) are sent as its Authorization header.
 */
import { Webhook } from 'standardwebhooks';
import { bytesToBase64 } from '../shared/bytes.js';
import { shownUrl } from '../shared/shown-url.js';

export class ShopCallError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ShopCallError';
  }
}

export interface SignedPoster {
  /**
   * Sends `body` as JSON with the id given; resolves with the answer, whatever its status. The call ends at its own
   * time limit or when `signal` aborts (the proxy's deadline for a hook), whichever comes first.
   */
  post(url: string, id: string, body: unknown, signal?: AbortSignal): Promise<Response>;
}

/**
 * `secrets` is PAYIN_WEBHOOK_SECRET: one `whsec_` secret, or several, space-separated, while it is rotated. Each call
 * then carries one signature per secret, space-separated as Standard Webhooks lists them, so a backend that holds
 * either the old or the new secret verifies it, and the two sides need not change at the same moment.
 */
export function createSignedPoster(secrets: string, options: { timeoutMs: number; now: () => number; fetch?: typeof fetch }): SignedPoster {
  const webhooks = secrets
    .trim()
    .split(/\s+/)
    .map((secret) => new Webhook(secret));
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return {
    async post(url, id, body, signal) {
      const text = JSON.stringify(body);
      const at = new Date(options.now());
      const { address, authorization } = basicAuthOf(url);
      const headers = {
        ...(authorization ? { authorization } : {}),
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': webhooks.map((webhook) => webhook.sign(id, at, text)).join(' '),
      };
      // The hook's deadline may be the shorter (a program that embeds the server and sets timeouts.hookMs): past it
      // the proxy has given up on this call and may retry beside it, so the request must not stay open any longer.
      // AbortSignal.any is in every runtime the server runs on (Node 20.3+, Bun, Deno).
      const limit = AbortSignal.timeout(options.timeoutMs);
      try {
        // Never followed: fetch would send a 301 or 302 on as a GET without the body, and a page answering that GET
        // with 200 would count as the shop having taken a webhook it never saw.
        return await fetchImpl(address, {
          method: 'POST',
          headers,
          body: text,
          redirect: 'manual',
          signal: signal ? AbortSignal.any([signal, limit]) : limit,
        });
      } catch (error) {
        const origin = new URL(url).origin;
        if (signal?.aborted) throw new ShopCallError(`no answer from ${origin} before the proxy's deadline: ${failureOf(error)}`);
        throw new ShopCallError(`could not reach ${origin}: ${failureOf(error)}`);
      }
    },
  };
}

/**
 * The URL without its user and password, and those as a Basic Authorization header. fetch refuses a URL that carries
 * them, with an error that quotes it whole: the shop's backend was never reached, and the password went into the log.
 */
function basicAuthOf(url: string): { address: string; authorization?: string } {
  const parsed = new URL(url);
  if (!parsed.username && !parsed.password) return { address: url };
  const credentials = `${percentDecoded(parsed.username)}:${percentDecoded(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { address: parsed.href, authorization: `Basic ${bytesToBase64(new TextEncoder().encode(credentials))}` };
}

/**
 * Why fetch failed: its own message is "fetch failed" whatever happened, and the reason (a refused connection, a
 * name that does not resolve, a certificate Node does not trust) is in its cause, whose message may be empty when
 * several addresses were tried (an AggregateError that has only a code).
 */
function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { message?: unknown; code?: unknown } | undefined;
  const why = (typeof cause?.message === 'string' && cause.message) || (typeof cause?.code === 'string' && cause.code);
  return why ? `${error.message} (${why})` : error.message;
}

/** A URL's user or password as the shop means it; a stray % is taken as it is. */
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * For a log line about an answer that is not 2xx, what it most likely means: a redirect, where it points (so that the
 * operator can set that address instead); a 401 that asks for a login, the web server's basic auth; another 401 or
 * a 403, the backend's check of the signature failing.
 */
export function answerNote(answer: Response, url: string): string {
  if (answer.status === 401 && /^\s*basic\b/i.test(answer.headers.get('www-authenticate') ?? '')) {
    return ' (your web server asks for a login: write its user and password into the URL, https://user:password@...)';
  }
  if (answer.status === 401 || answer.status === 403) {
    // What the helpers and the Standard Webhooks libraries turn away: another secret, or a clock past their window.
    return " (your backend turned the call away: does it verify with the same secret as PAYIN_WEBHOOK_SECRET, and is its clock within 5 minutes of this server's?)";
  }
  if (answer.status < 300 || answer.status > 399) return '';
  const location = answer.headers.get('location');
  let target = 'somewhere else';
  try {
    if (location) target = shownUrl(new URL(location, url).href);
  } catch {
    // An unreadable Location: the status alone says enough.
  }
  return ` (a redirect to ${target}, which is not followed: set that address instead)`;
}
