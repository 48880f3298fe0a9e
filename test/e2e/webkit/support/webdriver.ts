/**
 * A W3C WebDriver client over plain fetch: the few commands the WebKit suite needs, and nothing else, so that no
 * client library sits between the tests and WebKitWebDriver. Every request is bounded in time; an error answer
 * throws with the driver's own message (the spec's `{value: {error, message}}`).
 */

/** The spec's key for a web element reference in JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export type ElementRef = { [ELEMENT]: string };

/** How long a command may take: a browser starting, a page loading. */
const COMMAND_TIMEOUT_MS = 60_000;

/**
 * How long a script may take. Right after a back navigation that restores the page from the back-forward cache, the
 * first script a fresh WebKitGTK browser is given sometimes never answers, though the page is live (measured: 5 of
 * 24 fresh sessions, each UPI journey ending on "paid" on screen); the next script answers at once. A script is
 * therefore given up on well within the polls' own limit (waitFor), which then asks again.
 */
const SCRIPT_TIMEOUT_MS = 8_000;

async function call<T>(url: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown, timeoutMs = COMMAND_TIMEOUT_MS): Promise<T> {
  const answer = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = (await answer.json()) as { value: T & { error?: string; message?: string } };
  if (!answer.ok) throw new Error(`WebDriver ${method} ${new URL(url).pathname}: ${json.value?.error} (${json.value?.message})`);
  return json.value;
}

export class WebDriverSession {
  readonly #base: string;
  /** What the driver says it started (`browserName`, `browserVersion`). */
  readonly capabilities: Record<string, unknown>;

  private constructor(base: string, capabilities: Record<string, unknown>) {
    this.#base = base;
    this.capabilities = capabilities;
  }

  /** A new session (a new browser with its own cookies and storage) on the driver at `driverUrl`. */
  static async start(driverUrl: string, alwaysMatch: Record<string, unknown>): Promise<WebDriverSession> {
    const value = await call<{ sessionId: string; capabilities: Record<string, unknown> }>(`${driverUrl}/session`, 'POST', {
      capabilities: { alwaysMatch },
    });
    return new WebDriverSession(`${driverUrl}/session/${value.sessionId}`, value.capabilities);
  }

  #do<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    return call<T>(`${this.#base}${path}`, method, body, timeoutMs);
  }

  navigate(url: string): Promise<void> {
    return this.#do('POST', '/url', { url });
  }

  url(): Promise<string> {
    return this.#do('GET', '/url');
  }

  back(): Promise<void> {
    return this.#do('POST', '/back', {});
  }

  /** Runs `fn` (a function's source) in the page with `args`; a promise it returns is awaited by the driver. */
  run<T>(fn: string, ...args: unknown[]): Promise<T> {
    return this.#do('POST', '/execute/sync', { script: `return (${fn}).apply(null, arguments);`, args }, SCRIPT_TIMEOUT_MS);
  }

  /** The first element `css` finds, looking into the shadow root of each `host` selector in turn. */
  async find(hosts: string[], css: string): Promise<ElementRef> {
    const found = await this.run<ElementRef | null>(
      `(hosts, css) => { let root = document; for (const h of hosts) root = root.querySelector(h)?.shadowRoot ?? root; return root.querySelector(css); }`,
      hosts,
      css,
    );
    if (!found) throw new Error(`no element ${css} under ${hosts.join(' > ') || 'the document'}`);
    return found;
  }

  /** A real click (the driver's pointer), which counts as a user gesture for the clipboard and for links. */
  click(element: ElementRef): Promise<void> {
    return this.#do('POST', `/element/${element[ELEMENT]}/click`, {});
  }

  /** Keys typed into the focused element, e.g. ['\uE009', 'v'] for Control+V. */
  async keys(chord: string[]): Promise<void> {
    const down = chord.map((value) => ({ type: 'keyDown', value }));
    const up = [...chord].reverse().map((value) => ({ type: 'keyUp', value }));
    await this.#do('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions: [...down, ...up] }] });
    await this.#do('DELETE', '/actions');
  }

  /** The visible part of the page as PNG bytes. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await this.#do<string>('GET', '/screenshot'), 'base64');
  }

  setWindowRect(rect: { width: number; height: number }): Promise<unknown> {
    return this.#do('POST', '/window/rect', rect);
  }

  /**
   * Opens a new top-level browsing context of this session (same cookies and storage, its own sessionStorage, as a
   * new tab has) and answers its handle. A window rather than a tab: MiniBrowser paints only its front tab, and a
   * screenshot of one behind it never answers.
   */
  async newTab(): Promise<string> {
    return (await this.#do<{ handle: string }>('POST', '/window/new', { type: 'window' })).handle;
  }

  window(): Promise<string> {
    return this.#do('GET', '/window');
  }

  switchTo(handle: string): Promise<void> {
    return this.#do('POST', '/window', { handle });
  }

  closeWindow(): Promise<string[]> {
    return this.#do('DELETE', '/window');
  }

  async end(): Promise<void> {
    await this.#do('DELETE', '').catch(() => undefined);
  }
}
