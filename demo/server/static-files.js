// @ts-check
/**
 * Files from a folder, answered as Fetch Responses: the demo pages' scripts and styles, the built widget and
 * the React app. Paths are resolved inside the folder only (a `..` cannot climb out), and a file is read when
 * asked for, so that a rebuilt bundle is served without a restart.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
});

/**
 * @param {string} folder an absolute folder
 * @param {string} relativePath the part of the URL path below the folder's mount point
 * @param {Record<string, string>} [headers]
 * @returns {Promise<Response | undefined>} undefined when there is no such file
 */
export async function serveFile(folder, relativePath, headers = {}) {
  let decoded;
  try {
    decoded = decodeURIComponent(relativePath);
  } catch {
    return undefined;
  }
  const root = resolve(folder);
  const path = resolve(root, `.${sep}${decoded}`);
  if (path !== root && !path.startsWith(root + sep)) return undefined;
  try {
    if (!(await stat(path)).isFile()) return undefined;
    const body = await readFile(path);
    return new Response(body, {
      headers: {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        ...headers,
      },
    });
  } catch {
    return undefined;
  }
}
