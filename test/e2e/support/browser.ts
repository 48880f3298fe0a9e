/**
 * Chromium for the end-to-end suites through playwright-core: the binary that test/tools/find-chrome.mjs finds
 * (CHROME_PATH first), with the flags every headless launch here needs. Each page records the element's events
 * (they bubble and are composed, so the document hears them) and any Content-Security-Policy violation.
 */
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';

interface FindChrome {
  findChrome(): string | undefined;
  CHROME_ARGS: string[];
}

export interface RecordedEvent {
  type: string;
  state?: string;
  outcome?: string;
  paymentId?: string;
  resumed?: boolean;
  code?: string;
}

export async function launchBrowser(): Promise<Browser> {
  // A computed specifier: the tool is plain JavaScript without declarations.
  const tools = (await import(new URL('../../tools/find-chrome.mjs', import.meta.url).href)) as FindChrome;
  const executablePath = process.env.CHROME_PATH ?? tools.findChrome();
  if (!executablePath) throw new Error('No Chrome or Chromium found: install chromium or set CHROME_PATH.');
  return chromium.launch({ executablePath, args: tools.CHROME_ARGS, timeout: 30_000 });
}

const RECORDER = `(() => {
  window.__payinEvents = [];
  window.__cspViolations = [];
  for (const type of ['payin-created', 'payin-state', 'payin-paid', 'payin-expired', 'payin-failed', 'payin-error']) {
    document.addEventListener(type, (event) => {
      const d = event.detail || {};
      const p = d.payment || {};
      window.__payinEvents.push({ type, state: p.state, outcome: p.outcome, paymentId: p.id, resumed: d.resumed, code: d.code });
    });
  }
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
  });
})();`;

/** A desktop-sized context that records events and policy violations; `options` can make it a phone instead. */
export async function newContext(browser: Browser, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US', ...options });
  context.setDefaultTimeout(30_000);
  await context.addInitScript({ content: RECORDER });
  return context;
}

export function events(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { __payinEvents: RecordedEvent[] }).__payinEvents);
}

export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}
