/**
 * Which payment, and which order, a request turned out to be about, for the log line of a failure that ends it
 * (http/errors.ts). That line named the cause alone ("the payment service could not be used just now"): a callback
 * the proxy could not confirm during an outage, or a checkout's status call, left the operator no way to tell which
 * payment was stuck. A route names its subject once something vouches for it (a verified Signature, the token issued
 * for the payment, an order the shop priced), never from what a stranger typed: each subject has lines of its own,
 * which the log's folding (infrastructure/folded-repeats.ts) counts per payment, so ids made up by the thousand
 * must not reach it. Ids only: never a token, a signature or a body.
 */
import type { ProxyRequest } from './exchange.js';

export interface RequestSubject {
  paymentId?: string;
  orderId?: string;
}

const subjects = new WeakMap<ProxyRequest, RequestSubject>();

/** Names what `request` is about; what is known already is kept where `subject` leaves it out. */
export function rememberSubject(request: ProxyRequest, subject: RequestSubject): void {
  const known = { ...subjects.get(request) };
  if (subject.paymentId !== undefined) known.paymentId = subject.paymentId;
  if (subject.orderId !== undefined) known.orderId = subject.orderId;
  subjects.set(request, known);
}

/** What `request` was found to be about: fields for a log line, none when nothing vouched for a subject. */
export function subjectOf(request: ProxyRequest): RequestSubject {
  return subjects.get(request) ?? {};
}
