/**
 * The helpers of the operator console's store operations (declared as one block in store.ts, so that every
 * store, memory, SQLite, Redis and any added later, implements the same thing and runs the same contract suite,
 * test/proxy/infrastructure/console-store-contract.ts). The methods are optional on ProxyStore, so that a store
 * without them still serves shoppers; the console refuses to start on such a store (see `isConsoleStore`).
 *
 * The listing is newest first by `listedAt` (when the ledger first recorded the payment), then by id, paged by an
 * opaque cursor: a page never repeats or skips a payment that was already listed, however many arrive meanwhile.
 * Filters are outcomes (`open` = not final), `late` (paid after its expiry), `second` (a second paid payment
 * of an order: a refund to do), `refunded` (a second payment an operator marked refunded: done, and so no longer
 * under `second`, whose count is the refunds still to do), `contradicted` (a final payment the service, asked afresh,
 * contradicted: money came late or was reversed, to look into at the service), `resolved` (a contradiction an
 * operator marked dealt with: no longer under `contradicted`, whose count is the work left), `failing` (the
 * payment's current state, tried at least once, not taken by the shop's hook yet: a state the payment has left is
 * never told, outbox.ts, so its failures are over) and `stuck` (not final, past its expiry: the service has not said and no reconcile settled it). The last
 * two depend on the outbox and on the time, so a store answers them at query time; the others come from the
 * record alone (`listingOf`), so a store can index them when the record is written.
 */
import { parseTimestamp } from '../../shared/timestamps.js';
import { CONSOLE_FILTERS, type ConsoleFilter, type ConsoleStore, type PaymentPage, type PaymentRecord } from './store.js';

export { CONSOLE_FILTERS } from './store.js';
export type {
  AuditEntry,
  ConsoleFilter,
  ConsoleStore,
  HistoryEntry,
  PaymentPage,
  PaymentQuery,
  RefundMark,
  ResolutionMark,
} from './store.js';

export const HISTORY_LIMIT = 200;

export function isConsoleStore<T extends object>(store: T): store is T & ConsoleStore {
  const s = store as Partial<ConsoleStore>;
  return [s.listPayments, s.countPayments, s.appendHistory, s.paymentHistory, s.appendAudit, s.auditLog].every(
    (f) => typeof f === 'function',
  );
}

/** The filters that follow from the record alone (a store may index them). */
export type RecordFilter = Exclude<ConsoleFilter, 'failing' | 'stuck'>;

export interface Listing {
  /** Sort key, epoch ms. */
  listedAt: number;
  /** Epoch ms of the expiry, when known (for `stuck`). */
  expiresAt?: number;
  tags: RecordFilter[];
}

export function listingOf(record: PaymentRecord): Listing {
  const { view } = record;
  const listedAt = record.listedAt ?? parseTimestamp(view.createdAt) ?? record.updatedAt;
  const expiresAt = parseTimestamp(view.expiresAt);
  const tags: RecordFilter[] = ['all'];
  if (!view.final) tags.push('open');
  else if (view.outcome !== 'waiting' && view.outcome !== 'checking') tags.push(view.outcome);
  if (view.final && view.outcome === 'paid' && record.finalAt !== undefined && expiresAt !== undefined && record.finalAt > expiresAt) {
    tags.push('late');
  }
  if (record.secondPaymentOf !== undefined) tags.push(record.refunded ? 'refunded' : 'second');
  if (record.contradicted !== undefined) tags.push(isResolved(record) ? 'resolved' : 'contradicted');
  return expiresAt === undefined ? { listedAt, tags } : { listedAt, expiresAt, tags };
}

/**
 * True when an operator marked the record's newest contradiction dealt with (not an earlier one it replaced, even one
 * of the same state: a dispute opened again after the one resolved). A mark of the release before, which did not
 * say which contradiction it answers, answers those confirmed before it was made.
 */
export function isResolved(record: PaymentRecord): boolean {
  const { contradicted, contradictionResolved: mark } = record;
  if (!contradicted || !mark || mark.state !== contradicted.state) return false;
  return mark.contradictedAt === undefined ? mark.at >= contradicted.at : mark.contradictedAt === contradicted.at;
}

/** The record's one outcome filter: `open` until it is final, then its outcome (the SQL stores' `tag` column). */
export function tagOf(record: PaymentRecord): string {
  return record.view.final ? record.view.outcome : 'open';
}

/** Every filter at 0: the counts a store adds to. */
export function zeroCounts(): Record<ConsoleFilter, number> {
  return Object.fromEntries(CONSOLE_FILTERS.map((f) => [f, 0])) as Record<ConsoleFilter, number>;
}

/** True when the payment counts as stuck at `now`. */
export function isStuck(record: PaymentRecord, now: number): boolean {
  const expiresAt = parseTimestamp(record.view.expiresAt);
  return !record.view.final && expiresAt !== undefined && expiresAt < now;
}

/** The cursor is the last listed payment's place: `<listedAt>.<id>`, base64url so that it is opaque in a URL. */
export function encodeCursor(listedAt: number, id: string): string {
  return btoaUrl(JSON.stringify([listedAt, id]));
}

export function decodeCursor(cursor: string | undefined): { listedAt: number; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [listedAt, id] = JSON.parse(atobUrl(cursor)) as unknown[];
    if (typeof listedAt === 'number' && Number.isFinite(listedAt) && typeof id === 'string') return { listedAt, id };
  } catch {
    // fall through: a cursor the store did not write
  }
  throw new RangeError('not a cursor this store wrote');
}

/**
 * The page of a listing from the `limit + 1` rows a store read after the cursor, newest first: the extra row only
 * says that there is a next page, whose cursor is the last listed row's place.
 */
export function pageOf<T>(
  rows: T[],
  limit: number,
  placeOf: (row: T) => { listedAt: number; id: string },
  recordOf: (row: T) => PaymentRecord,
): PaymentPage {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const payments = page.map(recordOf);
  if (rows.length <= limit || last === undefined) return { payments };
  const place = placeOf(last);
  return { payments, next: encodeCursor(place.listedAt, place.id) };
}

/** Newest first: a larger listedAt first, then the larger id. */
export function compareListed(a: { listedAt: number; id: string }, b: { listedAt: number; id: string }): number {
  return b.listedAt - a.listedAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function btoaUrl(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function atobUrl(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
