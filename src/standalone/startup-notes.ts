/**
 * What the standalone server's startup log adds about two settings an operator gets wrong without a sign: where a
 * relative SQLite file really is, and a callback URL whose path this server does not answer.
 */
import { isAbsolute, resolve } from 'node:path';
import { sqlitePathOf } from '../server/store-url.js';

/**
 * The service posts its callbacks to PAYIN_CALLBACK_URL; this server takes them at {basePath}/callback. A URL whose
 * path ends otherwise works only if the web server in front rewrites it, and when it does not, every callback is
 * lost (payments then settle only through the slower sweep): said once, at start, rather than refused.
 */
export function callbackPathWarning(callbackUrl: string | undefined, basePath: string): string | undefined {
  const expected = `${basePath}/callback`;
  let path: string;
  try {
    path = new URL(callbackUrl?.trim() ?? '').pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
  return path.endsWith(expected)
    ? undefined
    : `PAYIN_CALLBACK_URL ends in ${path || '/'}, not ${expected}, where this server takes the service's callbacks: unless your web server rewrites that path to ${expected}, callbacks are lost`;
}

/** For a relative SQLite path, the file it is: a service's working directory is rarely where an operator looks. */
export function sqliteFileNote(url: string): string {
  const path = sqlitePathOf(url);
  return path && !isAbsolute(path) && path !== ':memory:' ? ` (${resolve(path)})` : '';
}
