/**
 * The proxy's `console` option: who may open the operator's console at `<basePath>/console`. There is no default
 * operator: without this option the console does not exist (every path under it is a plain 404), and with it
 * every request is asked `authorizeOperator` first, so that the shop's own session or SSO decides. A shop that
 * has neither can use `consoleTokenAuth(token)` (token-login.ts), a login form for one shared token, which is
 * what the standalone server does with PAYIN_CONSOLE_TOKEN.
 */

export interface ConsoleOptions {
  /**
   * True when this request comes from someone allowed to see every payment and act on them (the shop's own
   * session cookie, an SSO header its gateway sets). Anything else, a throw included, is "no".
   */
  authorizeOperator(request: Request): boolean | Promise<boolean>;
  /** Who the operator is, for the audit log. Default "operator". */
  operatorName?(request: Request): string | undefined | Promise<string | undefined>;
  /**
   * A login form for operators without the shop's session: `POST <basePath>/console/login` with a `token`
   * field. Given by consoleTokenAuth; absent when authorizeOperator relies on the shop's own sign-in.
   */
  login?: ConsoleLogin;
}

export interface ConsoleLogin {
  /** True when `token` is the right one (compared in constant time). */
  check(token: string): Promise<boolean>;
  /** The session cookie's value for an operator who just logged in. */
  issue(): Promise<string>;
  /** The cookie's name; the cookie is HttpOnly, SameSite=Strict, scoped to the console's path. */
  cookieName: string;
  /** How long a session lasts, in seconds. */
  maxAgeSeconds: number;
  /**
   * The mark a browser keeps once it has opened the console signed in. Its sign-ins are counted against its own
   * tries rather than the whole console's, which strangers can use up from a handful of addresses: an operator who
   * signed in before is never kept out by them. Without it every sign-in counts against the whole console's tries.
   */
  knownBrowser?: KnownBrowser;
}

export interface KnownBrowser {
  /** The cookie's name; HttpOnly, SameSite=Strict, scoped to the console's path, like the session's. */
  cookieName: string;
  /** How long a browser stays known, in seconds. */
  maxAgeSeconds: number;
  /** A new mark's value. */
  issue(): Promise<string>;
  /** True when `value` is a mark this console issued and it has not expired (compared in constant time). */
  check(value: string): Promise<boolean>;
  /**
   * True when a good mark is old enough to be replaced by a new one as the browser opens the console, so that it
   * stays known for `maxAgeSeconds` after it last did, not after its first mark. Without it a mark is never renewed.
   */
  dueForRenewal?(value: string): boolean;
}
