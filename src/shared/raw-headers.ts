/**
 * A header looked up in node:http's raw list (name, value, name, value...), as Fetch's Headers.get answers:
 * any case, repeated lines joined by ", ", null when absent. Building a Headers object for one or two lookups
 * costs more than the lookups. No node:* import, so that the proxy's transport can use it too.
 */
export function rawHeader(raw: readonly string[], name: string): string | null {
  const wanted = name.toLowerCase();
  let value: string | null = null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.length !== wanted.length || raw[i]!.toLowerCase() !== wanted) continue;
    const next = raw[i + 1]!.trim();
    value = value === null ? next : `${value}, ${next}`;
  }
  return value;
}

/**
 * The raw list as a Fetch Headers object, every header line kept, for code that needs a real Request. HTTP/2's
 * pseudo-headers (:method, :path, :scheme, :authority), which node:http2 lists first, are the request line, not
 * headers: Headers refuses their names, and the request's method and URL carry them already.
 */
export function fetchHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]![0] !== ':') headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** The host the client asked for: the Host line, or on HTTP/2, which has none, its :authority. */
export function rawHost(raw: readonly string[]): string | null {
  return rawHeader(raw, 'host') ?? rawHeader(raw, ':authority');
}
