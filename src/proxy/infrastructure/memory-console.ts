/**
 * The console's operations for the stores that hold their payments in this process (the memory store): the
 * listing and the counts are a scan and a sort per query, which is fine for the few thousand records a memory
 * store keeps; timelines and the audit log are bounded lists. The durable stores index instead (SQLite, Redis).
 */
import {
  type AuditEntry,
  compareListed,
  type ConsoleFilter,
  decodeCursor,
  HISTORY_LIMIT,
  type HistoryEntry,
  isStuck,
  listingOf,
  type PaymentPage,
  type PaymentQuery,
  pageOf,
  zeroCounts,
} from './console-store.js';
import type { PaymentRecord } from './store.js';

/** True when the record passes the filter at `now`; `failing` says whether its announcement keeps failing. */
export function passes(record: PaymentRecord, filter: ConsoleFilter, failing: boolean, now: number): boolean {
  if (filter === 'failing') return failing;
  if (filter === 'stuck') return isStuck(record, now);
  return (listingOf(record).tags as ConsoleFilter[]).includes(filter);
}

export function listScanned(records: Iterable<PaymentRecord>, failing: ReadonlySet<string>, query: PaymentQuery): PaymentPage {
  const after = decodeCursor(query.cursor);
  const rows = [];
  for (const record of records) {
    if (query.orderId !== undefined && record.view.orderId !== query.orderId) continue;
    if (!passes(record, query.filter, failing.has(record.view.id), query.now)) continue;
    const place = { listedAt: listingOf(record).listedAt, id: record.view.id };
    if (after && compareListed(after, place) >= 0) continue;
    rows.push({ place, record });
  }
  rows.sort((a, b) => compareListed(a.place, b.place));
  return pageOf(
    rows,
    query.limit,
    (row) => row.place,
    (row) => row.record,
  );
}

export function countScanned(records: Iterable<PaymentRecord>, failing: ReadonlySet<string>, now: number): Record<ConsoleFilter, number> {
  const counts = zeroCounts();
  for (const record of records) {
    for (const tag of listingOf(record).tags) counts[tag]++;
    if (isStuck(record, now)) counts.stuck++;
    if (failing.has(record.view.id)) counts.failing++;
  }
  return counts;
}

/** Timelines and the audit log in memory: a timeline per payment (the newest payments' first to stay), one log. */
export class MemoryConsoleLog {
  readonly #history = new Map<string, HistoryEntry[]>();
  readonly #audit: AuditEntry[] = [];

  constructor(private readonly maxPayments: number) {}

  appendHistory(paymentId: string, entry: HistoryEntry): void {
    const list = this.#history.get(paymentId) ?? [];
    this.#history.delete(paymentId);
    this.#history.set(paymentId, [...list, { ...entry }].slice(-HISTORY_LIMIT));
    while (this.#history.size > this.maxPayments) this.#history.delete(this.#history.keys().next().value!);
  }

  history(paymentId: string): HistoryEntry[] {
    return (this.#history.get(paymentId) ?? []).map((entry) => ({ ...entry }));
  }

  appendAudit(entry: AuditEntry): void {
    this.#audit.push({ ...entry });
  }

  audit(paymentId: string | undefined, limit: number): AuditEntry[] {
    const out: AuditEntry[] = [];
    for (let i = this.#audit.length - 1; i >= 0 && out.length < limit; i--) {
      const entry = this.#audit[i]!;
      if (paymentId === undefined || entry.paymentId === paymentId) out.push({ ...entry });
    }
    return out;
  }
}
