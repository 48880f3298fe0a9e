/**
 * Who may use the console, asked of every request before anything else is read: the shop's authorizeOperator
 * (a throw counts as "no"), then, for requests that change something, a defence against cross-site requests.
 * A browser marks where a request comes from (Sec-Fetch-Site, Origin); a request from another site is refused
 * whatever cookies it carries, and an action must also carry the CSRF token that only the console's own page
 * could read (`x-payin-csrf`, equal to the HttpOnly cookie set with the session answer: a double submit that no
 * other site can read or set).
 */
import { randomToken, timingSafeEqual } from '../shared/bytes.js';
import { asFetchRequest, type ProxyRequest } from '../proxy/http/exchange.js';
import { forbidden, unauthorized } from './console-answers.js';
import type { ConsoleOptions } from './console-options.js';
import { cookieOf } from './token-login.js';
import { fromAnotherSite } from '../shared/other-site.js';

export const CSRF_COOKIE = 'payin_console_csrf';
export const CSRF_HEADER = 'x-payin-csrf';

/** The operator's name when the request may use the console; throws 401 otherwise. */
export async function operatorOf(request: ProxyRequest, options: ConsoleOptions): Promise<string> {
  let allowed = false;
  const fetchRequest = asFetchRequest(request);
  try {
    allowed = (await options.authorizeOperator(fetchRequest)) === true;
  } catch {
    allowed = false;
  }
  if (!allowed) throw unauthorized();
  try {
    return (await options.operatorName?.(fetchRequest))?.trim().slice(0, 120) || 'operator';
  } catch {
    return 'operator';
  }
}

/**
 * Refuses a request that a browser says came from another site (shared/other-site.ts). Refused for its Origin alone
 * (a browser that sends no Sec-Fetch-Site), it is told what usually causes that for the console's own page: a web
 * server in front that sends a Host of its own.
 */
export function refuseCrossSite(request: ProxyRequest): void {
  if (!fromAnotherSite(request)) return;
  const origin = request.headers.get('origin');
  if (request.headers.get('sec-fetch-site') !== null || origin === null) throw forbidden();
  const host = request.headers.get('host') ?? new URL(request.url).host;
  throw forbidden(
    `refused: the page at ${origin} sent this request, which arrived addressed to ${host}. Behind a web server, pass the browser's Host header on (nginx: proxy_set_header Host $host;)`,
    { reason: 'host_mismatch', origin, host },
  );
}

/** An action: same origin, and the CSRF header equal to the cookie. */
export function requireCsrf(request: ProxyRequest): void {
  refuseCrossSite(request);
  const cookie = cookieOf(request.headers.get('cookie'), CSRF_COOKIE);
  const header = request.headers.get(CSRF_HEADER);
  if (!cookie || !header || !timingSafeEqual(cookie, header)) throw forbidden();
}

/** The CSRF token for this browser: the one its cookie holds, else a new one (and its Set-Cookie). */
export function csrfFor(request: ProxyRequest, path: string): { token: string; setCookie?: string } {
  const existing = cookieOf(request.headers.get('cookie'), CSRF_COOKIE);
  if (existing && /^[\w-]{20,}$/.test(existing)) return { token: existing };
  const token = randomToken(24);
  return { token, setCookie: cookie(request, CSRF_COOKIE, token, path) };
}

/** A cookie only this console's path sends, never to scripts or to other sites; Secure when the browser uses https. */
export function cookie(request: ProxyRequest, name: string, value: string, path: string, maxAgeSeconds?: number): string {
  const secure = browserUsesHttps(request) ? '; Secure' : '';
  const age = maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`;
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Strict${secure}${age}`;
}

/**
 * Whether the browser reached the console over https. Behind a proxy that ends TLS the request arrives as http,
 * so the browser's own words count too: the Origin of a POST, the Referer of the console page's fetches (its
 * policy is same-origin), and X-Forwarded-Proto. Believing them is safe: a forged one only makes the sender's own
 * cookie stricter.
 */
function browserUsesHttps(request: ProxyRequest): boolean {
  const said = [request.url, request.headers.get('origin'), request.headers.get('referer')];
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' || said.some((url) => url?.toLowerCase().startsWith('https://'));
}
