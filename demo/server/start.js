// @ts-check
/**
 * `npm start` (after `npm run build`): the demo storefront on PORT (default 5173) with the proxy at /payin, and,
 * without PAYIN_BASE_URL, the sandbox of the payment service on SANDBOX_PORT (default 4010) with its console.
 * Prints every address, then a line "Ready." that scripts can wait for.
 */
import { startDemo } from './demo.js';

let demo;
try {
  demo = await startDemo(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const width = Math.max(...demo.pages.map((p) => p.label.length));
console.log('\npayin-checkout demo\n');
for (const { label, url } of demo.pages) console.log(`  ${label.padEnd(width)}  ${url}`);
if (demo.sandboxUrl) {
  console.log('\n  Sandbox merchant: demo-merchant / token demo-token / secret demo-secret (public demo credentials)');
  console.log('  Pay an order: open the shop, press Pay, then press "pay" next to the payment in the sandbox console.');
}
console.log(`\n  Operator console token: ${demo.consoleToken} (this run's; set PAYIN_CONSOLE_TOKEN to choose one)`);
console.log('\nReady. Press Ctrl+C to stop.');

let stopping = false;
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    demo.close().finally(() => process.exit(0));
  });
}
