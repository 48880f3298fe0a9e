/**
 * How the proxy's signed POSTs reach the payment service and how their answers come back: read whole, with
 * only what the upstream client looks at (the status, the Signature header, the bytes). Over a Fetch function
 * (`options.fetch`, or globalThis.fetch where nothing better exists), or over node:http on Node
 * (node-transport.ts), where building a Fetch Response for each answer would cost more than the rest of its
 * handling. Either stops reading an answer past MAX_ANSWER_BYTES (a BodyTooLargeError): whatever answers at the
 * service's address is read before its signature can be checked, and an endless body must not fill the memory.
 * Neither follows a redirect: fetch would send the signed body, its Signature (and, to the same origin, the
 * token) on to wherever a 3xx points, and Bun's, Deno's and workerd's fetch follow by default.
 */
import { readBody } from '../../shared/body.js';

/** Far above any real answer (a status batch of 50 payments, each capped at a callback's 64 KiB, is 3.2 MiB). */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export interface ServiceAnswer {
  status: number;
  /** A header of the answer, as Headers.get gives it. */
  header(name: string): string | null;
  bytes: Uint8Array;
}

export interface ServicePost {
  headers: Record<string, string>;
  body: Uint8Array;
  signal: AbortSignal;
}

export type ServiceTransport = (url: string, post: ServicePost) => Promise<ServiceAnswer>;

export function fetchTransport(fetchImpl: typeof fetch): ServiceTransport {
  return async (url, { headers, body, signal }) => {
    const response = await fetchImpl(url, { method: 'POST', headers, body: body as Uint8Array<ArrayBuffer>, signal, redirect: 'manual' });
    const bytes = await readBody(response, MAX_ANSWER_BYTES);
    return { status: response.status, header: (name) => response.headers.get(name), bytes };
  };
}
