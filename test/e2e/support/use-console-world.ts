/**
 * The console's world (support/console-world.ts) and a headless Chromium, started once per test file and stopped
 * after it, with one desktop page an operator uses (signed in through the token form when `signedIn`). Each console
 * end-to-end file calls this at the top and reads `live.world`, `live.page` and the rest in its tests, as the
 * storefront's files do with useDemo().
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.js';
import { type ConsoleSignIn, type ConsoleWorld, signInToConsole, startConsoleWorld } from './console-world.js';

export interface LiveConsole {
  readonly world: ConsoleWorld;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The console's address at the shop (under the front's prefix when there is one, as the world's `publicUrl`). */
  readonly consoleUrl: string;
}

export interface ConsoleWorldOptions {
  signIn?: ConsoleSignIn;
  underPrefix?: string;
  /** Whether the page signs in through the token form before the file's tests (and its own `beforeAll`) run. */
  signedIn?: boolean;
  /** What differs from a 1280x900 desktop in British English. */
  context?: BrowserContextOptions;
  /** What the world needs before the page opens: payments the list must show on its first load. */
  prepare?: (world: ConsoleWorld) => Promise<void>;
}

export function useConsoleWorld({ signIn, underPrefix, signedIn = false, context, prepare }: ConsoleWorldOptions = {}): LiveConsole {
  const live = {} as { -readonly [K in keyof LiveConsole]: LiveConsole[K] };
  beforeAll(async () => {
    [live.world, live.browser] = await Promise.all([startConsoleWorld(signIn, { underPrefix }), launchBrowser()]);
    live.consoleUrl = `${live.world.publicUrl}/payin/console`;
    await prepare?.(live.world);
    live.context = await live.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', ...context });
    live.context.setDefaultTimeout(20_000);
    live.page = await live.context.newPage();
    if (signedIn) await signInToConsole(live.page, live.consoleUrl);
  });
  afterAll(async () => {
    await live.browser?.close();
    await live.world?.close();
  });
  return live;
}
