/**
 * A store that cannot be opened at start (a SQLite path that is a directory, or under a file) stops the
 * standalone server with a line that names PAYIN_STORE_URL and where it points, not with the driver's bare
 * "unable to open database file", which leaves an operator guessing which setting is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone } from '../../src/standalone/index.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-store-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const env = (storeUrl: string) => ({
  PAYIN_BASE_URL: 'http://127.0.0.1:9',
  PAYIN_MERCHANT_ID: 'm-1',
  PAYIN_TOKEN: 'token',
  PAYIN_SECRET: 'a-signing-secret',
  PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/payin/callback',
  PAYIN_WEBHOOK_URL: 'http://127.0.0.1:9/webhook',
  PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`,
  PAYIN_ORDER_TOKEN_SECRET: 'an-order-token-key-of-length',
  PORT: '0',
  PAYIN_STORE_URL: storeUrl,
});

describe('a store the standalone server cannot open', () => {
  it.each([
    ['a directory', () => `sqlite:${dir}`],
    [
      'a path under a file',
      () => {
        writeFileSync(join(dir, 'plain-file'), '');
        return `sqlite:${join(dir, 'plain-file', 'payin.db')}`;
      },
    ],
  ])('stops it with PAYIN_STORE_URL named: %s', async (_what, url) => {
    const storeUrl = url();
    const config = readStandaloneConfig(env(storeUrl));
    const error = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0 }).then(
      (server) => server.close().then(() => undefined),
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/^PAYIN_STORE_URL \(sqlite:.*\): the store could not be opened: ./);
  });
});
