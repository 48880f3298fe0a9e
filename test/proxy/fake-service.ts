/**
 * A scripted stand-in for the payment service, injected as the proxy's `fetch`: it records every request the
 * proxy sends (exact body text and headers), keeps payments it created, answers signed like the real service,
 * and lets a test replace any answer. The sandbox integration tests cover the real emulation; this one makes
 * rules about what is sent and how answers are read checkable without sockets.
 */
import { signBody } from '../../src/shared/hmac.js';

export const SECRET = 'test-secret';
export const MERCHANT = 'm-1';
export const TOKEN = 'bearer-1';
export const BASE_URL = 'http://service.test';

export interface SentRequest {
  path: string;
  text: string;
  body: Record<string, unknown>;
  headers: Headers;
}

export type Answer = { status?: number; body: unknown; signature?: string | null } | 'network-error' | 'hang';

export interface ServicePayment {
  id: string;
  orderId: string;
  state: string;
  amount: string;
  init_amount: string;
  currency: string;
  method: string;
  created_at: string;
  expired_at: string;
  userId: string;
  commission: number;
  rate: number;
  requisites?: { address: string; recipient?: string; bank?: string };
  [key: string]: unknown;
}

export class FakeService {
  readonly sent: SentRequest[] = [];
  readonly payments = new Map<string, ServicePayment>();
  /** Replace to script an answer; return undefined for the default behaviour. */
  onCreate: (body: Record<string, unknown>) => Answer | undefined | Promise<Answer | undefined> = () => undefined;
  onStatus: (body: Record<string, unknown>) => Answer | undefined | Promise<Answer | undefined> = () => undefined;
  createShape: 'envelope' | 'payment' = 'envelope';
  #next = 1;

  get creates(): SentRequest[] {
    return this.sent.filter((r) => r.path === '/api/v2/payments');
  }

  get statuses(): SentRequest[] {
    return this.sent.filter((r) => r.path === '/api/v2/status');
  }

  /** Status calls about one payment (not the look-ups by order the proxy makes before a first create). */
  get paymentStatuses(): SentRequest[] {
    return this.statuses.filter((r) => (r.body as Record<string, unknown>).orderId === undefined);
  }

  /** Look-ups by order. */
  get orderLookups(): SentRequest[] {
    return this.statuses.filter((r) => (r.body as Record<string, unknown>).orderId !== undefined);
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const text = new TextDecoder().decode(init?.body as Uint8Array);
    const body = JSON.parse(text) as Record<string, unknown>;
    this.sent.push({ path: url.pathname, text, body, headers: new Headers(init?.headers) });
    const scripted = url.pathname === '/api/v2/payments' ? await this.onCreate(body) : await this.onStatus(body);
    const answer = scripted ?? (url.pathname === '/api/v2/payments' ? this.#create(body) : this.#status(body));
    if (answer === 'network-error') throw new TypeError('fetch failed');
    if (answer === 'hang') {
      return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }
    const out = JSON.stringify(answer.body);
    const signature = answer.signature === undefined ? await signBody(SECRET, out) : answer.signature;
    const headers = new Headers({ 'content-type': 'application/json' });
    if (signature !== null) headers.set('signature', signature);
    return new Response(out, { status: answer.status ?? 200, headers });
  };

  /** Creates a payment as the service would and returns it. */
  add(fields: Partial<ServicePayment> & { orderId: string }): ServicePayment {
    const id = `pay${String(this.#next++).padStart(10, '0')}`;
    const payment: ServicePayment = {
      id,
      state: 'pending',
      amount: '250.00',
      init_amount: '250.00',
      currency: 'INR',
      method: 'upi',
      created_at: '2026-01-15T10:00:00.000000Z',
      expired_at: '2026-01-15T10:15:00.000000Z',
      userId: 'user-7',
      commission: 2.5,
      rate: 1,
      requisites: { address: 'shop@okbank', recipient: 'Shop Ltd', bank: 'OK Bank' },
      ...fields,
    };
    this.payments.set(id, payment);
    return payment;
  }

  set(id: string, fields: Partial<ServicePayment>): void {
    Object.assign(this.payments.get(id)!, fields);
  }

  #create(body: Record<string, unknown>): Answer {
    const p = this.add({
      orderId: String(body.orderId),
      amount: String(body.amount),
      init_amount: String(body.amount),
      currency: String(body.currency),
      method: String(body.method),
    });
    if (this.createShape === 'payment') return { body: p };
    const { requisites } = p;
    return {
      body: {
        status: true,
        result: { id: p.id, state: 'created', amount: p.amount, ...requisites, rate: 1 },
        url: `https://pay.test/${p.id}`,
      },
    };
  }

  #status(body: Record<string, unknown>): Answer {
    if (typeof body.paymentId === 'string') {
      const p = this.payments.get(body.paymentId);
      return p ? { body: p } : { status: 404, body: { status: false, code: 404, message: 'not found' } };
    }
    if (Array.isArray(body.paymentIds)) {
      const ids = new Set(body.paymentIds);
      return { body: [...this.payments.values()].filter((p) => ids.has(p.id)) };
    }
    const list = [...this.payments.values()].filter((p) => p.orderId === body.orderId);
    return list.length ? { body: list } : { status: 404, body: { status: false, code: 404, message: 'not found' } };
  }
}
