/**
 * What the console shows of a payment, and the CSV of a list: the browser's view of it plus the ledger's own
 * marks (late, second payment and its refund mark, a contradiction of the service and its resolution, stuck, failing
 * announcement). Nothing secret is in a payment record, and nothing
 * of the proxy's configuration (service token, keys, webhook secret, merchant id) is ever added here.
 */
import { isStuck, listingOf } from '../proxy/infrastructure/console-store.js';
import type { PaymentRecord, RefundMark, ResolutionMark } from '../proxy/infrastructure/store.js';

export interface ConsoleRow {
  id: string;
  orderId: string;
  method: string;
  state: string;
  outcome: string;
  final: boolean;
  amount: string;
  initAmount?: string;
  currency: string;
  priced: string;
  /**
   * The price's own currency: a service may report a payment paid in another (499 roubles for an order priced
   * 499 rupees, which is underpaid), and the price written in the payment's currency would read as covered.
   */
  pricedCurrency: string;
  createdAt?: string;
  expiresAt?: string;
  listedAt: number;
  updatedAt: number;
  requisites?: { address: string; recipient?: string; bank?: string };
  secondPaymentOf?: string;
  /** An operator marked this second payment refunded: who, when, the refund's reference. */
  refunded?: RefundMark;
  /** The service contradicted the final state the shop was told: what it now says, and when that was confirmed. */
  contradicted?: { at: number; state: string };
  /** An operator marked that contradiction dealt with: who, when, the note (absent while it is still to look into). */
  resolved?: ResolutionMark;
  late: boolean;
  stuck: boolean;
}

/** The operator's mark as the console shows it: which contradiction it answers is the store's business. */
function resolutionOf({ contradictedAt: _, ...shown }: ResolutionMark): Omit<ResolutionMark, 'contradictedAt'> {
  return shown;
}

export function rowOf(record: PaymentRecord, now: number): ConsoleRow {
  const { view } = record;
  const { listedAt, tags } = listingOf(record);
  return {
    id: view.id,
    orderId: view.orderId,
    method: view.method,
    state: view.state,
    outcome: view.outcome,
    final: view.final,
    amount: view.amount,
    ...(view.initAmount === undefined ? {} : { initAmount: view.initAmount }),
    currency: view.currency,
    priced: record.priced.amount,
    pricedCurrency: record.priced.currency,
    ...(view.createdAt === undefined ? {} : { createdAt: view.createdAt }),
    ...(view.expiresAt === undefined ? {} : { expiresAt: view.expiresAt }),
    listedAt,
    updatedAt: record.updatedAt,
    ...(view.requisites ? { requisites: { ...view.requisites } } : {}),
    ...(record.secondPaymentOf === undefined ? {} : { secondPaymentOf: record.secondPaymentOf }),
    ...(record.refunded ? { refunded: { ...record.refunded } } : {}),
    ...(record.contradicted ? { contradicted: { at: record.contradicted.at, state: record.contradicted.state } } : {}),
    ...(tags.includes('resolved') ? { resolved: resolutionOf(record.contradictionResolved!) } : {}),
    late: tags.includes('late'),
    stuck: isStuck(record, now),
  };
}

const CSV_COLUMNS = [
  'id',
  'orderId',
  'method',
  'state',
  'outcome',
  'amount',
  'currency',
  'priced',
  'createdAt',
  'expiresAt',
  'secondPaymentOf',
  // Last, so that a sheet built on the earlier columns still reads them where they were.
  'pricedCurrency',
  // A second payment an operator marked refunded: when (ISO), who, and the refund's reference at the service.
  'refundedAt',
  'refundedBy',
  'refundReference',
  // A final payment the service contradicted: what it now says, and, once an operator marked it dealt with, who and
  // when, and their note.
  'contradictedState',
  'resolvedAt',
  'resolvedBy',
  'resolutionNote',
] as const;

/** A row's cells by column: its own fields, and the refund and resolution marks spread over their columns. */
function cellsOf(row: ConsoleRow): Partial<Record<(typeof CSV_COLUMNS)[number], unknown>> {
  const { refunded, resolved } = row;
  return {
    ...row,
    refundedAt: refunded && new Date(refunded.at).toISOString(),
    refundedBy: refunded?.operator,
    refundReference: refunded?.reference,
    contradictedState: row.contradicted?.state,
    resolvedAt: resolved && new Date(resolved.at).toISOString(),
    resolvedBy: resolved?.operator,
    resolutionNote: resolved?.note,
  };
}

/**
 * RFC 4180 CSV; a cell that a spreadsheet would run as a formula (=, +, -, @) is quoted with a leading apostrophe.
 * So is each part of a cell after a `;`: Excel in a locale whose list separator is `;` (Russian, German) splits the
 * whole line there, quotes or not (the quotes of a cell after a `,` are no cell's start then), so an order id
 * `A;=1+2` would have been a cell `A` and a formula.
 */
export function csvOf(rows: readonly ConsoleRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const cells = cellsOf(row);
    lines.push(CSV_COLUMNS.map((column) => csvCell(cells[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvCell(value: unknown): string {
  const text = (value === undefined ? '' : String(value)).split(';').map(defused).join(';');
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * `text` with an apostrophe before it when a spreadsheet would take it for a formula, also behind spaces or quotes
 * (a part after a `;` is read from the quoted cell as it is written, its `"` doubled); a plain number stays.
 */
function defused(text: string): string {
  return /^[\s"]*[=+\-@]|^[\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
}
