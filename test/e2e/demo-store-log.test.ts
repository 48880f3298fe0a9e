/**
 * `npm start` with a shop's own PAYIN_STORE_URL (the demo takes the same variables as the servers): the startup
 * log names the store it uses, and never the password in a database URL (logs are kept and shared; the
 * password is the database's).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoProcess } from './support/demo-process.js';

let demo: DemoProcess | undefined;
afterAll(async () => {
  await demo?.stop();
});

describe('the demo with a database store URL', () => {
  it('names the store in its startup log without the user or password', async () => {
    // Nothing listens on port 1: the store connects only when first used, and the log line comes before that.
    demo = await startDemo({ PAYIN_STORE_URL: 'postgres://payin:hunter2-secret@127.0.0.1:1/shop' });
    const output = demo.output();
    expect(output).toMatch(/proxy store: PostgreSQL at 127\.0\.0\.1:1\/shop/);
    expect(output).not.toMatch(/hunter2|payin:/);
  });
});
