/**
 * A store that cannot be opened at start (a SQLite path that is a directory, or under a file) stops the
 * standalone server with a line that names PAYIN_STORE_URL and where it points, not with the driver's bare
 * "unable to open database file", which leaves an operator guessing which setting is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone } from '../../src/standalone/index.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-store-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
    const config = readStandaloneConfig(offlineStandaloneEnv(storeUrl));
    const error = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0 }).then(
      (server) => server.close().then(() => undefined),
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(/^PAYIN_STORE_URL \(sqlite:.*\): the store could not be opened: ./);
  });

  it('says which file a relative sqlite: path is, since the working directory of a service is rarely where one looks', async () => {
    const storeUrl = `sqlite:${relative(process.cwd(), dir)}`; // a directory, given relative to the working directory
    const config = readStandaloneConfig(offlineStandaloneEnv(storeUrl));
    const error = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0 }).then(
      (server) => server.close().then(() => undefined),
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toContain(`PAYIN_STORE_URL (${storeUrl}, the file ${dir}): the store could not be opened: `);
  });
});
