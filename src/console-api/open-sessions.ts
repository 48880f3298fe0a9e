/**
 * The sessions of the token sign-in that are open. Its session is a signed cookie that verifies without the store
 * (token-login.ts), so signing out cleared the browser's copy and nothing else: any other copy (the same session in
 * a second browser, one taken from the machine) kept the console open for the rest of its 12 hours. So each session
 * is written down in the store when it is issued, signing out shuts it there, and only a session the store holds
 * open opens the console.
 *
 * Written down as open, not as signed out: a store that forgets (the memory and SQLite stores keep their counters
 * in the process, 10,000 and 100,000 at most, expired ones going first, then the oldest live ones, and lose them on
 * a restart) then shuts a session, and its operator signs in again. A list of signed-out sessions lost its entries
 * the same way, to a busy shop's rate counters or a stranger's from many addresses, and a copy of a session signed
 * out opened the console again.
 */
import type { ProxyRequest } from '../proxy/http/exchange.js';
import type { ProxyStore } from '../proxy/infrastructure/store.js';
import type { ConsoleLogin } from './console-options.js';
import { cookieOf } from './token-login.js';

export interface OpenSessions {
  /** Writes down a session just issued as open. */
  open(session: string): Promise<void>;
  /** Shuts the request's session for good. */
  shut(request: ProxyRequest): Promise<void>;
  /** True while the request's session is open: issued here, not signed out, and not forgotten by the store. */
  isOpen(request: ProxyRequest): Promise<boolean>;
}

export function openSessions(store: ProxyStore, login: ConsoleLogin): OpenSessions {
  // A counter per session, the stores' one write that expires by itself, on every instance: exactly 1 is open.
  // Shutting adds 2, so that no count it leaves is 1, not even for a session the store had forgotten. The counter
  // outlives the session, which ends at most maxAgeSeconds after it was issued; each look at it starts its time again.
  const ttlMs = login.maxAgeSeconds * 1000;
  const key = (session: string) => `console-session:${session}`;
  const sessionOf = (request: ProxyRequest) => cookieOf(request.headers.get('cookie'), login.cookieName);
  return {
    async open(session) {
      await store.count(key(session), 1, ttlMs);
    },
    async shut(request) {
      const session = sessionOf(request);
      if (session) await store.count(key(session), 2, ttlMs);
    },
    async isOpen(request) {
      const session = sessionOf(request);
      return session !== undefined && (await store.count(key(session), 0, ttlMs)) === 1;
    },
  };
}
