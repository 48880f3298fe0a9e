// A year or two of a shop's ledger in the PostgreSQL store's tables, written by bulk INSERTs of rows of the shape the
// store writes (the record and the listing columns that postgres-listing.ts derives from it): for the tests that
// hold the store's queries to their indexes at scale (test/postgres/postgres-scale.test.ts) and for the bench
// (bench/postgres-console.mjs). Payment i of `payments` is listed 105 s after payment i - 1, the newest `now - 105 s`:
//   kind = i % 1000: 0-9 open (half of them past their expiry: stuck), 10-29 paid late, 30-39 second payments (every
//   other one marked refunded), 40-43 contradicted, 44-45 resolved, 46-145 expired, 146-195 underpaid, 196-245
//   failed, the rest paid. The first 15,000 payments are 5,000 orders of three payments each; the others one each.
// Every final payment's announcement was taken, except kinds 246-247 (two tries, not taken: failing) and 248 (due);
// every payment has three timeline lines, and one in 20 an operator's audit line (one in 200 an audit line of none).

/** The schema must exist at the store's newest version (call the store's ready() first) and be empty. */
export async function fillLedger(sql, schema, { payments, now }) {
  const s = sql(schema);
  const n = payments;
  await sql`
    INSERT INTO ${s}.payments (id, version, record, final, follow_until, updated_at, listed_at, order_id, tag, late,
      second, refunded, expires_at, contradicted, resolved)
    SELECT id, 1, record, final, follow_until, listed_at, listed_at, order_id, tag, kind BETWEEN 10 AND 29,
      kind BETWEEN 30 AND 39 AND kind % 2 = 0, kind BETWEEN 30 AND 39 AND kind % 2 = 1, expires_at,
      kind BETWEEN 40 AND 43, kind BETWEEN 44 AND 45
    FROM (
      SELECT *, jsonb_build_object(
          'view', jsonb_build_object('id', id, 'orderId', order_id, 'method', 'upi', 'state', state, 'outcome', outcome,
            'final', final, 'amount', '499.00', 'currency', 'INR', 'createdAt', to_char(to_timestamp(listed_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'expiresAt', to_char(to_timestamp(expires_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
          'priced', jsonb_build_object('amount', '499.00', 'currency', 'INR'),
          'version', 1, 'updatedAt', listed_at, 'listedAt', listed_at)
        || CASE WHEN final THEN jsonb_build_object('finalAt', final_at) ELSE jsonb_build_object('followUntil', follow_until) END
        || CASE WHEN kind BETWEEN 30 AND 39 THEN jsonb_build_object('secondPaymentOf', 'p' || lpad((i - 1)::text, 8, '0')) ELSE '{}' END
        || CASE WHEN kind BETWEEN 30 AND 39 AND kind % 2 = 1
             THEN jsonb_build_object('refunded', jsonb_build_object('at', final_at, 'operator', 'ana', 'reference', 're_' || i)) ELSE '{}' END
        || CASE WHEN kind BETWEEN 40 AND 45 THEN jsonb_build_object('contradicted', jsonb_build_object('at', final_at, 'state', 'refunded')) ELSE '{}' END
        || CASE WHEN kind BETWEEN 44 AND 45
             THEN jsonb_build_object('contradictionResolved', jsonb_build_object('at', final_at + 1, 'operator', 'ana', 'state', 'refunded', 'contradictedAt', final_at))
             ELSE '{}' END AS record
      FROM (
        SELECT *, CASE WHEN final THEN outcome ELSE 'open' END AS tag,
          CASE outcome WHEN 'waiting' THEN 'pending' WHEN 'expired' THEN 'expired' WHEN 'failed' THEN 'failed' ELSE 'finished' END AS state,
          CASE WHEN final THEN NULL ELSE expires_at + 1800000 END AS follow_until,
          CASE WHEN kind BETWEEN 10 AND 29 THEN expires_at + 60000 ELSE listed_at + 60000 END AS final_at
        FROM (
          SELECT *, outcome <> 'waiting' AS final,
            CASE WHEN kind < 10 AND kind % 2 = 0 THEN ${now}::bigint + 600000 ELSE listed_at + 900000 END AS expires_at
          FROM (
            SELECT i, kind, 'p' || lpad(i::text, 8, '0') AS id, ${now}::bigint - (${n}::bigint - i) * 105000 AS listed_at,
              'order-' || CASE WHEN i < 15000 THEN i / 3 ELSE i END AS order_id,
              CASE WHEN kind < 10 THEN 'waiting' WHEN kind BETWEEN 46 AND 145 THEN 'expired'
                WHEN kind BETWEEN 146 AND 195 THEN 'underpaid' WHEN kind BETWEEN 196 AND 245 THEN 'failed' ELSE 'paid' END AS outcome
            FROM generate_series(0, ${n - 1}) AS i, LATERAL (SELECT i % 1000 AS kind) k
          ) base
        ) timed
      ) tagged
    ) rows`;
  await sql`
    INSERT INTO ${s}.orders (order_id, record, paid, updated_at)
    SELECT order_id, jsonb_build_object('orderId', order_id, 'paidBy', min(id)), true, max(listed_at)
    FROM ${s}.payments GROUP BY order_id`;
  await sql`
    INSERT INTO ${s}.announcements (payment_id, state, announced, attempts, due_at)
    SELECT id, record->'view'->>'state', NOT (i % 1000 BETWEEN 246 AND 248), CASE WHEN i % 1000 IN (246, 247) THEN 2 ELSE 0 END,
      listed_at + 60000
    FROM (SELECT id, listed_at, substr(id, 2)::int AS i, record FROM ${s}.payments WHERE final) p`;
  await sql`
    INSERT INTO ${s}.payment_history (payment_id, entry)
    SELECT id, jsonb_build_object('at', listed_at + line * 30000, 'kind', 'state', 'state', 'pending', 'source', 'callback')
    FROM ${s}.payments, generate_series(1, 3) AS line ORDER BY listed_at, line`;
  await sql`
    INSERT INTO ${s}.audit (payment_id, entry)
    SELECT CASE WHEN i % 200 = 0 THEN NULL ELSE 'p' || lpad(i::text, 8, '0') END,
      jsonb_build_object('at', ${now}::bigint - (${n}::bigint - i) * 105000, 'operator', 'ana', 'action', 'note')
    FROM generate_series(0, ${n - 1}, 20) AS i`;
  await sql.unsafe(
    `VACUUM ANALYZE ${schema}.payments, ${schema}.orders, ${schema}.announcements, ${schema}.payment_history, ${schema}.audit`,
  );
}
