/**
 * What an operator watches, in the Prometheus text format at `GET /metrics`: payments announced by outcome,
 * webhook deliveries and failures, the payment service's latency, the event streams open now, and whether the
 * ledger's store answers (as of the scrape: the proxy's store check, shared with `/healthz`). Counters only go up;
 * the process keeps them in memory (a restart starts them at zero, as Prometheus expects).
 */
import type { StoreCheck } from '../proxy/index.js';

const LATENCY_BUCKETS_S = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly #outcomes = new Map<string, number>();
  #delivered = 0;
  #failed = 0;
  #openStreams = 0;
  readonly #latency = { buckets: LATENCY_BUCKETS_S.map(() => 0), count: 0, sum: 0 };

  webhookDelivered(outcome: string): void {
    this.#delivered++;
    this.#outcomes.set(outcome, (this.#outcomes.get(outcome) ?? 0) + 1);
  }

  webhookFailed(): void {
    this.#failed++;
  }

  upstreamLatency(seconds: number): void {
    this.#latency.count++;
    this.#latency.sum += seconds;
    LATENCY_BUCKETS_S.forEach((le, i) => {
      if (seconds <= le) this.#latency.buckets[i]!++;
    });
  }

  streamOpened(): void {
    this.#openStreams++;
  }

  streamClosed(): void {
    this.#openStreams = Math.max(0, this.#openStreams - 1);
  }

  /** The Prometheus text exposition, with the store's state when it could be checked. */
  render(store?: StoreCheck): string {
    const lines = [
      '# HELP payin_payments_announced_total Payment states announced to the shop, by outcome.',
      '# TYPE payin_payments_announced_total counter',
      ...[...this.#outcomes].map(([outcome, n]) => `payin_payments_announced_total{outcome="${outcome}"} ${n}`),
      '# HELP payin_webhook_deliveries_total Webhooks the shop answered with 2xx.',
      '# TYPE payin_webhook_deliveries_total counter',
      `payin_webhook_deliveries_total ${this.#delivered}`,
      '# HELP payin_webhook_failures_total Webhook attempts that failed (retried with backoff).',
      '# TYPE payin_webhook_failures_total counter',
      `payin_webhook_failures_total ${this.#failed}`,
      '# HELP payin_upstream_request_seconds Time the payment service took to answer.',
      '# TYPE payin_upstream_request_seconds histogram',
      ...LATENCY_BUCKETS_S.map((le, i) => `payin_upstream_request_seconds_bucket{le="${le}"} ${this.#latency.buckets[i]}`),
      `payin_upstream_request_seconds_bucket{le="+Inf"} ${this.#latency.count}`,
      `payin_upstream_request_seconds_sum ${this.#latency.sum}`,
      `payin_upstream_request_seconds_count ${this.#latency.count}`,
      '# HELP payin_open_event_streams Event streams open now.',
      '# TYPE payin_open_event_streams gauge',
      `payin_open_event_streams ${this.#openStreams}`,
    ];
    // A store that has no check (a shop's own) gets no line: "unchecked" is neither up nor down.
    if (store && store.store !== 'unchecked') {
      lines.push(
        "# HELP payin_store_up Whether the ledger's store answered its check (1) or not (0): while 0, shoppers get 503.",
        '# TYPE payin_store_up gauge',
        `payin_store_up ${store.ok ? 1 : 0}`,
      );
    }
    return `${lines.join('\n')}\n`;
  }
}
