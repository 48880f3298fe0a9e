/**
 * The console's listing columns of the payments table (console-store.ts): the sort key, the order, the outcome
 * filter, the late, second-payment, refunded, contradicted and resolved flags and the expiry, all from `listingOf`,
 * so that PostgreSQL files a payment under the same filters as every other store. They are written in the statement that writes the record
 * (postgres-store.ts), and filled in by migration 2 for the payments written before it, with the same function
 * rather than a SQL copy of it: a timestamp SQL would read differently (or refuse) lists the payment the same.
 */
import { listingOf, tagOf } from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord } from '../proxy/infrastructure/store.js';
import { type MigrationSession, textLiteral } from './migration-session.js';

export interface ListingColumns {
  listed_at: number;
  order_id: string;
  /** `open`, or the final outcome (`paid`, `underpaid`, `superseded`, `expired`, `failed`). */
  tag: string;
  late: boolean;
  /** A second payment whose refund is to do. */
  second: boolean;
  /** A second payment an operator marked refunded (no longer `second`). Column of migration 3. */
  refunded: boolean;
  expires_at: number | null;
  /** A final payment the service contradicted, to look into. Column of migration 4. */
  contradicted: boolean;
  /** A contradiction an operator marked resolved (no longer `contradicted`). Column of migration 4. */
  resolved: boolean;
}

export function listingColumns(record: PaymentRecord): ListingColumns {
  const { listedAt, expiresAt, tags } = listingOf(record);
  return {
    listed_at: listedAt,
    order_id: record.view.orderId,
    tag: tagOf(record),
    late: tags.includes('late'),
    second: tags.includes('second'),
    refunded: tags.includes('refunded'),
    expires_at: expiresAt ?? null,
    contradicted: tags.includes('contradicted'),
    resolved: tags.includes('resolved'),
  };
}

/** Rows read and written per round of the back-fill: bounded memory whatever the table holds. */
const BATCH = 500;

/** Fills the listing columns of every payment, in id order, a batch per UPDATE (inside the migration's transaction). */
export async function backfillListing(session: MigrationSession): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await session.run(
      `SELECT id, record::text AS json FROM payments WHERE id > ${textLiteral(after)} COLLATE "C" ORDER BY id LIMIT ${BATCH}`,
    );
    if (rows.length === 0) return;
    const values = rows.map((row) => ({ id: String(row.id), ...listingColumns(JSON.parse(row.json) as PaymentRecord) }));
    await session.run(`UPDATE payments p SET listed_at = v.listed_at, order_id = v.order_id, tag = v.tag, late = v.late,
        second = v.second, expires_at = v.expires_at
      FROM jsonb_to_recordset(${textLiteral(JSON.stringify(values))}::jsonb)
        AS v(id text, listed_at bigint, order_id text, tag text, late boolean, second boolean, expires_at bigint)
      WHERE p.id = v.id COLLATE "C"`);
    after = String(rows[rows.length - 1]!.id);
    if (rows.length < BATCH) return;
  }
}
