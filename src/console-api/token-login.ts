/**
 * consoleTokenAuth(token): the console's sign-in for a shop without its own operator sessions (the standalone
 * server's PAYIN_CONSOLE_TOKEN, the demo). The operator types the token into the login form once; the answer is a
 * session cookie `<expiry>.<random>.<HMAC of both under the token>`: each sign-in's own (two operators who sign in
 * within the same second do not share one, so that one signing out leaves the other's). The token itself never
 * leaves the form, never enters a URL or a cookie, and a new token ends every session made with the old one. Tokens
 * are compared in constant time; wrong ones are rate-limited by the console's router (console-handler.ts). A browser
 * that has opened the console signed in keeps a mark of it for 90 days (made the same way under its own label),
 * renewed once a day as it opens the console, which lets it sign in again while strangers have used up the whole
 * console's tries.
 */
import { signBody } from '../shared/hmac.js';
import { randomToken, timingSafeEqual } from '../shared/bytes.js';
import type { ConsoleOptions } from './console-options.js';

const COOKIE = 'payin_console';
const SESSION_SECONDS = 12 * 60 * 60;
/** The mark of a browser that has signed in (ConsoleLogin.knownBrowser): a quarter of a year, within every browser's cap. */
const KNOWN_COOKIE = 'payin_console_known';
const KNOWN_SECONDS = 90 * 24 * 60 * 60;
/**
 * A mark older than this is replaced as its browser opens the console: issued once, it lapsed 90 days after the first
 * sign-in, and an operator who signed in every day was a stranger on day 91. A day, so that the cookie is set at most
 * once a day rather than on every page load.
 */
const KNOWN_RENEWED_AFTER_SECONDS = 24 * 60 * 60;
/** Shorter tokens are refused at start: a console token must not be guessable within the login rate limit. */
export const MIN_TOKEN_LENGTH = 16;

export interface TokenAuthOptions {
  /** Epoch ms now (tests inject a clock). */
  now?: () => number;
}

/** `token` may be unset (`process.env.PAYIN_CONSOLE_TOKEN` as it is): it is refused at start, saying so. */
export function consoleTokenAuth(token: string | undefined, options: TokenAuthOptions = {}): ConsoleOptions {
  if (typeof token !== 'string' || !token.trim()) {
    throw new TypeError('consoleTokenAuth: no console token given (is the variable you pass it from set?).');
  }
  if (token.trim().length < MIN_TOKEN_LENGTH) {
    throw new TypeError(`consoleTokenAuth: the console token must be at least ${MIN_TOKEN_LENGTH} characters.`);
  }
  const secret = token.trim();
  const now = options.now ?? Date.now;
  const mac = (signed: string) => signBody(secret, `payin-console-session:${signed}`);
  // Under its own label, so that a browser's mark is never a session, nor a session a mark.
  const knownMac = (signed: string) => signBody(secret, `payin-console-known:${signed}`);
  /** `<expiry>.<random>.<MAC of both>`, before its expiry, as `issued` makes them with `sign`. */
  const signedUntil = async (value: string | undefined, sign: (signed: string) => Promise<string>) => {
    const [expiry, random, offered, ...more] = value?.split('.') ?? [];
    if (!expiry || !random || !offered || more.length > 0 || !/^\d+$/.test(expiry) || Number(expiry) * 1000 <= now()) return false;
    return timingSafeEqual(await sign(`${expiry}.${random}`), offered);
  };
  const issued = async (seconds: number, sign: (signed: string) => Promise<string>) => {
    const signed = `${Math.floor(now() / 1000) + seconds}.${randomToken(12)}`;
    return `${signed}.${await sign(signed)}`;
  };
  return {
    authorizeOperator: (request) => signedUntil(cookieOf(request.headers.get('cookie'), COOKIE), mac),
    operatorName: () => 'console token',
    login: {
      cookieName: COOKIE,
      maxAgeSeconds: SESSION_SECONDS,
      check: async (offered) => {
        // Both sides hashed first, so that the comparison takes the same time whatever the length offered.
        const [a, b] = await Promise.all([mac(`login:${offered}`), mac(`login:${secret}`)]);
        return timingSafeEqual(a, b);
      },
      issue: () => issued(SESSION_SECONDS, mac),
      knownBrowser: {
        cookieName: KNOWN_COOKIE,
        maxAgeSeconds: KNOWN_SECONDS,
        issue: () => issued(KNOWN_SECONDS, knownMac),
        check: (value) => signedUntil(value, knownMac),
        // Its expiry tells its age; the handler asks only about a mark that `check` found good.
        dueForRenewal: (value) => Number(value.split('.')[0]) - KNOWN_SECONDS + KNOWN_RENEWED_AFTER_SECONDS <= now() / 1000,
      },
    },
  };
}

/** One cookie's value from a Cookie header. */
export function cookieOf(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
