/**
 * The element's requests to one endpoint, seen from the page. On a manual clock a test needs two facts the fake
 * proxy's counters cannot give in time: whether moving the clock started a check (a request is counted when
 * fetch is called, which a timer does synchronously, so the count is right as soon as `advance()` returns), and
 * when the element has an answer (a request counts as answered once its body has been read), so that the clock
 * moves on only after the element has scheduled what follows the answer.
 */
import { waitUntil } from '@open-wc/testing';

export interface RequestWatch {
  /** Requests made so far to a route of the endpoint: `status`, `payments`. */
  made(route: string): number;
  /** Resolves once every request made so far has been answered and its answer read, within `ms`. */
  answered(ms?: number): Promise<void>;
  /** Puts the page's own fetch back. */
  restore(): void;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function watchRequests(endpoint: string): RequestWatch {
  const original = window.fetch;
  const base = new URL(`${endpoint.replace(/\/+$/, '')}/`, location.href).href;
  const made = new Map<string, number>();
  let open = 0;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
    if (!url.startsWith(base)) return original.call(window, input, init);
    const route = url.slice(base.length).split(/[?#]/)[0]!;
    made.set(route, (made.get(route) ?? 0) + 1);
    open++;
    return original.call(window, input, init).then(
      (response) => {
        const read = response.json.bind(response);
        // The element reads every answer as JSON (an error's body too); its answer is in once that read ends.
        response.json = () => read().finally(() => open--);
        return response;
      },
      (error: unknown) => {
        open--;
        throw error;
      },
    );
  };
  return {
    made: (route) => made.get(route) ?? 0,
    async answered(ms = 5000) {
      await waitUntil(() => open === 0, `answers to ${open} request(s)`, { timeout: ms, interval: 10 });
      await nextTask(); // what the element does with the answer runs in microtasks after the read
    },
    restore() {
      window.fetch = original;
    },
  };
}
