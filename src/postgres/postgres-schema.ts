/**
 * The PostgreSQL store's tables, created and brought forward by the store itself. Each migration runs once, in
 * one transaction with the row that records it in `schema_migrations`, under a transaction-level advisory lock on
 * the schema's name: two proxy processes that start at once against an empty database wait for each other, and
 * the second finds the work done. A database written by a newer release is refused rather than misread.
 *
 * Times are epoch milliseconds. Leases, holds and counters run on the database's clock (`now_ms()`), so that they
 * lapse the same for every instance whatever its own clock says; outbox due times are the proxy's, as it passes them.
 * Payment ids sort bytewise (COLLATE "C"), as the follow index pages through them in the order the other stores use.
 */
import type { Sql } from 'postgres';
import { inMigrationTransaction, type MigrationSession } from './migration-session.js';
import { backfillListing } from './postgres-listing.js';

/** A migration's statements, and what it fills in with the proxy's own code after them. */
type Migration = string | { sql: string; backfill: (session: MigrationSession) => Promise<void> };

const MIGRATIONS: readonly Migration[] = [
  `CREATE FUNCTION now_ms() RETURNS bigint LANGUAGE sql VOLATILE
     AS $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint $$;
   CREATE TABLE payments (
     id text COLLATE "C" PRIMARY KEY,
     version integer NOT NULL,
     record jsonb NOT NULL,
     final boolean NOT NULL,
     follow_until bigint,
     updated_at bigint NOT NULL
   );
   CREATE INDEX payments_followed ON payments (id) WHERE follow_until IS NOT NULL;
   CREATE INDEX payments_scratch ON payments (updated_at) WHERE NOT final;
   CREATE TABLE orders (
     order_id text PRIMARY KEY,
     record jsonb NOT NULL,
     paid boolean NOT NULL,
     updated_at bigint NOT NULL
   );
   CREATE INDEX orders_scratch ON orders (updated_at) WHERE NOT paid;
   CREATE TABLE leases (key text PRIMARY KEY, owner text NOT NULL, expires_at bigint NOT NULL);
   -- One row per (payment, state) for good: queued, then announced. A pair is queued at most once because the
   -- row is never deleted, only marked announced.
   CREATE TABLE announcements (
     payment_id text NOT NULL,
     state text NOT NULL,
     announced boolean NOT NULL DEFAULT false,
     attempts integer NOT NULL DEFAULT 0,
     due_at bigint NOT NULL,
     held_until bigint NOT NULL DEFAULT 0,
     PRIMARY KEY (payment_id, state)
   );
   CREATE INDEX announcements_due ON announcements (due_at) WHERE NOT announced;
   -- Rate counters are scratch: unlogged (not written to the WAL), so a crash of the database may forget them.
   CREATE UNLOGGED TABLE counters (key text PRIMARY KEY, value bigint NOT NULL, expires_at bigint NOT NULL);`,
  // The console (console-store.ts): listing columns written with every payment (postgres-listing.ts), filled in
  // for the payments written before; each filter is an index walked newest first from the cursor's place.
  // Timelines (trimmed to the newest 200 per payment) and the operator audit log.
  {
    sql: `ALTER TABLE payments
       ADD COLUMN listed_at bigint NOT NULL DEFAULT 0,
       ADD COLUMN order_id text NOT NULL DEFAULT '',
       ADD COLUMN tag text NOT NULL DEFAULT 'open',
       ADD COLUMN late boolean NOT NULL DEFAULT false,
       ADD COLUMN second boolean NOT NULL DEFAULT false,
       ADD COLUMN expires_at bigint;
     CREATE INDEX payments_listed ON payments (listed_at, id);
     CREATE INDEX payments_by_tag ON payments (tag, listed_at, id);
     CREATE INDEX payments_by_order ON payments (order_id, listed_at, id);
     CREATE INDEX payments_late ON payments (listed_at, id) WHERE late;
     CREATE INDEX payments_second ON payments (listed_at, id) WHERE second;
     -- An announcement the hook has not taken after at least one try (the console's failing filter).
     CREATE INDEX announcements_failing ON announcements (payment_id) WHERE attempts > 0 AND NOT announced;
     CREATE TABLE payment_history (
       seq bigserial PRIMARY KEY,
       payment_id text COLLATE "C" NOT NULL,
       entry jsonb NOT NULL
     );
     CREATE INDEX payment_history_of ON payment_history (payment_id, seq);
     CREATE TABLE audit (seq bigserial PRIMARY KEY, payment_id text COLLATE "C", entry jsonb NOT NULL);
     CREATE INDEX audit_of ON audit (payment_id, seq);`,
    backfill: backfillListing,
  },
  // Second payments an operator marked refunded: their own filter, a partial index like `second`'s. No payment was
  // marked before, so there is nothing to fill in.
  `ALTER TABLE payments ADD COLUMN refunded boolean NOT NULL DEFAULT false;
   CREATE INDEX payments_refunded ON payments (listed_at, id) WHERE refunded;`,
  // Final payments the service contradicted, and those an operator marked resolved: their own filters, partial
  // indexes like `refunded`'s. A contradiction noted before had only its timeline line: its payment is marked with
  // the newest one (a mark as ledger/contradiction-marks.ts writes it; none was resolved, so it is `contradicted`).
  `ALTER TABLE payments
     ADD COLUMN contradicted boolean NOT NULL DEFAULT false,
     ADD COLUMN resolved boolean NOT NULL DEFAULT false;
   CREATE INDEX payments_contradicted ON payments (listed_at, id) WHERE contradicted;
   CREATE INDEX payments_resolved ON payments (listed_at, id) WHERE resolved;
   UPDATE payments p
     SET record = p.record || jsonb_build_object(
         'contradicted', jsonb_build_object('at', (c.entry->>'at')::bigint, 'state', c.entry->>'state'),
         'version', p.version + 1, 'updatedAt', now_ms()),
       version = p.version + 1, updated_at = now_ms(), contradicted = true
     FROM (SELECT DISTINCT ON (payment_id) payment_id, entry FROM payment_history
           WHERE entry->>'kind' = 'contradiction' ORDER BY payment_id, seq DESC) c
     WHERE p.id = c.payment_id;`,
  // The console's count per filter, shown with every page: counting the payments on each page load read the whole
  // table (a year's ledger of 300,000 payments, 240 MB, ~60-100 ms a load, and more with every payment). Instead each
  // statement that writes payments adds what it changed to `payment_counts` (a trigger per statement, so the
  // counts move in the writer's transaction and stay exact), rows of (filter, change) only ever inserted, so two
  // writers never wait for each other's counter row; the prune folds them (postgres-store.ts). Filled in from the
  // payments already stored. The functions keep the schema's search_path, so that a statement from another session
  // (an operator's psql, another shop's schema on its path) counts into this schema's table.
  `CREATE FUNCTION payment_filters(tag text, late boolean, second boolean, refunded boolean, contradicted boolean,
       resolved boolean) RETURNS text[] LANGUAGE sql IMMUTABLE
     AS $$ SELECT array_remove(ARRAY['all', tag, CASE WHEN late THEN 'late' END, CASE WHEN second THEN 'second' END,
       CASE WHEN refunded THEN 'refunded' END, CASE WHEN contradicted THEN 'contradicted' END,
       CASE WHEN resolved THEN 'resolved' END], NULL) $$;
   CREATE TABLE payment_counts (filter text NOT NULL, n bigint NOT NULL);
   CREATE FUNCTION count_payments() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
   BEGIN
     IF TG_OP = 'TRUNCATE' THEN
       DELETE FROM payment_counts;
     ELSIF TG_OP = 'INSERT' THEN
       INSERT INTO payment_counts (filter, n)
         SELECT f, count(*) FROM added, unnest(payment_filters(tag, late, second, refunded, contradicted, resolved)) f
         GROUP BY f;
     ELSIF TG_OP = 'DELETE' THEN
       INSERT INTO payment_counts (filter, n)
         SELECT f, -count(*) FROM gone, unnest(payment_filters(tag, late, second, refunded, contradicted, resolved)) f
         GROUP BY f;
     ELSE
       -- Most updates move no filter (a payment still open, a version bump): nothing is written for them.
       INSERT INTO payment_counts (filter, n)
         SELECT f, sum(d) FROM (
           SELECT f, 1 AS d FROM added, unnest(payment_filters(tag, late, second, refunded, contradicted, resolved)) f
           UNION ALL
           SELECT f, -1 FROM gone, unnest(payment_filters(tag, late, second, refunded, contradicted, resolved)) f) c
         GROUP BY f HAVING sum(d) <> 0;
     END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER payments_counted_insert AFTER INSERT ON payments REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION count_payments();
   CREATE TRIGGER payments_counted_update AFTER UPDATE ON payments REFERENCING OLD TABLE AS gone NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION count_payments();
   CREATE TRIGGER payments_counted_delete AFTER DELETE ON payments REFERENCING OLD TABLE AS gone
     FOR EACH STATEMENT EXECUTE FUNCTION count_payments();
   CREATE TRIGGER payments_counted_truncate AFTER TRUNCATE ON payments FOR EACH STATEMENT EXECUTE FUNCTION count_payments();
   -- After the triggers: their lock waits for the writes of instances still on the release before, and holds the
   -- next ones until this commits, so each payment is counted here or by its write, never both or neither.
   INSERT INTO payment_counts (filter, n)
     SELECT f, count(*) FROM payments, unnest(payment_filters(tag, late, second, refunded, contradicted, resolved)) f
     GROUP BY f;`,
];

/** The newest schema version this release knows. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** A schema name the store accepts: a plain lower-case identifier, so that it is never quoted differently. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,47}$/;

/**
 * Brings `schema` to the newest version; safe to call from several processes at once. `open` gives the migration
 * a client of its own with one connection (migration-session.ts says why).
 */
export async function migrate(sql: Sql, schema: string, open: () => Sql): Promise<void> {
  // Every start but the first of a release finds the schema current, and is told so by one plain statement: a
  // transaction is opened only when there is work to do.
  if ((await recordedVersion(sql, schema)) === MIGRATIONS.length) return;
  // SCHEMA_NAME leaves nothing in a name that could close its quotes.
  const name = `"${schema}"`;
  await inMigrationTransaction(open, async (session) => {
    // A migration waits as long as it takes: for another process migrating (the advisory lock; the same key as
    // the releases before, so that they wait for each other too), and for the statements of instances still on the
    // old release to let go of the tables it alters.
    const [row] = await session.run(`SET LOCAL lock_timeout = 0;
      SELECT pg_advisory_xact_lock(hashtext('payin-checkout:${schema}'));
      CREATE SCHEMA IF NOT EXISTS ${name};
      CREATE TABLE IF NOT EXISTS ${name}.schema_migrations (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
      SELECT coalesce(max(version), 0)::int AS version FROM ${name}.schema_migrations`);
    const current = Number(row?.version ?? 0);
    if (current > MIGRATIONS.length) {
      throw new Error(
        `createPostgresStore: schema "${schema}" was written by a newer release (version ${current}); upgrade payin-checkout.`,
      );
    }
    // The connection's search_path is the schema, so the migrations name their tables without it.
    for (let version = current; version < MIGRATIONS.length; version++) {
      const migration = MIGRATIONS[version]!;
      await session.run(typeof migration === 'string' ? migration : migration.sql);
      if (typeof migration !== 'string') await migration.backfill(session);
      await session.run(`INSERT INTO ${name}.schema_migrations (version) VALUES (${version + 1})`);
    }
  });
}

/** The version `schema` records, read without a transaction; 0 when the schema or its table is not there yet. */
async function recordedVersion(sql: Sql, schema: string): Promise<number> {
  try {
    const [row] = await sql`SELECT coalesce(max(version), 0)::int AS version FROM ${sql(schema)}.schema_migrations`;
    return Number(row?.version ?? 0);
  } catch (error) {
    // undefined_table, invalid_schema_name: a database the store has not written yet.
    if (['42P01', '3F000'].includes(String((error as { code?: unknown }).code))) return 0;
    throw error;
  }
}
