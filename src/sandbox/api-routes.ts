/**
 * The service's own endpoints, `POST /api/v2/payments` and `POST /api/v2/status`, in the order a careful service
 * checks a request: route and method, body size, injected faults, credentials over the raw bytes, content type,
 * JSON, fields, and only then the work. Once the caller is known, every answer (refusals included) is signed with
 * its secret. A second create for the same orderId makes a NEW payment: the real service's behaviour there is
 * unknown, so the sandbox assumes the least helpful one and the proxy must guard against doubles itself.
 */
import { readBody } from '../shared/body.js';
import { sleep } from '../shared/clock.js';
import { createPaymentRequestSchema, describeIssues, statusRequestSchema } from '../shared/provider-messages.js';
import { textAnswer, type AnswerScope } from './answers.js';
import { answerSecretOf, authenticate, checkMerchantId, type Merchant } from './auth.js';
import { MAX_BODY_BYTES, SandboxError } from './errors.js';
import { garble, gatewayPage, injectedError, roll, type Faults } from './faults.js';
import { jsonBody } from './json-body.js';
import type { PaymentLifecycle } from './lifecycle.js';
import type { ResolvedOptions } from './options.js';
import { paymentAt, type PaymentRecord, type PaymentStore } from './payment-store.js';
import { currencyProblem, isMethod, METHODS } from './requisites.js';

export interface ApiDeps {
  config: ResolvedOptions;
  store: PaymentStore;
  lifecycle: PaymentLifecycle;
  faults: () => Faults;
}

const ROUTES = { '/api/v2/payments': 'create', '/api/v2/status': 'status' } as const;

export function createApiRoutes(deps: ApiDeps) {
  const { config, store, lifecycle } = deps;

  function create(json: unknown, merchant: Merchant, baseUrl: string): unknown {
    const parsed = createPaymentRequestSchema.safeParse(json);
    if (!parsed.success) throw new SandboxError(400, describeIssues(parsed.error));
    checkMerchantId(merchant, parsed.data.merchantId);
    const { method, currency } = parsed.data;
    if (!isMethod(method)) throw new SandboxError(400, `method must be one of ${METHODS.join(', ')}`);
    const wrongCurrency = currencyProblem(method, currency);
    if (wrongCurrency) throw new SandboxError(400, wrongCurrency);
    const record = lifecycle.create(parsed.data, merchant.id, merchant.userId);
    const payment = paymentAt(record.payment, config.clock.now());
    if (config.createAnswer === 'payment') return payment;
    const r = payment.requisites;
    return {
      status: true,
      result: {
        amount: payment.amount,
        id: payment.id,
        state: payment.state,
        // Not assigned yet while `created`: empty strings, never null, so a parser that expects text still copes.
        address: r?.address ?? '',
        bank: r?.bank ?? '',
        recipient: r?.recipient ?? '',
        rate: payment.rate,
        bankName: r?.bank ?? '',
      },
      url: `${baseUrl}/pay/${payment.id}`,
    };
  }

  function status(json: unknown, merchant: Merchant, faults: Faults): unknown {
    const parsed = statusRequestSchema.safeParse(json);
    if (!parsed.success) throw new SandboxError(400, describeIssues(parsed.error));
    const q = parsed.data;
    checkMerchantId(merchant, q.merchantId);
    const now = config.clock.now();
    const shown = (records: PaymentRecord[]) => records.map((r) => paymentAt(r.payment, now));
    const notFound = (what: string) => new SandboxError(404, `no payment for ${what} among this merchant's payments`);
    if (q.paymentId !== undefined) {
      const record = store.ownedBy(merchant.id, q.paymentId);
      if (!record) throw notFound(`paymentId ${JSON.stringify(q.paymentId)}`);
      const payment = paymentAt(record.payment, now);
      return faults.statusAsArray ? [payment] : payment;
    }
    if (q.orderId !== undefined) {
      const records = store.byOrder(merchant.id, q.orderId);
      if (records.length === 0) throw notFound(`orderId ${JSON.stringify(q.orderId)}`);
      // Like the real service: one payment answers an object, several an array (in no promised order).
      if (records.length > 1 || faults.statusAsArray) return shown(records);
      return paymentAt(records[0]!.payment, now);
    }
    const records = q.paymentIds
      ? q.paymentIds.map((id) => store.ownedBy(merchant.id, id)).filter((r): r is PaymentRecord => r !== undefined)
      : (q.orderIds ?? []).flatMap((orderId) => store.byOrder(merchant.id, orderId));
    if (records.length === 0) throw notFound(q.paymentIds ? 'any of these paymentIds' : 'any of these orderIds');
    return shown([...new Set(records)]);
  }

  return async function api(request: Request, path: string, baseUrl: string, scope: AnswerScope): Promise<Response> {
    const route = Object.hasOwn(ROUTES, path) ? ROUTES[path as keyof typeof ROUTES] : undefined;
    if (!route) throw new SandboxError(404, `no endpoint ${path}: the service has POST /api/v2/payments and POST /api/v2/status`);
    if (request.method !== 'POST') throw new SandboxError(405, `${path} takes POST, not ${request.method}`, { allow: 'POST' });
    const bytes = await readBody(request, MAX_BODY_BYTES);
    const faults = deps.faults();
    if (faults.latencyMs > 0) {
      await sleep(config.clock, faults.latencyMs, request.signal).catch(() => {
        throw new SandboxError(503, 'the client went away while the latencyMs fault held the request');
      });
    }
    const injected = roll(faults.errorRate, config.random) ? injectedError(config.random) : undefined;
    const page = injected && faults.htmlErrors ? { page: gatewayPage(injected.status) } : {};
    if (injected && !injected.afterEffect) {
      throw new SandboxError(injected.status, 'injected fault (errorRate): the request was refused before it took effect; retry it', page);
    }
    const merchant = await authenticate(request, bytes, config.merchants);
    scope.secret = answerSecretOf(merchant);
    scope.authenticated = true;
    const json = jsonBody(request, bytes);
    const body = route === 'create' ? create(json, merchant, baseUrl) : status(json, merchant, faults);
    if (injected) {
      // The gateway's answer, not the service's: it carries no Signature the merchant could check.
      scope.secret = undefined;
      scope.authenticated = false;
      throw new SandboxError(
        injected.status,
        'injected fault (errorRate): the request took effect, but its answer was lost on the way; look the payment up before creating it again',
        page,
      );
    }
    let text = JSON.stringify(body);
    if (roll(faults.malformedRate, config.random)) text = garble(text);
    return textAnswer(200, text, scope);
  };
}
