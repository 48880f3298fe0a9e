/**
 * Schema version 1 as the release before the console created it (the payments table had no listing columns), for
 * the tests that bring an old database forward: the store must migrate it on its first start of this release.
 */
import type postgres from 'postgres';

const VERSION_1 = `CREATE FUNCTION now_ms() RETURNS bigint LANGUAGE sql VOLATILE
     AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
   CREATE TABLE payments (id text COLLATE "C" PRIMARY KEY, version integer NOT NULL, record jsonb NOT NULL,
     final boolean NOT NULL, follow_until bigint, updated_at bigint NOT NULL);
   CREATE INDEX payments_followed ON payments (id) WHERE follow_until IS NOT NULL;
   CREATE INDEX payments_scratch ON payments (updated_at) WHERE NOT final;
   CREATE TABLE orders (order_id text PRIMARY KEY, record jsonb NOT NULL, paid boolean NOT NULL, updated_at bigint NOT NULL);
   CREATE INDEX orders_scratch ON orders (updated_at) WHERE NOT paid;
   CREATE TABLE leases (key text PRIMARY KEY, owner text NOT NULL, expires_at bigint NOT NULL);
   CREATE TABLE announcements (payment_id text NOT NULL, state text NOT NULL, announced boolean NOT NULL DEFAULT false,
     attempts integer NOT NULL DEFAULT 0, due_at bigint NOT NULL, held_until bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (payment_id, state));
   CREATE INDEX announcements_due ON announcements (due_at) WHERE NOT announced;
   CREATE UNLOGGED TABLE counters (key text PRIMARY KEY, value bigint NOT NULL, expires_at bigint NOT NULL);
   CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
   INSERT INTO schema_migrations (version) VALUES (1);`;

/** Creates `schema` (a plain lower-case name) at version 1, empty. */
export async function createVersion1Schema(admin: postgres.Sql, schema: string): Promise<void> {
  await admin.unsafe(`CREATE SCHEMA ${schema}; SET search_path = ${schema}; ${VERSION_1} RESET search_path;`);
}
