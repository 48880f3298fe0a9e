/**
 * WebKit for the end-to-end suite: WebKitWebDriver (WebKitGTK's W3C WebDriver; it starts WebKit's MiniBrowser) on
 * a free loopback port, on an Xvfb display of its own where no DISPLAY is set, since MiniBrowser has no headless
 * mode. Sessions play an iPhone: Safari's user agent and a viewport 667 CSS px high and as near 375 wide as the
 * window goes (MiniBrowser's toolbar keeps it at least MIN_WINDOW_WIDTH wide). stop() ends the processes started here and nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../../support/free-port.js';
import { waitFor } from '../../support/services.js';
import { WebDriverSession } from './webdriver.js';

const tools = (await import(new URL('../../../tools/find-webkit.mjs', import.meta.url).href)) as {
  ensureWebKit(): string;
  findXvfb(): string | undefined;
};

export const IPHONE = { width: 375, height: 667 };
/** MiniBrowser's window is never narrower than this (its toolbar), measured with WebKitGTK 2.50: an iPhone Plus's width. */
export const MIN_WINDOW_WIDTH = 447;
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export interface WebKitDriver {
  /** A new browser as an iPhone; `private`: in private browsing (no storage kept from anything before). */
  iphone(options?: { private?: boolean }): Promise<WebDriverSession>;
  stop(): Promise<void>;
}

/** Xvfb on a display number it picks itself (-displayfd), answered once it is ready. */
async function startXvfb(children: ChildProcess[]): Promise<string> {
  const xvfb = spawn(tools.findXvfb()!, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  children.push(xvfb);
  let number = '';
  xvfb.stdio[3]!.on('data', (chunk: Buffer) => (number += chunk.toString()));
  return `:${await waitFor('Xvfb to name its display', () => (/\d+\n/.test(number) ? number.trim() : undefined), 15_000)}`;
}

export async function startWebKit(): Promise<WebKitDriver> {
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    const display = process.env.DISPLAY || (await startXvfb(children));
    // WebKitWebDriver holds one session at a time: each browser gets a driver of its own.
    const iphone = async (options?: { private?: boolean }) => iphoneSession(await startDriver(display, children), options?.private);
    return { iphone, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startDriver(display: string, children: ChildProcess[]): Promise<string> {
  const port = await freePort();
  const driver = spawn(tools.ensureWebKit(), [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  children.push(driver);
  const url = `http://127.0.0.1:${port}`;
  await waitFor('WebKitWebDriver to be ready', async () => {
    const status = (await (await fetch(`${url}/status`)).json()) as { value: { ready: boolean } };
    return status.value.ready || undefined;
  });
  return url;
}

async function iphoneSession(url: string, isPrivate = false): Promise<WebDriverSession> {
  const args = ['--automation', `--user-agent=${IPHONE_UA}`, '--enable-page-cache=true', ...(isPrivate ? ['--private'] : [])];
  const session = await WebDriverSession.start(url, { 'webkitgtk:browserOptions': { args } });
  await session.setWindowRect(IPHONE);
  const inner = await session.run<{ width: number; height: number }>(`() => ({ width: innerWidth, height: innerHeight })`);
  await session.setWindowRect({ width: IPHONE.width, height: 2 * IPHONE.height - inner.height });
  return session;
}
