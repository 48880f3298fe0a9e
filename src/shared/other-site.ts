/**
 * Whether a browser says a request comes from a page of another site: a cross-site request forgery unless the
 * route wants such pages. Sec-Fetch-Site is the whole answer where it is sent, since no page can set or change it,
 * and it needs no Host, which a web server in front may replace with its own (nginx's proxy_pass sends the
 * upstream's `127.0.0.1:8787` unless told otherwise). A browser too old to send it is judged by its Origin against
 * the Host. A request with neither comes from no browser page (a script, a test, curl) and is no forgery. Shared by
 * the operator's console and the sandbox's own routes, which both act on a POST a foreign page could send.
 */

/** What is read of the request. */
interface Sent {
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}

export function fromAnotherSite(request: Sent): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.get('origin');
  return origin !== null && hostOf(origin) !== hostOfRequest(request);
}

/**
 * The host the request was sent to (the Host header wins over the URL's). Hosts, not origins, are compared: behind
 * a proxy that ends TLS the request arrives as http while the page's Origin says https.
 */
function hostOfRequest(request: Sent): string {
  return (request.headers.get('host') ?? new URL(request.url).host).toLowerCase();
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}
