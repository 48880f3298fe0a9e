/**
 * The console's cookies carry a Path (`<publicBasePath>/console`), which a browser matches against its own address
 * and never resolves. A console that the browser sees under a longer path than the proxy is mounted at (Next's
 * basePath, a front server that strips a prefix), with publicBasePath left unset, gets its cookies back never:
 * the token sign-in lands on its form again and actions are refused, with nothing said. The console's own page
 * sends its address as Referer with the sign-in and the API calls (its policy is same-origin), so a Referer
 * outside the cookies' Path tells what is wrong: the log says so once, with the value publicBasePath likely needs.
 */
import type { ProxyRequest } from '../proxy/http/exchange.js';
import type { ProxyLogger } from '../proxy/logger.js';

/**
 * Checks a request of the console's own page: one with the operator's credentials (a right token, a session), the
 * cross-site refusals passed already. A stranger's request would write the log and use up its one warning.
 */
export function cookiePathCheck(cookiePath: string, logger: ProxyLogger): (request: ProxyRequest) => void {
  let warned = false;
  return (request) => {
    const referer = request.headers.get('referer');
    if (warned || !referer) return;
    let seen: string;
    try {
      seen = new URL(referer).pathname;
    } catch {
      return;
    }
    if (seen === cookiePath || seen.startsWith(`${cookiePath}/`)) return;
    warned = true;
    const likely = /^(.*)\/console(?:\/login)?\/?$/.exec(seen)?.[1];
    logger.warn(
      `the browser sees the console at ${seen}, outside the Path of its cookies (${cookiePath}), so it never sends them back: sign-in and actions fail. Set publicBasePath (PAYIN_PUBLIC_BASE_PATH on the standalone server) to the path the browser sees the proxy at${likely ? ` ('${likely}')` : ''}; see docs/runtimes.md`,
    );
  };
}
