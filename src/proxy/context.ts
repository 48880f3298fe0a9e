/**
 * What every route of one proxy shares: the resolved options, the signed client for the service, the ledger
 * (the one writer of payments) with its order book (the one holder of order leases) and its outbox (the one
 * writer of announcements), the order payments a create asks for, the payment tokens and the bank list. Built
 * in one direction: the order book first, then the outbox that settles orders through it, then the ledger that
 * records into both.
 */
import { ProxyError } from './http/errors.js';
import { Ledger } from './ledger/ledger.js';
import { OrderPayments } from './ledger/order-payments.js';
import { OrderBook } from './ledger/orders.js';
import { after, type MaybePromise } from './maybe-async.js';
import type { ResolvedOptions } from './options.js';
import { Outbox } from './ledger/outbox.js';
import { PaymentTokens } from './http/payment-token.js';
import { SbpBankList } from './use-cases/sbp-banks.js';
import type { PaymentRecord } from './infrastructure/store.js';
import { UpstreamClient, UpstreamError } from './infrastructure/upstream-client.js';

export interface ProxyContext {
  options: ResolvedOptions;
  upstream: UpstreamClient;
  ledger: Ledger;
  outbox: Outbox;
  tokens: PaymentTokens;
  orderPayments: OrderPayments;
  sbpBanks: SbpBankList;
}

export function createContext(options: ResolvedOptions): ProxyContext {
  const upstream = new UpstreamClient(options);
  const orders = new OrderBook(options);
  const outbox = new Outbox(options, orders);
  const ledger = new Ledger(options, upstream, outbox, orders);
  return {
    options,
    upstream,
    ledger,
    outbox,
    tokens: new PaymentTokens(options.provider.secret),
    orderPayments: new OrderPayments(options, ledger, orders, upstream),
    sbpBanks: new SbpBankList(options),
  };
}

/**
 * The record of `paymentId` if `token` is the one issued for it. A wrong token and an unknown payment get the
 * same 404, so that guessing ids (they are time-based at the service) tells nothing. Tokens verify without the
 * store: when the token is right but the store does not know the payment (a restart emptied it), the payment is
 * looked up at the service and recorded again, so the open checkout goes on.
 */
export function readableRecord(ctx: ProxyContext, paymentId: string, token: string): MaybePromise<PaymentRecord> {
  const { tokens, options } = ctx;
  // At once for a kept token and a store that reads in this process (see maybe-async.ts): a poll's usual case.
  return after(tokens.verify(paymentId, token), (valid) => {
    if (!valid) throw notFound();
    const { store } = options;
    return after(
      store.getPaymentNow ? store.getPaymentNow(paymentId) : store.getPayment(paymentId),
      (record) => record ?? adopted(ctx, paymentId),
    );
  });
}

/** The payment looked up at the service and recorded again, for a right token the store knows nothing of. */
async function adopted(ctx: ProxyContext, paymentId: string): Promise<PaymentRecord> {
  let record: PaymentRecord | undefined;
  try {
    record = await ctx.ledger.adopt(await ctx.ledger.fetchFresh(paymentId), 'status');
  } catch (error) {
    if (error instanceof UpstreamError && !error.retryable) throw notFound();
    throw error;
  }
  if (!record) throw notFound();
  return record;
}

const notFound = () => new ProxyError('not_found', 'no payment with this id and token');
