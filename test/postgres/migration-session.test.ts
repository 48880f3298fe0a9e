/**
 * A schema migration's transaction held by the server (src/postgres/migration-session.ts): its client reconnects
 * after losing its connection, and nothing the migration sends after that may run outside the transaction, where
 * it would commit on its own (a table altered without its version recorded, and without the advisory lock).
 */
import postgres from 'postgres';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inMigrationTransaction, textLiteral } from '../../src/postgres/migration-session.js';
import { usePostgresServer } from './postgres-server-harness.js';

const server = usePostgresServer();
let admin: postgres.Sql;

beforeAll(async () => {
  admin = postgres(server.url, { max: 1, onnotice: () => {} });
});
afterAll(async () => {
  await admin?.end();
});

const tables = async (...names: string[]) =>
  (await admin`SELECT table_name FROM information_schema.tables WHERE table_name IN ${admin(names)}`).map((row) => row.table_name);

it('applies nothing once its connection is lost, not even what reaches the connection opened after it', async () => {
  let lost: () => void = () => {};
  const closed = new Promise<void>((resolve) => (lost = resolve));
  const open = () =>
    postgres(server.url, { max: 1, onnotice: () => {}, connection: { application_name: 'lost-migration' }, onclose: () => lost() });
  const migrating = inMigrationTransaction(open, async (session) => {
    await session.run('CREATE TABLE before_the_loss (v int)');
    await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'lost-migration'`;
    await closed; // the client knows: its next query goes out on a new connection
    await session.run('CREATE TABLE after_the_loss (v int)');
  });
  await expect(migrating).rejects.toThrow(/transaction ended with its connection: nothing of it was kept/);
  expect(await tables('before_the_loss', 'after_the_loss')).toEqual([]);
});

it('commits what it ran once the work is done', async () => {
  const open = () => postgres(server.url, { max: 1, onnotice: () => {} });
  await inMigrationTransaction(open, async (session) => {
    await session.run('CREATE TABLE committed_one (v int); INSERT INTO committed_one VALUES (1)');
    expect(await session.run('SELECT v FROM committed_one')).toEqual([{ v: 1 }]);
  });
  expect(await tables('committed_one')).toEqual(['committed_one']);
});

it('writes any text into a statement as the same text', async () => {
  const text = `it's a "test" \\ $$ $guard$ -- /* ₹ हिन्दी */ ;`;
  const open = () => postgres(server.url, { max: 1, onnotice: () => {} });
  await inMigrationTransaction(open, async (session) => {
    expect(await session.run(`SELECT ${textLiteral(text)} AS v`)).toEqual([{ v: text }]);
  });
});
