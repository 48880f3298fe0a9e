/**
 * What every route of one proxy shares: the resolved options, the signed client for the service, the ledger
 * (the one writer of payments) with its order book (the one holder of order leases) and its outbox (the one
 * writer of announcements), the order payments a create asks for, the payment tokens and the bank list. Built
 * in one direction: the order book first, then the outbox that settles orders through it, then the ledger that
 * records into both.
 */
import { Ledger } from './ledger/ledger.js';
import { OrderPayments } from './ledger/order-payments.js';
import { OrderBook } from './ledger/orders.js';
import type { ResolvedOptions } from './resolved-options.js';
import { Outbox } from './ledger/outbox.js';
import { OpenStreams } from './http/open-streams.js';
import { PaymentTokens } from './http/payment-token.js';
import { SbpBankList } from './use-cases/sbp-banks.js';
import { ServicePayments } from './use-cases/create-upstream.js';
import { UpstreamClient } from './infrastructure/upstream-client.js';
import { CallbackConfirmations } from './use-cases/callback-confirmations.js';
import { PaidRechecks } from './use-cases/paid-rechecks.js';

export interface ProxyContext {
  options: ResolvedOptions;
  upstream: UpstreamClient;
  ledger: Ledger;
  outbox: Outbox;
  tokens: PaymentTokens;
  orderPayments: OrderPayments;
  sbpBanks: SbpBankList;
  /** The event streams open now, which close() ends. */
  streams: OpenStreams;
  /** The status answers that check what callbacks say, shared against replays. */
  confirmations: CallbackConfirmations;
  /** The payments a callback said were paid before their status answer did, asked about again soon. */
  rechecks: PaidRechecks;
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
    tokens: new PaymentTokens(options.provider.secrets),
    orderPayments: new OrderPayments(options, ledger, orders, upstream, new ServicePayments(options, upstream)),
    sbpBanks: new SbpBankList(options),
    streams: new OpenStreams(),
    confirmations: new CallbackConfirmations(options, ledger),
    rechecks: new PaidRechecks(options, ledger),
  };
}
