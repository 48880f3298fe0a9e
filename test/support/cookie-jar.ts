/**
 * The part of a browser's cookie jar that decides which cookies a request carries (RFC 6265 5.1.4 and 5.3): a
 * cookie goes only to paths under its Path, and one set without a Path belongs to the folder of the address that
 * set it. Enough for a test to see what a browser would send back, not a whole browser (no domains, no expiry but
 * Max-Age=0).
 */

interface Kept {
  name: string;
  value: string;
  path: string;
}

export class CookieJar {
  readonly #cookies = new Map<string, Kept>();

  /** Keeps the cookies of an answer to a request for `url`. */
  take(url: string, answer: Response): void {
    for (const line of answer.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5);
      const kept = { name, value: pair.slice(eq + 1), path: path?.startsWith('/') ? path : defaultPath(new URL(url).pathname) };
      const key = `${name};${kept.path}`;
      if (attributes.some((a) => /^max-age=0$/i.test(a))) this.#cookies.delete(key);
      else this.#cookies.set(key, kept);
    }
  }

  /** The Cookie header a browser sends with a request for `url`, or undefined when it sends none. */
  header(url: string): string | undefined {
    const path = new URL(url).pathname;
    const sent = [...this.#cookies.values()].filter((c) => pathMatches(path, c.path));
    return sent.length ? sent.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  /** The Paths the jar holds a cookie for, by name. */
  paths(name: string): string[] {
    return [...this.#cookies.values()].filter((c) => c.name === name).map((c) => c.path);
  }
}

function defaultPath(path: string): string {
  const last = path.lastIndexOf('/');
  return last <= 0 ? '/' : path.slice(0, last);
}

function pathMatches(path: string, cookiePath: string): boolean {
  return path === cookiePath || (path.startsWith(cookiePath) && (cookiePath.endsWith('/') || path[cookiePath.length] === '/'));
}
