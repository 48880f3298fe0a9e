/**
 * What the sandbox tests share: a sandbox on a ManualClock whose callbacks go nowhere unless a test says
 * otherwise, signed requests built the way a merchant builds them, and a reader that verifies an answer's
 * Signature before it trusts the body.
 */
import { expect } from 'vitest';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { signBody, verifySignature } from '../../src/shared/hmac.js';
import { createSandbox, DEMO_MERCHANT, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const BASE = 'http://127.0.0.1:4010';
export const CALLBACK = 'http://127.0.0.1:9/payin/callback';

export interface Setup {
  sandbox: Sandbox;
  clock: ManualClock;
  /** Every callback the stub fetch was asked to send. */
  sent: { url: string; body: string; signature: string | null }[];
}

/** A sandbox on a ManualClock; callbacks go to a stub that answers 200 unless `fetch` is given. */
export function setup(options: SandboxOptions = {}): Setup {
  const clock = new ManualClock();
  const sent: Setup['sent'] = [];
  const stub: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ url: String(input), body: String(init?.body), signature: headers.get('signature') });
    return new Response('ok');
  };
  const sandbox = createSandbox({ clock, fetch: stub, ...options });
  return { sandbox, clock, sent };
}

export interface Credentials {
  token?: string | null;
  secret?: string;
  signature?: string | null;
  contentType?: string | null;
}

/** A POST the way a merchant sends it: Bearer token and the HMAC of the exact body text. */
export async function signedRequest(path: string, body: unknown, credentials: Credentials = {}): Promise<Request> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = new Headers();
  const contentType = credentials.contentType === undefined ? 'application/json' : credentials.contentType;
  if (contentType !== null) headers.set('content-type', contentType);
  const token = credentials.token === undefined ? DEMO_MERCHANT.token : credentials.token;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  const signature =
    credentials.signature === undefined ? await signBody(credentials.secret ?? DEMO_MERCHANT.secret, text) : credentials.signature;
  if (signature !== null) headers.set('signature', signature);
  return new Request(`${BASE}${path}`, { method: 'POST', headers, body: text });
}

export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: '250.00',
    orderId: 'A-1001',
    currency: 'INR',
    method: 'upi',
    merchantId: DEMO_MERCHANT.id,
    callbackUri: CALLBACK,
    ...overrides,
  };
}

/** Reads a JSON answer after checking that its Signature is the HMAC of exactly its bytes. */
export async function readSigned(response: Response, secret: string = DEMO_MERCHANT.secret): Promise<any> {
  const text = await response.text();
  const signature = response.headers.get('signature');
  expect(signature, 'the answer carries a Signature').toMatch(/^[0-9a-f]{64}$/);
  expect(await verifySignature(secret, text, signature)).toBe(true);
  return JSON.parse(text);
}

/**
 * Reads the service's refusal of what a known merchant asked: HTTP 200, signed, `{status: false, code, message}`
 * with this code (the HTTP status the refusal would have had).
 */
export async function readRefused(response: Response, code: 400 | 404, secret: string = DEMO_MERCHANT.secret): Promise<any> {
  expect(response.status, 'a refusal of what was asked comes with HTTP 200').toBe(200);
  const body = await readSigned(response, secret);
  expect(body).toMatchObject({ status: false, code });
  expect(typeof body.message).toBe('string');
  return body;
}

/** Reads a refusal of an unauthenticated request: an empty Signature and `{status: false, code, message}`. */
export async function readRefusal(response: Response): Promise<{ status: false; code: number; message: string }> {
  const body = await response.json();
  expect(body.status).toBe(false);
  expect(Number.isInteger(body.code)).toBe(true);
  expect(typeof body.message).toBe('string');
  return body;
}

/** Creates a payment through the API and returns its id. */
export async function createPayment(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await sandbox(await signedRequest('/api/v2/payments', createBody(overrides)));
  expect(response.status).toBe(200);
  const body = await readSigned(response);
  return body.result?.id ?? body.id;
}

export async function status(sandbox: Sandbox, query: Record<string, unknown>): Promise<Response> {
  return sandbox(await signedRequest('/api/v2/status', { merchantId: DEMO_MERCHANT.id, ...query }));
}

export function control(path: string, init: RequestInit = {}): Request {
  return new Request(`${BASE}${path}`, init);
}

/** Waits (at most 2 s of real time) for work that is on its way but not on the clock, such as signing. */
export async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition(), 'the awaited condition came true within 2 s').toBe(true);
}
