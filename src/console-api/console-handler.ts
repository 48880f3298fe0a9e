/**
 * The console's router, mounted by the proxy at `<basePath>/console` when the shop passes the `console` option:
 * the page, its script, the token login, and the JSON API the page calls. Every request is asked who it is first
 * (console-guard.ts), so that a request without the right credentials learns nothing, not even whether a
 * payment exists; reads refuse other sites, actions also need the CSRF token. Every answer is `no-store`. Its
 * links and redirects are relative to the request (the proxy may be served under a prefix it cannot see); its
 * cookies' Path is `<publicBasePath>/console`, the one place that needs the prefix.
 */
import type { Answer, ProxyRequest } from '../proxy/http/exchange.js';
import { pathnameOf, routeUnder } from '../proxy/http/exchange.js';
import { readBody } from '../shared/body.js';
import { CONSOLE_FILTERS, type ConsoleFilter, isConsoleStore } from '../proxy/infrastructure/console-store.js';
import type { ProxyContext } from '../proxy/context.js';
import { describe } from '../proxy/http/errors.js';
import { audit, auditAction, markRefunded, recheck, redeliver, referenceOf } from './console-actions.js';
import { ConsoleError, errorJson, html, json, noPayment, redirect, refusal, text, unauthorized } from './console-answers.js';
import { cookie, csrfFor, operatorOf, refuseCrossSite, requireCsrf } from './console-guard.js';
import { cookieOf } from './token-login.js';
import { openSessions } from './open-sessions.js';
import type { ConsoleOptions } from './console-options.js';
import {
  CONSOLE_CSS,
  type ConsoleLinks,
  consolePage,
  consoleScript,
  LOGIN_MESSAGES,
  loginPage,
  signInElsewherePage,
} from './console-page.js';
import { cookiePathCheck } from './cookie-path-check.js';
import { relativeLink } from '../proxy/http/relative-link.js';
import { readPayment, listPage, exportRows } from './console-reads.js';
import { markResolved, noteOf } from './resolve-action.js';
import { csvOf } from './console-rows.js';

/**
 * Wrong tokens a client may try in LOGIN_WINDOW_MS before it is told to wait; the whole console, ten times that; a
 * browser with the mark of a past sign-in, as many as a client, counted by its mark instead of the whole console.
 */
const LOGIN_TRIES = 10;
const LOGIN_WINDOW_MS = 15 * 60_000;

export type ConsoleHandler = (request: ProxyRequest) => Promise<Answer>;

export function createConsoleHandler(ctx: ProxyContext, options: ConsoleOptions): ConsoleHandler {
  const { store } = ctx.options;
  if (!isConsoleStore(store)) {
    throw new TypeError(
      'createPayinProxy: the console needs a store with the console operations (memory, SQLite, Redis or PostgreSQL store).',
    );
  }
  if (typeof options?.authorizeOperator !== 'function') {
    throw new TypeError('createPayinProxy: console.authorizeOperator(request) must be a function: who may see the payments?');
  }
  const base = `${ctx.options.basePath}/console`;
  // Where the browser sees the console: a cookie's Path is matched against the browser's address, never resolved.
  const cookiePath = `${ctx.options.publicBasePath}/console`;
  const checkCookiePath = cookiePathCheck(cookiePath, ctx.options.logger);
  /** The links of a page answered at this request's path. */
  const linksFor = (request: ProxyRequest): ConsoleLinks => {
    const here = pathnameOf(request);
    return (route) => relativeLink(here, `${base}${route}`);
  };

  const sessions = options.login && openSessions(store, options.login);
  /** operatorOf, and for the token sign-in a session the store holds open. */
  const signedInOperator = async (request: ProxyRequest): Promise<string> => {
    const operator = await operatorOf(request, options);
    if (sessions && !(await sessions.isOpen(request))) throw unauthorized();
    return operator;
  };

  const route = async (request: ProxyRequest): Promise<Answer> => {
    const path = routeUnder(pathnameOf(request), base) || '/';
    const method = request.method;
    if (path === '/console.css' && method === 'GET') return text(200, CONSOLE_CSS, 'text/css; charset=utf-8');
    if (path === '/console.js' && method === 'GET') {
      const code = await consoleScript();
      return code === undefined
        ? text(503, 'the console page is not built: run `npm run build`', 'text/plain; charset=utf-8')
        : text(200, code, 'text/javascript; charset=utf-8');
    }
    if (path === '/login' && method === 'POST' && options.login) return login(request);
    if (path === '/logout' && method === 'POST') {
      requireCsrf(request);
      // Only a session signed by the console is written down: anyone may post this with a cookie of their making.
      if (sessions && (await operatorOf(request, options).catch(() => undefined))) await sessions.shut(request);
      const name = options.login?.cookieName;
      return json(200, { ok: true }, name ? { 'set-cookie': cookie(request, name, '', cookiePath, 0) } : {});
    }
    if (path === '/' && method === 'GET') {
      // A link from elsewhere may open the page (it holds no data); its SameSite=Strict session cookie does not
      // come along then, and the API it calls is same-origin.
      try {
        await signedInOperator(request);
      } catch (error) {
        // A page either way, never a JSON error in the browser: the token form, or where to sign in instead.
        if (error instanceof ConsoleError) {
          return html(401, options.login ? loginPage(linksFor(request), undefined) : signInElsewherePage(linksFor(request)));
        }
        throw error;
      }
      return html(200, consolePage(linksFor(request)), await knownBrowserCookie(request));
    }
    if (!path.startsWith('/api/')) throw new ConsoleError(404, 'not_found', 'no such console route');
    return api(request, path.slice('/api'.length), method);
  };

  const api = async (request: ProxyRequest, path: string, method: string): Promise<Answer> => {
    const operator = await signedInOperator(request);
    if (method === 'POST') requireCsrf(request);
    else if (method === 'GET') refuseCrossSite(request);
    else throw new ConsoleError(405, 'method_not_allowed', 'use GET or POST');
    checkCookiePath(request);
    const now = ctx.options.clock.now();
    // Stuck (open past its expiry) is judged on the service's clock, which wrote the expiry.
    const serviceNow = ctx.options.serviceClock.now();
    const url = new URL(request.url);
    if (path === '/session' && method === 'GET') {
      const csrf = csrfFor(request, cookiePath);
      // signOut: whether the console can sign the operator out, which only its own token sign-in can; behind the
      // shop's sign-in a Sign out button would reload the page with the operator still signed in to the shop.
      const answer = { operator, csrf: csrf.token, filters: CONSOLE_FILTERS, signOut: options.login !== undefined };
      return json(200, answer, csrf.setCookie ? { 'set-cookie': csrf.setCookie } : {});
    }
    if (path === '/payments' && method === 'GET') {
      return json(200, await listPage(store, queryOf(url.searchParams), serviceNow));
    }
    if (path === '/export' && method === 'POST') {
      // A long list comes in several answers, each with the cursor of the rest (x-payin-next), which the page
      // follows into one file: one answer holds at most EXPORT_LIMIT rows, and a silent cut would pass for the list.
      const query = queryOf(new URLSearchParams((await readForm(request)) ?? ''));
      const { rows, next } = await exportRows(store, query, serviceNow);
      const what = [query.filter, ...(query.q ? [query.q] : []), ...(query.cursor ? ['continued'] : [])].join(', ');
      await audit(store, now, operator, 'export', `${rows.length} payments (${what})`);
      return text(200, csvOf(rows), 'text/csv; charset=utf-8', {
        'content-disposition': 'attachment; filename="payments.csv"',
        ...(next ? { 'x-payin-next': next } : {}),
      });
    }
    const one = /^\/payments\/([^/]+)(?:\/(recheck|redeliver|mark-refunded|mark-resolved))?$/.exec(path);
    if (!one) throw new ConsoleError(404, 'not_found', 'no such console route');
    const id = decodedId(one[1]!);
    const action = one[2];
    const record = await ctx.options.store.getPayment(id);
    if (!record) throw noPayment();
    if (!action && method === 'GET') return json(200, await readPayment(store, record, serviceNow));
    if (!action || method !== 'POST') throw new ConsoleError(405, 'method_not_allowed', 'actions are POSTs');
    let done: Awaited<ReturnType<typeof recheck>>;
    try {
      if (action === 'recheck') done = await recheck(ctx, record);
      else if (action === 'redeliver') done = await redeliver(ctx, record);
      else if (action === 'mark-resolved') done = await markResolved(ctx, record, operator, noteOf(await formOf(request)));
      else done = await markRefunded(ctx, record, operator, referenceOf(await formOf(request)));
    } catch (error) {
      // A refused action is an action too: the log says who tried and why it did nothing.
      if (error instanceof ConsoleError) await auditAction(ctx, store, { operator, action, result: error.message, paymentId: id });
      throw error;
    }
    return json(200, { ...done, ...(await auditAction(ctx, store, { operator, action, result: done.result, paymentId: id })) });
  };

  const known = options.login?.knownBrowser;
  /** The request's mark of a past sign-in (ConsoleLogin.knownBrowser) when it is a good one. */
  const knownMark = async (request: ProxyRequest): Promise<string | undefined> => {
    const value = known && cookieOf(request.headers.get('cookie'), known.cookieName);
    return value && (await known.check(value)) ? value : undefined;
  };
  /** The mark for a browser that has just opened the console signed in, unless it has a good one not due for renewal. */
  const knownBrowserCookie = async (request: ProxyRequest): Promise<Record<string, string>> => {
    if (!known) return {};
    const mark = await knownMark(request);
    if (mark && !known.dueForRenewal?.(mark)) return {};
    return { 'set-cookie': cookie(request, known.cookieName, await known.issue(), cookiePath, known.maxAgeSeconds) };
  };

  const login = async (request: ProxyRequest): Promise<Answer> => {
    const link = linksFor(request);
    try {
      refuseCrossSite(request);
    } catch (error) {
      // A plain form post: the operator stays on the form and reads why, rather than a page of JSON.
      if (error instanceof ConsoleError) return html(error.status, loginPage(link, error.message));
      throw error;
    }
    const client = ctx.options.clientId(request) ?? 'unknown';
    // A browser that has signed in before is counted by its mark instead of the whole console: strangers fill that
    // count from ten addresses, and then kept the operator out as well. A stolen mark gets ten tries, as one client.
    const mark = await knownMark(request);
    const keys = [`console-login:${client}`, mark ? `console-login-known:${mark}` : 'console-login:*'];
    const limits = [LOGIN_TRIES, mark ? LOGIN_TRIES : LOGIN_TRIES * 10];
    const window = Math.floor(ctx.options.clock.now() / LOGIN_WINDOW_MS);
    // The tries are counted in the store; when it cannot be reached the operator stays on the form and is told why
    // (a plain form post would otherwise land on a page of JSON).
    const count = (key: string, add: number) => store.count(`${key}:${window}`, add, LOGIN_WINDOW_MS);
    const unreachable = (error: unknown) => {
      ctx.options.logger.error('the console could not answer a sign-in', { error: describe(error) });
      return html(503, loginPage(link, LOGIN_MESSAGES.ledgerUnreachable), { 'retry-after': '30' });
    };
    const token = new URLSearchParams((await readForm(request)) ?? '').get('token') ?? '';
    // Each try is counted before its token is checked, and judged by the count it made: were it checked against a
    // count read first and added to after, a burst of guesses sent at once would all read the same low count. The
    // whole console's count hears only the tries a client may still make, so that one client cannot fill it alone.
    let right: boolean;
    try {
      if ((await count(keys[0]!, 1)) > limits[0]! || (await count(keys[1]!, 1)) > limits[1]!) {
        return html(429, loginPage(link, LOGIN_MESSAGES.tooManyTries), { 'retry-after': String(LOGIN_WINDOW_MS / 1000) });
      }
      right = token !== '' && (await options.login!.check(token));
      // A right token was no wrong try: given back, so that an operator signing in often is never kept out.
      if (right) await Promise.all(keys.map((key) => count(key, -1)));
    } catch (error) {
      return unreachable(error);
    }
    if (!right) return html(401, loginPage(link, LOGIN_MESSAGES.wrongToken));
    // Only now: anyone may post this form, with a Referer of their choosing, and the warning is said once.
    checkCookiePath(request);
    const { cookieName, maxAgeSeconds } = options.login!;
    const session = await options.login!.issue();
    try {
      await sessions!.open(session);
    } catch (error) {
      return unreachable(error);
    }
    // A relative Location, resolved by the browser against the address it posted to (RFC 9110).
    return redirect(link(''), { 'set-cookie': cookie(request, cookieName, session, cookiePath, maxAgeSeconds) });
  };

  return async (request) => {
    try {
      return await route(request);
    } catch (error) {
      if (error instanceof ConsoleError) return errorJson(error);
      ctx.options.logger.error('the console could not answer', { error: describe(error) });
      return errorJson(
        refusal(503, 'store_unavailable', 'the ledger could not be read or written just now: nothing was done; try again', {}),
      );
    }
  };
}

export interface ConsoleQuery {
  filter: ConsoleFilter;
  q?: string;
  cursor?: string;
  limit: number;
}

function queryOf(params: URLSearchParams): ConsoleQuery {
  const filter = params.get('filter') ?? 'all';
  if (!(CONSOLE_FILTERS as readonly string[]).includes(filter)) throw new ConsoleError(400, 'bad_request', 'unknown filter');
  const limit = Math.min(200, Math.max(1, Number(params.get('limit') ?? 50) || 50));
  const q = params.get('q')?.trim().slice(0, 128);
  const cursor = params.get('cursor') ?? undefined;
  return { filter: filter as ConsoleFilter, limit, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) };
}

/** The path's payment id; a broken escape is the caller's mistake, not a store outage (decodeURIComponent throws). */
function decodedId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ConsoleError(400, 'bad_request', 'the payment id in the path is not a valid URL escape');
  }
}

async function formOf(request: ProxyRequest): Promise<URLSearchParams> {
  return new URLSearchParams((await readForm(request)) ?? '');
}

async function readForm(request: ProxyRequest): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await readBody(request, 4096));
  } catch {
    throw new ConsoleError(400, 'bad_request', 'the form could not be read');
  }
}
