/**
 * What a page of an app shop has open, for tests that mount, unmount and move the element (single-page apps,
 * frameworks): WATCH, an init script, counts what the element opens (it wraps the constructors); openNow adds what
 * Chromium's DevTools protocol counts, listeners and live elements after a full garbage collection. The page's clock
 * keeps its pending timers in `window.timers` (NEVER_FIRING_CLOCK, in the app shops' entries).
 */
import type { CDPSession, Page } from 'playwright-core';

/**
 * For an app shop's entry (the page's own code): `clock`, a clock whose timers never fire, each kept in
 * `window.timers` while pending, so that a test sees what an element leaves behind and nothing moves on its own.
 */
export const NEVER_FIRING_CLOCK = `const timers = new Set();
window.timers = timers;
const clock = {
  now: () => Date.now(),
  setTimeout: () => { const handle = {}; timers.add(handle); return handle; },
  clearTimeout: (handle) => void timers.delete(handle),
};`;

/** Counts, before the page's scripts run, what is open: event streams (and the most at once), channels, observers, media-query listeners. */
export const WATCH = `(() => {
  const live = { streams: new Set(), mostStreams: 0, opened: 0, channels: new Set(), observers: new Set(), media: 0 };
  window.__live = live;
  const Stream = window.EventSource;
  window.EventSource = class extends Stream {
    constructor(...args) { super(...args); live.opened++; live.streams.add(this); live.mostStreams = Math.max(live.mostStreams, live.streams.size); }
    close() { live.streams.delete(this); super.close(); }
  };
  const Channel = window.BroadcastChannel;
  window.BroadcastChannel = class extends Channel {
    constructor(...args) { super(...args); live.channels.add(this); }
    close() { live.channels.delete(this); super.close(); }
  };
  const Observer = window.MutationObserver;
  window.MutationObserver = class extends Observer {
    observe(...args) { live.observers.add(this); super.observe(...args); }
    disconnect() { live.observers.delete(this); super.disconnect(); }
  };
  const { addEventListener: add, removeEventListener: remove } = MediaQueryList.prototype;
  MediaQueryList.prototype.addEventListener = function (...args) { live.media++; return add.apply(this, args); };
  MediaQueryList.prototype.removeEventListener = function (...args) { live.media--; return remove.apply(this, args); };
})();`;

/** What the page counts (WATCH) and the set of timers its clock keeps. */
export interface WatchedWindow {
  timers: Set<unknown>;
  __live: {
    streams: Set<EventSource>;
    mostStreams: number;
    opened: number;
    channels: Set<unknown>;
    observers: Set<unknown>;
    media: number;
  };
}

export interface Open {
  streams: number;
  channels: number;
  /** Web Locks held or waited for (one per payment followed, in the tab that leads). */
  locks: number;
  observers: number;
  mediaListeners: number;
  timers: number;
  storageKeys: number;
  /** The types of the listeners on the window and on the document, sorted. */
  windowListeners: string[];
  documentListeners: string[];
  /** <payin-checkout> elements alive after a full garbage collection. */
  elements: number;
}

async function listenerTypes(cdp: CDPSession, expression: string): Promise<string[]> {
  const { result } = await cdp.send('Runtime.evaluate', { expression });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId! });
  return listeners.map((l) => l.type).sort();
}

/** What the page has open now. A heap snapshot collects all the garbage it can first (one collectGarbage call left some behind). */
export async function openNow(page: Page): Promise<Open> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await cdp.send('HeapProfiler.disable');
  const prototype = await cdp.send('Runtime.evaluate', {
    expression: "customElements.get('payin-checkout').prototype",
    objectGroup: 'count',
  });
  const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: prototype.result.objectId!, objectGroup: 'count' });
  const counted = await cdp.send('Runtime.callFunctionOn', {
    objectId: objects.objectId!,
    functionDeclaration: 'function () { return this.length; }',
    returnByValue: true,
  });
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'count' });
  const windowListeners = await listenerTypes(cdp, 'window');
  const documentListeners = await listenerTypes(cdp, 'document');
  await cdp.detach();
  const inPage = await page.evaluate(async () => {
    const { __live: live, timers } = window as unknown as WatchedWindow;
    const { held = [], pending = [] } = await navigator.locks.query();
    return {
      streams: live.streams.size,
      channels: live.channels.size,
      locks: held.length + pending.length,
      observers: live.observers.size,
      mediaListeners: live.media,
      timers: timers.size,
      storageKeys: sessionStorage.length,
    };
  });
  return { ...inPage, windowListeners, documentListeners, elements: counted.result.value as number };
}
