import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { createPostgresStore } from '../../src/postgres/create-postgres-store.js';
import { PostgresStore } from '../../src/postgres/postgres-store.js';
import { describeStoreUrl, storeFromUrl, storeUrlFromEnv, storeUrlProblem } from '../../src/server/store-url.js';
import { SqliteStore } from '../../src/sqlite/sqlite-store.js';

describe('PAYIN_STORE_URL', () => {
  it('names a memory, SQLite or Redis store, the older PAYIN_REDIS_URL still working', async () => {
    expect(await storeFromUrl('memory:')).toBeInstanceOf(MemoryStore);
    const dir = mkdtempSync(join(tmpdir(), 'payin-store-url-'));
    try {
      const store = await storeFromUrl(`sqlite:${join(dir, 'nested', 'payin.db')}`);
      expect(store).toBeInstanceOf(SqliteStore);
      await store.close?.();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(storeUrlFromEnv({ PAYIN_REDIS_URL: 'redis://127.0.0.1:1' })).toBe('redis://127.0.0.1:1');
    expect(storeUrlFromEnv({ PAYIN_STORE_URL: 'sqlite:./a.db', PAYIN_REDIS_URL: 'redis://x' })).toBe('sqlite:./a.db');
    expect(storeUrlFromEnv({ PAYIN_STORE_URL: '  ' })).toBeUndefined();
  });

  it('names a PostgreSQL store, opening no connection until it is used', async () => {
    for (const url of ['postgres://payin:hunter2@127.0.0.1:1/shop', 'postgresql://127.0.0.1:1/shop']) {
      const store = await storeFromUrl(url);
      expect(store).toBeInstanceOf(PostgresStore);
      await store.close?.();
    }
  });

  it('reads the scheme of a database URL in any case, as URL schemes are', async () => {
    for (const url of ['POSTGRES://payin:hunter2@127.0.0.1:1/shop', 'PostgreSQL://127.0.0.1:1/shop']) {
      expect(storeUrlProblem(url)).toBeUndefined();
      const store = await storeFromUrl(url);
      expect(store).toBeInstanceOf(PostgresStore);
      await store.close?.();
    }
    expect(storeUrlProblem('REDISS://cache:6380')).toBeUndefined();
    expect(storeUrlProblem('SQLite:./payin.db')).toBeUndefined();
    // The memory store stays its exact name only (above).
    expect(storeUrlProblem('MEMORY:')).toMatch(/must start with/);
  });

  it('shows a database URL in a log line without its user or password', () => {
    expect(describeStoreUrl('POSTGRES://payin:hunter2@db.internal:5432/shop')).toBe('PostgreSQL at db.internal:5432/shop');
    // Not a store it opens, but a log line may still show it: never with its password.
    expect(describeStoreUrl('mysql://payin:hunter2@db.internal/shop')).not.toMatch(/hunter2|payin@/);
    expect(describeStoreUrl('postgres://payin:hunter2@db.internal:5432/shop')).toBe('PostgreSQL at db.internal:5432/shop');
    expect(describeStoreUrl('rediss://:hunter2@cache:6380')).toBe('Redis at cache:6380');
    expect(describeStoreUrl('sqlite:./payin.db')).toBe('sqlite:./payin.db');
  });

  it('refuses anything else without echoing it, since a URL may carry a password', async () => {
    await expect(storeFromUrl('mysql://user:hunter2@db')).rejects.toThrow(
      /must start with sqlite:, redis:\/\/, rediss:\/\/, postgres:\/\//,
    );
    await expect(storeFromUrl('mysql://user:hunter2@db')).rejects.not.toThrow(/hunter2/);
    await expect(storeFromUrl('sqlite:')).rejects.toThrow(/needs a file/);
    // The standalone server's check before start says the same: 'sqlite:' does start with sqlite:.
    expect(storeUrlProblem('sqlite:')).toBe('PAYIN_STORE_URL: sqlite: needs a file, such as sqlite:./payin.db');
    // The memory store forgets on restart: only its exact name picks it, never a near miss.
    await expect(storeFromUrl('memory')).rejects.toThrow(/must start with/);
  });

  it('refuses sqlite://<file>, which would be a file at the root of the disk, naming the forms that work', async () => {
    // Written as other tools write a relative file: it opened /payin.db, and the log said only "sqlite://payin.db".
    for (const url of ['sqlite://payin.db', 'sqlite://./payin.db', 'sqlite://data/payin.db']) {
      expect(storeUrlProblem(url)).toMatch(/sqlite:\.\/payin\.db .*sqlite:\/\/\/var\/lib\/payin\/payin\.db/);
      await expect(storeFromUrl(url)).rejects.toThrow(storeUrlProblem(url));
    }
    // The absolute forms stay: sqlite:/abs.db and sqlite:///abs.db.
    expect(storeUrlProblem('sqlite:///var/lib/payin/payin.db')).toBeUndefined();
    expect(storeUrlProblem('sqlite:/var/lib/payin/payin.db')).toBeUndefined();
  });

  it('refuses a database URL that cannot be read (a typo in the port, a raw % in the password) without echoing it', async () => {
    for (const url of [
      'postgres://payin:hunter2@127.0.0.1:99999/shop',
      'postgresql://payin:hunter2@[db/shop',
      'postgres://payin:hun%ZZter2@127.0.0.1:1/shop',
      'redis://:hunter2@127.0.0.1:99999',
    ]) {
      expect(storeUrlProblem(url)).toMatch(/PAYIN_STORE_URL cannot be read as a URL/);
      expect(storeUrlProblem(url)).not.toMatch(/hunter2/);
      await expect(storeFromUrl(url)).rejects.toThrow(/cannot be read as a URL/);
      await expect(storeFromUrl(url)).rejects.not.toThrow(/hunter2/);
    }
    // A shop that calls createPostgresStore itself gets the same care.
    expect(() => createPostgresStore({ url: 'postgres://payin:hunter2@127.0.0.1:99999/shop' })).toThrow(/cannot be read as a URL/);
    expect(() => createPostgresStore({ url: 'postgres://payin:hunter2@127.0.0.1:99999/shop' })).not.toThrow(/hunter2/);
  });
});
