/**
 * The demo as `npm start` serves it (on free ports) and a headless Chromium, started once per test file and
 * stopped after it. Each end-to-end file calls this at the top and reads `live.demo` and `live.browser` in its
 * tests.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { startDemo, type DemoProcess } from './demo-process.js';

export interface LiveDemo {
  readonly demo: DemoProcess;
  readonly browser: Browser;
}

export function useDemo(env: Record<string, string> = {}): LiveDemo {
  const live = {} as { demo: DemoProcess; browser: Browser };
  beforeAll(async () => {
    [live.demo, live.browser] = await Promise.all([startDemo(env), launchBrowser()]);
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.demo?.stop();
  });
  return live;
}
