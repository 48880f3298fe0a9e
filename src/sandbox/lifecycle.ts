/**
 * A payment's life on the sandbox's clock: created with the amounts and timestamps of the spec, given requisites
 * after `requisitesDelayMs` (turning `pending`), expired at `expired_at` if nobody acted, and moved by the payer's
 * or operator's actions as state-machine.ts allows. Every change is announced to the callback dispatcher; a final
 * state drops the payment's timers. "Pay a different amount" sets `amount` to what was paid and keeps
 * `init_amount`, the service's "success with recalculation".
 */
import type { Clock } from '../shared/clock.js';
import { isPositiveAmount, normalizeAmount, toMinorUnits } from '../shared/money.js';
import type { CreatePaymentRequest } from '../shared/provider-messages.js';
import { formatServiceMicros } from '../shared/timestamps.js';
import type { CallbackDispatcher } from './callbacks.js';
import { SandboxError } from './errors.js';
import type { IdGenerator } from './ids.js';
import type { ResolvedOptions } from './options.js';
import type { PaymentRecord, PaymentState, PaymentStore } from './payment-store.js';
import { assignRequisites, isMethod } from './requisites.js';
import { ACTIONS, canMove, expiresByItself, isAction, isFinal, refusal, type SandboxAction } from './state-machine.js';

export interface LifecycleDeps {
  config: ResolvedOptions;
  store: PaymentStore;
  ids: IdGenerator;
  callbacks: CallbackDispatcher;
}

export class PaymentLifecycle {
  #deps: LifecycleDeps;
  #sbpPayments = 0;
  #timers = new Map<string, unknown[]>();
  #closed = false;

  constructor(deps: LifecycleDeps) {
    this.#deps = deps;
  }

  get #clock(): Clock {
    return this.#deps.config.clock;
  }

  create(request: CreatePaymentRequest, merchantId: string, userId: string): PaymentRecord {
    const { config, store } = this.#deps;
    const { id, epochMicros } = this.#deps.ids();
    const amount = normalizeAmount(request.amount)!;
    const fees = charges(amount, config.commissionPercent);
    const back = { successUri: request.successUri, failUri: request.failUri };
    const record = store.add(
      merchantId,
      request.callbackUri,
      {
        id,
        orderId: request.orderId,
        created_at: formatServiceMicros(epochMicros),
        expired_at: formatServiceMicros(epochMicros + config.ttlMs * 1000),
        status: false,
        state: 'created',
        type: 'payin',
        userId: request.payer?.userId ?? userId,
        amount,
        init_amount: amount,
        amount_commission_less: fees.amount_commission_less,
        currency: request.currency,
        rate: config.rate,
        commission: fees.commission,
        method: request.method,
        media: [],
      },
      back,
    );
    this.#schedule(record, config.requisitesDelayMs, () => this.#assign(record));
    this.#schedule(record, config.ttlMs, () => {
      if (expiresByItself(record.payment.state)) this.#move(record, 'expired');
    });
    return record;
  }

  /** The payer's or operator's action; throws a SandboxError (404, 400, 409) the caller can show as it is. */
  act(id: string, action: SandboxAction, body: { amount?: unknown } = {}): PaymentRecord {
    const record = this.#deps.store.get(id);
    if (!record) throw new SandboxError(404, `no payment with id ${JSON.stringify(id)}`);
    if (!isAction(action)) {
      throw new SandboxError(400, `unknown action ${JSON.stringify(action)}; use one of ${Object.keys(ACTIONS).join(', ')}`);
    }
    const to = ACTIONS[action];
    if (!canMove(record.payment.state, to)) throw new SandboxError(409, refusal(record.payment.state, to));
    if (body.amount !== undefined) {
      if (action !== 'pay') throw new SandboxError(400, `amount: only "pay" takes an amount`);
      const paid = normalizeAmount(body.amount);
      if (paid === undefined || !isPositiveAmount(paid)) {
        throw new SandboxError(400, 'amount must be a positive decimal of at most 13 whole digits and 2 fraction digits, such as "250.00"');
      }
      record.payment.amount = paid;
      Object.assign(record.payment, charges(paid, this.#deps.config.commissionPercent));
    }
    this.#move(record, to);
    return record;
  }

  /** Drops every timer; payments keep their state but nothing happens to them by itself any more. */
  close(): void {
    this.#closed = true;
    for (const handles of this.#timers.values()) for (const h of handles) this.#clock.clearTimeout(h);
    this.#timers.clear();
  }

  #assign(record: PaymentRecord): void {
    const p = record.payment;
    if (p.state !== 'created' || !isMethod(p.method)) return;
    const { requisites, media } = assignRequisites(p.method, p.amount, this.#deps.config.random, { c2bLink: this.#c2bLinkNext(p.method) });
    p.requisites = requisites;
    p.media = media;
    this.#move(record, 'pending');
  }

  /** Whether this payment gets a C2B link: always, never, or every other sbp payment (sbpShape 'both'). */
  #c2bLinkNext(method: string): boolean {
    const { sbpShape } = this.#deps.config;
    if (method !== 'sbp' || sbpShape === 'phone') return false;
    return sbpShape === 'c2b' || this.#sbpPayments++ % 2 === 0;
  }

  #move(record: PaymentRecord, to: PaymentState): void {
    const p = record.payment;
    if (!canMove(p.state, to)) return;
    p.state = to;
    p.status = to === 'finished';
    if (isFinal(to)) {
      for (const h of this.#timers.get(p.id) ?? []) this.#clock.clearTimeout(h);
      this.#timers.delete(p.id);
    }
    this.#deps.callbacks.announce(record);
  }

  #schedule(record: PaymentRecord, ms: number, run: () => void): void {
    if (this.#closed) return;
    const handle = this.#clock.setTimeout(run, ms);
    const list = this.#timers.get(record.payment.id) ?? [];
    list.push(handle);
    this.#timers.set(record.payment.id, list);
  }
}

/** Commission in percent of the amount, rounded to the kopeck/paisa, and what remains of the amount. */
function charges(amount: string, percent: number): { amount_commission_less: number; commission: number } {
  const minor = toMinorUnits(amount);
  const commission = Math.round((minor * percent) / 100);
  return { amount_commission_less: (minor - commission) / 100, commission: commission / 100 };
}
