/**
 * Every parser of what comes over the wire, fed anything: none may throw (they answer `{ok: false}` or
 * undefined), and none may turn garbage into a paid payment.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { normalizeAmount } from '../../src/shared/money.js';
import { orderIdProblem } from '../../src/shared/order-id.js';
import { outcomeOf, settledOutcome } from '../../src/shared/outcome.js';
import { readPaymentView } from '../../src/shared/payment-view.js';
import { parseCallbackBody, parseCreateAnswer, parseStatusAnswer, parseStatusList } from '../../src/shared/provider-messages.js';
import { findSbpQrLink, qrPayload, webUrl } from '../../src/shared/qr-payload.js';
import { parseTimestamp } from '../../src/shared/timestamps.js';
import { parseJsonBytes } from '../../src/shared/body.js';
import { FUZZ_SEED, fuzzRuns } from './fuzz-settings.js';

const anything = fc.oneof(fc.jsonValue(), fc.anything(), fc.string({ unit: 'binary' }));
/** A payment-shaped object with any values in its fields. */
const paymentish = fc.record(
  {
    id: anything,
    orderId: anything,
    state: fc.oneof(fc.constantFrom('created', 'pending', 'in_check', 'finished', 'expired'), anything),
    status: anything,
    amount: fc.oneof(fc.constantFrom('499.00', '1e3', '-1', 'NaN'), anything),
    init_amount: anything,
    currency: anything,
    method: anything,
    created_at: fc.oneof(fc.constantFrom('2026-02-31T25:61:00Z', '2026-01-15 10:00:00.000000'), anything),
    expired_at: anything,
    requisites: anything,
    url: fc.oneof(fc.constantFrom('https://pay.test/%E0%A4%A', 'javascript:alert(1)'), anything),
    media: anything,
  },
  { requiredKeys: [] },
);
const options = { seed: FUZZ_SEED, numRuns: fuzzRuns(400) };

describe('wire parsers take anything without throwing', () => {
  it('provider messages: create answers, status answers, callbacks', () => {
    fc.assert(
      fc.property(fc.oneof(anything, paymentish, fc.record({ status: anything, result: paymentish, url: anything })), (value) => {
        parseCreateAnswer(value);
        parseStatusAnswer(value);
        parseStatusList(value);
        parseStatusList([paymentish, value]);
        parseCallbackBody(value);
      }),
      options,
    );
  });

  it('the browser never reads paid from a view whose state is not finished', () => {
    fc.assert(
      fc.property(fc.oneof(anything, paymentish), fc.constantFrom('paid', 'underpaid', 'waiting', undefined), (value, outcome) => {
        const view = readPaymentView(typeof value === 'object' && value !== null ? { ...value, outcome } : value);
        if (view && view.outcome === 'paid' && view.state !== 'finished') throw new Error(`paid from state ${view.state}`);
      }),
      options,
    );
  });

  it('money, timestamps, order ids, outcomes, QR payloads and URLs', () => {
    fc.assert(
      fc.property(anything, anything, fc.string(), (a, b, text) => {
        const asText = (v: unknown) => (typeof v === 'string' ? v : text);
        normalizeAmount(a);
        parseTimestamp(a);
        orderIdProblem(text);
        outcomeOf(text);
        settledOutcome(text, { amount: asText(a), currency: text }, { amount: asText(b), currency: asText(a) });
        webUrl(a);
        findSbpQrLink([a, b]);
        qrPayload({
          method: text,
          amount: '1.00',
          currency: 'INR',
          orderId: text,
          requisites: { address: text },
          payUrl: asText(a),
          extra: [a, b],
        });
      }),
      options,
    );
  });

  it('JSON bytes of any shape and depth, valid UTF-8 or not', () => {
    const deep = fc.integer({ min: 1, max: 50_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 512 }),
          deep.map((s) => new TextEncoder().encode(s)),
        ),
        (bytes) => {
          parseJsonBytes(bytes);
        },
      ),
      { ...options, numRuns: fuzzRuns(200) },
    );
  });
});
