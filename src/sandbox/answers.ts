/**
 * How the sandbox writes a JSON answer. The service's own routes sign every answer over its exact bytes with the
 * merchant's secret, in a `Signature` header; until the caller has proved who it is (and for a merchant the
 * service holds no secret for) that header is present but EMPTY, which no receiver may accept. The sandbox's
 * own routes (/sandbox/*) belong to no merchant and carry no Signature at all.
 */
import { signBody } from '../shared/hmac.js';

export interface AnswerScope {
  /** True on the service's routes: the answer carries a `Signature` header. */
  signed: boolean;
  /** The key to sign with once the caller is authenticated; empty or absent gives an empty Signature. */
  secret?: string;
  /** True once the service's route knows the merchant: its refusals of what was asked come with HTTP 200. */
  authenticated?: boolean;
}

export const API_SCOPE = (): AnswerScope => ({ signed: true });
export const CONTROL_SCOPE = (): AnswerScope => ({ signed: false });

/** Answers `text` as it is: the bytes that are signed are exactly the bytes that are sent. */
export async function textAnswer(
  status: number,
  text: string,
  scope: AnswerScope,
  headers: Record<string, string> = {},
): Promise<Response> {
  const h = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  if (scope.signed) h.set('signature', scope.secret ? await signBody(scope.secret, text) : '');
  return new Response(text, { status, headers: h });
}

export function jsonAnswer(status: number, body: unknown, scope: AnswerScope, headers: Record<string, string> = {}): Promise<Response> {
  return textAnswer(status, JSON.stringify(body), scope, headers);
}
