// What the console benches (console-list.mjs over SQLite, postgres-console.mjs over PostgreSQL) share: the timing of
// one read, repeated after a warm-up, and the console's whole JSON answer (page and counts) through the proxy's own
// handler over the store measured.
import { createPayinProxy } from './stack.mjs';
import { summarize } from './stats.mjs';

/** A function that runs `operation` 10 times to warm up, then `rounds` times one after another, and summarizes the times. */
export function timerOf(rounds) {
  return async (operation) => {
    for (let i = 0; i < 10; i++) await operation();
    const samples = [];
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      await operation();
      samples.push(performance.now() - started);
    }
    return summarize(samples);
  };
}

/** The console's first page of every payment with its counts, as the console page asks for it; `close()` when done. */
export function consoleAnswer(store, clock) {
  const proxy = createPayinProxy({
    provider: { baseUrl: 'http://127.0.0.1:9', merchantId: 'm', token: 't', secret: 's' },
    callbackUrl: 'http://127.0.0.1:9/payin/callback',
    store,
    clock,
    reconcileEveryMs: 0,
    env: {},
    resolveOrder: () => null,
    console: { authorizeOperator: () => true },
  });
  const read = async () => {
    const answer = await proxy(new Request('http://127.0.0.1/payin/console/api/payments?filter=all&limit=50'));
    if (answer.status !== 200) throw new Error(`the console answered ${answer.status}`);
    await answer.text();
  };
  return { read, close: () => proxy.close() };
}
