/**
 * The sessions their operators signed out of. The token sign-in's session is a signed cookie that verifies without
 * the store (token-login.ts), so signing out cleared the browser's copy and nothing else: any other copy (the same
 * session in a second browser, one taken from the machine) kept the console open for the rest of its 12 hours.
 * Signing out now writes the session down in the store for as long as it could still be valid, and a session
 * written down opens nothing. Only a session that opens the console is written down (console-handler.ts), since
 * anyone may post a sign-out with a cookie of their own making.
 */
import type { ProxyRequest } from '../proxy/http/exchange.js';
import type { ProxyStore } from '../proxy/infrastructure/store.js';
import type { ConsoleLogin } from './console-options.js';
import { cookieOf } from './token-login.js';

export interface SignedOutSessions {
  /** Writes down the request's session as signed out. */
  signOut(request: ProxyRequest): Promise<void>;
  /** True when the request's session was signed out. */
  isSignedOut(request: ProxyRequest): Promise<boolean>;
}

export function signedOutSessions(store: ProxyStore, login: ConsoleLogin): SignedOutSessions {
  // A counter per session: the stores' one write that expires by itself, on every instance. It outlives the session,
  // which ends at most maxAgeSeconds after it was issued; each look at it starts its time again.
  const ttlMs = login.maxAgeSeconds * 1000;
  const key = (session: string) => `console-signed-out:${session}`;
  const sessionOf = (request: ProxyRequest) => cookieOf(request.headers.get('cookie'), login.cookieName);
  return {
    async signOut(request) {
      const session = sessionOf(request);
      if (session) await store.count(key(session), 1, ttlMs);
    },
    async isSignedOut(request) {
      const session = sessionOf(request);
      return session !== undefined && (await store.count(key(session), 0, ttlMs)) > 0;
    },
  };
}
