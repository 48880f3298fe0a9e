/**
 * The payment as the browser reads it in an answer: the stored view, stamped with the proxy's clock. Written here
 * for every answer that carries a payment (the create's, each status poll, each event on a stream) and for the
 * shop's hook, and refused while the service has not told the payment's expiry: a checkout cannot count down
 * without it.
 */
import type { PaymentView } from '../../shared/payment-view.js';
import { toIso } from '../../shared/timestamps.js';
import type { StoredView } from '../infrastructure/store.js';
import { ProxyError } from './errors.js';

/** True while the view lacks what the browser needs and only a status call can fill. */
export function isIncomplete(view: StoredView): boolean {
  return !view.createdAt || !view.expiresAt;
}

/** The answer for the browser, stamped with the proxy's clock. */
export function toPaymentView(view: StoredView, now: number): PaymentView {
  if (!view.createdAt || !view.expiresAt) throw expiryNotKnown();
  return { ...view, createdAt: view.createdAt, expiresAt: view.expiresAt, serverTime: toIso(now) };
}

/**
 * `{"payment": toPaymentView(view, now)}` as JSON text, written without the copy: the stored view's own JSON
 * with the time appended, which is what JSON.stringify writes for the copy (its keys in the same order). It
 * answers every status poll. `qrMatrixJson`, the JSON of the QR's modules (http/qr-matrix-answer.ts), is added
 * as the payment's last member, `"qrMatrix"`.
 */
export function paymentAnswerJson(view: StoredView, now: number, qrMatrixJson?: string): string {
  if (!view.createdAt || !view.expiresAt) throw expiryNotKnown();
  const matrix = qrMatrixJson === undefined ? '' : `,"qrMatrix":${qrMatrixJson}`;
  return `{"payment":${viewJsonOpen(view)},"serverTime":"${toIso(now)}"${matrix}}}`;
}

/** The JSON of frozen views (the memory store's, which every read of one version shares), without its closing brace. */
const frozenViewJson = new WeakMap<StoredView, string>();

function viewJsonOpen(view: StoredView): string {
  let json = frozenViewJson.get(view);
  if (json === undefined) {
    json = JSON.stringify(view).slice(0, -1);
    if (Object.isFrozen(view)) frozenViewJson.set(view, json);
  }
  return json;
}

const expiryNotKnown = () => new ProxyError('upstream_error', "the service has not told the payment's expiry yet; try again shortly");
