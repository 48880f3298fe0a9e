/**
 * The onPaymentUpdate hooks the README and docs/proxy.md show, run as written against what the proxy really
 * announces: shops copy them, the README's first look at the proxy too. A payment superseded by a re-price is announced with outcome `superseded` in each of
 * its later states, the unpaid ones too (the payer pressed "I paid", then did not pay): a hook that refunds on that
 * outcome alone refunds money that never came.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PaymentUpdateInfo } from '../../src/proxy/options.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import type { PaymentView } from '../../src/shared/payment-view.js';
import { systemClock, within } from '../../src/shared/clock.js';
import { setup, until } from '../proxy/harness.js';
import { startQuietBackend } from '../support/quiet-backend.js';

type Hook = (payment: PaymentView, info: PaymentUpdateInfo) => Promise<void>;

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

/** The body of the first async onPaymentUpdate in `path` whose head starts with `head`. */
function hookBody(path: string, head = 'async onPaymentUpdate(payment, {'): string {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const start = text.indexOf(head);
  const open = text.indexOf('{\n', text.indexOf(')', start));
  const end = text.indexOf('\n  },', open);
  expect(start >= 0 && open > start && end > open, `the onPaymentUpdate example of ${path}`).toBe(true);
  return text.slice(open + 2, end);
}

/** The example's onPaymentUpdate as a function over a stub `db` that records what the hook did. */
function documentedHook(path: string, did: string[]): Hook {
  const db = {
    orders: { markPaid: async (_orderId: string, detail: unknown) => void did.push(`ship ${JSON.stringify(detail)}`) },
    refunds: { open: async (id: string) => void did.push(`refund ${id}`) },
  };
  const run = new AsyncFunction('db', 'payment', 'info', `const { source, secondPaymentOf } = info;\n${hookBody(path)}`);
  return (payment, info) => run(db, payment, info);
}

describe.each(['README.md', 'docs/proxy.md'])('the onPaymentUpdate example of %s', (path) => {
  it('opens no refund for a superseded payment that was never paid, and one for a superseded payment paid', async () => {
    const did: string[] = [];
    const hook = documentedHook(path, did);
    let price = '250.00';
    const t = setup({ resolveOrder: () => ({ amount: price, currency: 'INR' }), onPaymentUpdate: hook });
    const unpaid = (await t.create('A-1')).body.payment.id;
    price = '300.00';
    const paidAnyway = (await t.create('A-1')).body.payment.id; // supersedes `unpaid`
    price = '350.00';
    await t.create('A-1'); // supersedes `paidAnyway`
    for (const state of ['in_check', 'canceled']) {
      t.service.set(unpaid, { state });
      expect((await t.callback(t.service.payments.get(unpaid))).status).toBe(200);
    }
    t.service.set(paidAnyway, { state: 'finished', status: true });
    await t.callback(t.service.payments.get(paidAnyway));
    expect(did).toEqual([`refund ${paidAnyway}`]);
  });
});

/** The README's first look at the proxy: its onPaymentUpdate arrow as a function over a stub `shop`. */
function teaserHook(shipped: string[]): Hook {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const start = readme.indexOf('onPaymentUpdate: (');
  const arrow = readme.indexOf(') => {\n', start);
  const end = readme.indexOf('\n  },', arrow);
  expect(start >= 0 && arrow > start && end > arrow, "the README's first onPaymentUpdate").toBe(true);
  const parameters = readme.slice(start + 'onPaymentUpdate: ('.length, arrow);
  const body = readme.slice(arrow + ') => {\n'.length, end);
  const shop = { ship: (orderId: string) => void shipped.push(orderId) };
  const run = new Function('shop', `return (${parameters}) => {\n${body}\n};`)(shop) as Hook;
  return (payment, info) => Promise.resolve(run(payment, info));
}

describe("the README's first onPaymentUpdate", () => {
  it('ships an order once when the shopper paid it twice (switched methods, then paid both)', async () => {
    const shipped: string[] = [];
    const t = setup({ reconcileEveryMs: 0, onPaymentUpdate: teaserHook(shipped) });
    const upi = (await t.create('A-1', 'upi')).body.payment.id;
    const sbp = (await t.create('A-1', 'sbp')).body.payment.id;
    for (const id of [upi, sbp]) {
      t.service.set(id, { state: 'finished', status: true });
      await t.callback(t.service.payments.get(id));
    }
    expect(shipped).toEqual(['A-1']);
  });
});

describe('the onPaymentUpdate of docs/proxy.md that calls an ERP', () => {
  it("ends its request to an ERP that never answers at the call's deadline", async () => {
    const erp = await startQuietBackend();
    const body = hookBody('docs/proxy.md', 'async onPaymentUpdate(payment, { secondPaymentOf, signal })');
    // Its fetch as written, sent to the quiet backend on loopback instead of erp.example.
    const toErp = (url: string, init: RequestInit) => fetch(url.replace('https://erp.example', erp.url), init);
    const run = new AsyncFunction('fetch', 'payment', 'info', `const { secondPaymentOf, signal } = info;\n${body}`);
    const clock = new ManualClock();
    const t = setup({ clock, reconcileEveryMs: 0, onPaymentUpdate: (payment, info) => run(toErp, payment, info) });
    try {
      const id = (await t.create('A-1')).body.payment.id;
      t.service.set(id, { state: 'finished', status: true });
      const callback = t.callback(t.service.payments.get(id)); // waits for the hook, within its deadline
      await until(() => erp.requests.length === 1, 'the hook to call the ERP');
      await clock.advance(30_000); // the default hookMs
      expect(await within(systemClock, erp.requests[0]!.closed, 5_000)).toBe(true);
      expect((await callback).status).toBe(200);
    } finally {
      await erp.close();
      await t.proxy.close();
    }
  });
});
