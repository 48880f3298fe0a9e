/**
 * The console page's calls to its JSON API, under the base the server wrote into the page: reads are GETs, actions
 * POSTs with the CSRF token that the session answer gave (console-guard.ts on the server). A non-2xx answer
 * becomes a ConsoleCallError with the server's message, which the page shows as it is.
 */
export class ConsoleCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Row {
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
  createdAt?: string;
  expiresAt?: string;
  listedAt: number;
  requisites?: { address: string; recipient?: string; bank?: string };
  secondPaymentOf?: string;
  late: boolean;
  stuck: boolean;
}

export interface ListAnswer {
  payments: Row[];
  next?: string;
  counts: Record<string, number>;
}

export type HistoryEntry =
  | { at: number; kind: 'state'; state: string; outcome: string; source: string }
  | { at: number; kind: 'announcement'; state: string; ok: boolean; error?: string; redelivery?: boolean };

export interface PaymentAnswer {
  payment: Row;
  history: HistoryEntry[];
  audit: { at: number; operator: string; action: string; result: string }[];
  announcement: { state: string; announced: boolean; failing: boolean };
  order: { orderId: string; paidBy?: string; payments: Row[] };
}

export class ConsoleClient {
  #csrf = '';

  constructor(private readonly base: string) {}

  async session(): Promise<{ operator: string; filters: string[] }> {
    const answer = await this.#call<{ operator: string; csrf: string; filters: string[] }>('GET', '/api/session');
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

  act(id: string, action: 'recheck' | 'redeliver'): Promise<{ result: string }> {
    return this.#call('POST', `/api/payments/${encodeURIComponent(id)}/${action}`);
  }

  async exportCsv(filter: string, q: string): Promise<Blob> {
    const response = await this.#fetch('POST', '/api/export', new URLSearchParams({ filter, ...(q ? { q } : {}) }).toString());
    return response.blob();
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
      let message = `${response.status}`;
      try {
        message = ((await response.json()) as { error?: { message?: string } }).error?.message ?? message;
      } catch {
        // not JSON: the status says enough
      }
      throw new ConsoleCallError(response.status, message);
    }
    return response;
  }
}
