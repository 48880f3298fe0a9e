/**
 * The console page's calls to its JSON API, under the base the server wrote into the page: reads are GETs, actions
 * POSTs with the CSRF token that the session answer gave (console-guard.ts on the server). A non-2xx answer
 * becomes a ConsoleCallError with the server's message and code (and a refusal's facts, which the page may word
 * in its own language instead).
 */
import type { ActionOutcome } from '../console-api/console-actions.js';
import type { ConsoleRow } from '../console-api/console-rows.js';
import type { HistoryEntry } from '../proxy/infrastructure/console-store.js';

export class ConsoleCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The refusal's facts beside its code (who marked a refund, and when). */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** The wire shapes are the server's own (type-only imports: nothing of the server enters the page's script). */
export type Row = ConsoleRow;
export type { HistoryEntry };

export interface ListAnswer {
  payments: Row[];
  next?: string;
  counts: Record<string, number>;
}

export interface PaymentAnswer {
  payment: Row;
  history: HistoryEntry[];
  audit: { at: number; operator: string; action: string; result: string }[];
  announcement: { state: string; announced: boolean; failing: boolean };
  order: { orderId: string; paidBy?: string; payments: Row[] };
}

/** What an operator can do to one payment (console-api/console-actions.ts). */
export type ConsoleAction = 'recheck' | 'redeliver' | 'mark-refunded' | 'mark-resolved';

/**
 * What an action answers: `result` in English always; the outcome to word in the page's language from a server
 * that gives it (an older one, during a rolling upgrade, gives `result` alone).
 */
export type ActionAnswer = { result: string; audited?: boolean } & (ActionOutcome | { outcome?: undefined });

/** Answers of one export followed at most (10,000 rows each): a bound on a loop that a broken cursor could make endless. */
const MAX_EXPORT_ANSWERS = 1_000;

export class ConsoleClient {
  #csrf = '';

  constructor(private readonly base: string) {}

  async session(): Promise<{ operator: string; filters: string[]; signOut: boolean }> {
    const answer = await this.#call<{ operator: string; csrf: string; filters: string[]; signOut: boolean }>('GET', '/api/session');
    this.#csrf = answer.csrf;
    return answer;
  }

  list(filter: string, q: string, cursor?: string): Promise<ListAnswer> {
    const params = new URLSearchParams({ filter, limit: '50' });
    if (q) params.set('q', q);
    if (cursor) params.set('cursor', cursor);
    return this.#call('GET', `/api/payments?${params}`);
  }

  payment(id: string): Promise<PaymentAnswer> {
    return this.#call('GET', `/api/payments/${encodeURIComponent(id)}`);
  }

  /** An action on a payment; `fields` is its form (mark-refunded's reference). */
  async act(id: string, action: ConsoleAction, fields: Record<string, string> = {}): Promise<ActionAnswer> {
    const form = new URLSearchParams(fields).toString();
    const response = await this.#fetch('POST', `/api/payments/${encodeURIComponent(id)}/${action}`, form);
    return (await response.json()) as ActionAnswer;
  }

  /** The whole list as one CSV file: a long one comes in several answers, each naming the cursor of the rest. */
  async exportCsv(filter: string, q: string): Promise<Blob> {
    const parts: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < MAX_EXPORT_ANSWERS; i++) {
      const form = new URLSearchParams({ filter, ...(q ? { q } : {}), ...(cursor ? { cursor } : {}) });
      const response = await this.#fetch('POST', '/api/export', form.toString());
      const csv = await response.text();
      // Every answer starts with the header line: the file keeps the first one.
      parts.push(i === 0 ? csv : csv.slice(csv.indexOf('\r\n') + 2));
      cursor = response.headers.get('x-payin-next');
      if (!cursor) break;
    }
    return new Blob(parts, { type: 'text/csv;charset=utf-8' });
  }

  async signOut(): Promise<void> {
    await this.#fetch('POST', '/logout');
  }

  async #call<T>(method: string, path: string): Promise<T> {
    return (await (await this.#fetch(method, path)).json()) as T;
  }

  async #fetch(method: string, path: string, body?: string): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method === 'POST') {
      headers['x-payin-csrf'] = this.#csrf;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const response = await fetch(`${this.base}${path}`, { method, headers, credentials: 'same-origin', ...(body ? { body } : {}) });
    if (!response.ok) {
      let error: { message?: string; code?: string } & Record<string, unknown> = {};
      try {
        error = ((await response.json()) as { error?: typeof error }).error ?? {};
      } catch {
        // not JSON: the status says enough
      }
      const { message = `${response.status}`, code, ...detail } = error;
      throw new ConsoleCallError(response.status, message, code, detail);
    }
    return response;
  }
}
