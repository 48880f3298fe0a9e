/**
 * The demo as `npm start` serves it and one WebKit session playing an iPhone, started once per test file (a
 * session costs a browser process; the tests of a file share it) and stopped after it. The engine's version is
 * printed as the README lists it.
 */
import { afterAll, beforeAll } from 'vitest';
import { startDemo, type DemoProcess } from '../../support/demo-process.js';
import { startWebKit, type WebKitDriver } from './webkit.js';
import type { WebDriverSession } from './webdriver.js';

export interface LiveWebKit {
  readonly demo: DemoProcess;
  readonly webkit: WebKitDriver;
  readonly session: WebDriverSession;
}

export function useWebKit(env: Record<string, string> = {}): LiveWebKit {
  const live = {} as { demo: DemoProcess; webkit: WebKitDriver; session: WebDriverSession };
  beforeAll(async () => {
    [live.demo, live.webkit] = await Promise.all([startDemo(env), startWebKit()]);
    live.session = await live.webkit.iphone();
    const { browserName, browserVersion } = live.session.capabilities;
    console.log(`WebKit engine: WebKitGTK ${browserVersion} (${browserName}, over WebKitWebDriver)`);
  }, 60_000);
  afterAll(async () => {
    await live.session?.end();
    await live.webkit?.stop();
    await live.demo?.stop();
  });
  return live;
}
