/**
 * What the standalone server does with each answer of the shop's pricing endpoint (PAYIN_RESOLVE_URL). The docs
 * promise that anything but 200 with a price gives the shopper 404 or 502: a price the proxy cannot charge (a
 * negative or zero amount, three decimals, a currency that is not a 3-letter code) is the shop's endpoint
 * answering wrongly, so a 502 with a log line naming the order, never a 500 "internal error".
 */
import { describe, expect, it } from 'vitest';
import { ProxyError } from '../../src/proxy/http/errors.js';
import { signOrderToken } from '../../src/standalone/order-token.js';
import { resolveOrderVia } from '../../src/standalone/shop-backend.js';
import type { SignedPoster } from '../../src/standalone/signed-post.js';

function pricingAnswering(status: number, body: string) {
  const log: string[] = [];
  const poster: SignedPoster = { post: async () => new Response(body, { status, headers: { 'content-type': 'application/json' } }) };
  const resolve = resolveOrderVia(
    { kind: 'url', url: 'http://127.0.0.1:9/price' },
    poster,
    () => 0,
    (line) => log.push(line),
  );
  const ask = async () => resolve('ORD-7', 'upi', new Request('http://127.0.0.1/payin/payments'), {});
  return { ask, log };
}

describe('the pricing endpoint of a standalone shop', () => {
  it('passes a good price on, and a 404 as "no such order"', async () => {
    expect(await pricingAnswering(200, '{"amount":"499.00","currency":"INR"}').ask()).toEqual({ amount: '499.00', currency: 'INR' });
    expect(await pricingAnswering(404, '').ask()).toBeNull();
  });

  it('lets go of a 404 answer at once: an unread body holds its connection to the shop until it is collected', async () => {
    let cancelled = false;
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    const poster: SignedPoster = { post: async () => new Response(body, { status: 404 }) };
    const resolve = resolveOrderVia(
      { kind: 'url', url: 'http://127.0.0.1:9/price' },
      poster,
      () => 0,
      () => {},
    );
    expect(await resolve('ORD-guessed', 'upi', new Request('http://127.0.0.1/payin/payments'), {})).toBeNull();
    expect(cancelled).toBe(true);
  });

  it("hands the page's order token to the endpoint, so that it can check that this visitor may pay this order", async () => {
    // Without it the endpoint heard only {orderId, method}: anyone who guessed an order id was priced, could hold a
    // payment of it, and learned when it was paid.
    const sent: unknown[] = [];
    const poster: SignedPoster = {
      post: async (_url, _id, body) => {
        sent.push(body);
        return Response.json({ amount: '499.00', currency: 'INR' });
      },
    };
    const resolve = resolveOrderVia(
      { kind: 'url', url: 'http://127.0.0.1:9/price' },
      poster,
      () => 0,
      () => {},
    );
    const request = new Request('http://127.0.0.1/payin/payments');
    await resolve('ORD-7', 'upi', request, { orderToken: 'session-bound-7f3a' });
    await resolve('ORD-8', 'sbp', request, {});
    expect(sent).toEqual([
      { orderId: 'ORD-7', method: 'upi', orderToken: 'session-bound-7f3a' },
      { orderId: 'ORD-8', method: 'sbp' },
    ]);
  });

  it.each([
    ['499.0000', '499.00'],
    ['1499.9000', '1499.90'],
    ['499.000', '499.00'],
  ])(
    'takes %s, a price written with zeros past its cents (a decimal column of four places: Magento, Django), as %s',
    async (written, amount) => {
      // It was refused as three or four decimals: a 502 for every shopper of such a shop.
      expect(await pricingAnswering(200, JSON.stringify({ amount: written, currency: 'INR' })).ask()).toEqual({ amount, currency: 'INR' });
    },
  );

  it('takes a currency code in lower case (as Stripe writes it, and a shop that came from it stores it) in upper case', async () => {
    // It was refused as no 3-letter currency code: a 502 for every shopper, and a log line that puzzled ("inr" is one).
    expect(await pricingAnswering(200, '{"amount":"499.00","currency":"inr"}').ask()).toEqual({ amount: '499.00', currency: 'INR' });
  });

  it('says when a 200 answer is not JSON at all, by its content type: a PHP notice printed before the JSON, an error page', async () => {
    // Logged as 'answered HTTP 200 without {amount, currency}', which an endpoint that does answer them could not
    // make sense of.
    const log: string[] = [];
    const poster: SignedPoster = {
      post: async () =>
        new Response('<br />\n<b>Notice</b>:  Undefined index: coupon in shop.php on line 12<br />\n{"amount":"499.00","currency":"INR"}', {
          headers: { 'content-type': 'text/html; charset=UTF-8' },
        }),
    };
    const resolve = resolveOrderVia(
      { kind: 'url', url: 'http://127.0.0.1:9/price' },
      poster,
      () => 0,
      (line) => log.push(line),
    );
    await expect(resolve('ORD-5', 'upi', new Request('http://127.0.0.1/payin/payments'), {})).rejects.toThrow(ProxyError);
    expect(log.join('\n')).toMatch(/ORD-5 answered HTTP 200 with a body that is not JSON \(text\/html/);
  });

  it('names the keys of a JSON answer that has no price, so that a wrapped one is seen for what it is', async () => {
    const { ask, log } = pricingAnswering(200, '{"data":{"amount":"499.00","currency":"INR"},"success":true}');
    await expect(ask()).rejects.toThrow(ProxyError);
    expect(log.join('\n')).toMatch(/without \{amount, currency\} \(its keys: data, success\)/);
  });

  it("refuses an answer that names another order than the one asked: that is not this order's price", async () => {
    // A backend that priced the visitor's session cart, or a cache in front of it, answered another order's total,
    // and the proxy charged it for this one.
    const { ask, log } = pricingAnswering(200, '{"orderId":"ORD-8","amount":"1.00","currency":"INR"}');
    await expect(ask()).rejects.toThrow(ProxyError);
    expect(log.join('\n')).toMatch(/pricing call for ORD-7 answered the price of another order, "ORD-8"/);
  });

  it('takes an answer that names the order asked, even as a number', async () => {
    expect(await pricingAnswering(200, '{"orderId":"ORD-7","amount":"499.00","currency":"INR"}').ask()).toEqual({
      amount: '499.00',
      currency: 'INR',
    });
    const numbered = resolveOrderVia(
      { kind: 'url', url: 'http://127.0.0.1:9/price' },
      { post: async () => Response.json({ orderId: 1001, amount: '499.00', currency: 'INR' }) },
      () => 0,
      () => {},
    );
    expect(await numbered('1001', 'upi', new Request('http://127.0.0.1/payin/payments'), {})).toEqual({
      amount: '499.00',
      currency: 'INR',
    });
  });

  it.each([
    ['a negative amount', '{"amount":"-5","currency":"INR"}'],
    ['a zero amount', '{"amount":"0.00","currency":"INR"}'],
    ['three decimals', '{"amount":"1.234","currency":"INR"}'],
    ['a third decimal that is not zero, zeros after it', '{"amount":"1.2340","currency":"INR"}'],
    ['a currency that is not a code', '{"amount":"10.00","currency":"rupees"}'],
    ['an amount that is not a number', '{"amount":{"value":10},"currency":"INR"}'],
    // Each was charged rounded: 500.00, and a sum whose paise a double cannot tell from its neighbour's.
    ['a number with decimals the rupee does not have', '{"amount":499.9999999999,"currency":"INR"}'],
    ['a 14-digit sum', '{"amount":"99999999999999.99","currency":"INR"}'],
    ['a decimal comma', '{"amount":"4,99","currency":"INR"}'],
    ['an exponent', '{"amount":"1e3","currency":"INR"}'],
    ['a yen price with decimals, which the page would show as ¥500', '{"amount":"499.50","currency":"JPY"}'],
  ])('takes %s as the endpoint giving no price: a 502 for the shopper, a log line naming the order', async (_what, body) => {
    const { ask, log } = pricingAnswering(200, body);
    const error = await ask().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProxyError);
    expect((error as ProxyError).code).toBe('upstream_error');
    expect(log.join('\n')).toMatch(/ORD-7/);
  });
});

describe('the order token of a standalone shop', () => {
  const SECRET = 'order-token-key-for-the-shop';
  const pricedBy = async (claims: { amount: string; currency: string }, exp = 2_000) => {
    const log: string[] = [];
    const poster: SignedPoster = { post: async () => new Response(null, { status: 500 }) };
    const resolve = resolveOrderVia(
      { kind: 'token', secret: SECRET },
      poster,
      () => 1_000_000,
      (line) => log.push(line),
    );
    const orderToken = await signOrderToken(SECRET, { orderId: 'ORD-9', ...claims, exp });
    const price = await resolve('ORD-9', 'upi', new Request('http://127.0.0.1/payin/payments'), { orderToken });
    return { price, log };
  };

  it('prices the order from a good token, as an amount with two decimals', async () => {
    expect((await pricedBy({ amount: '499', currency: 'INR' })).price).toEqual({ amount: '499.00', currency: 'INR' });
  });

  it('prices the order from a token whose total has zeros past its cents, as a decimal column of four places holds it', async () => {
    expect((await pricedBy({ amount: '499.0000', currency: 'INR' })).price).toEqual({ amount: '499.00', currency: 'INR' });
  });

  it("refuses an expired token saying how long ago it expired, and that the shop's clock may be behind", async () => {
    // A shop whose clock runs behind this server's (a VM without time sync) renders tokens that are expired on arrival:
    // every create was a 404 logged as 'expired', which a token rendered a second ago did not seem to be.
    const { price, log } = await pricedBy({ amount: '499.00', currency: 'INR' }, 1_000 - 1_200);
    expect(price).toBeNull();
    expect(log.join('\n')).toMatch(/order token for ORD-9: expired 1200 s ago .*clock/);
  });

  it('refuses a token whose exp is in milliseconds, which never expired, saying that exp is in seconds', async () => {
    // Date.now() + 900_000 (JavaScript) or System.currentTimeMillis() (Java) read as seconds is a date some 57,000
    // years ahead: a quote the shop meant for 15 minutes paid its price for good, and nothing said so.
    const now = Date.UTC(2026, 10, 28);
    const log: string[] = [];
    const poster: SignedPoster = { post: async () => new Response(null, { status: 500 }) };
    const resolve = resolveOrderVia(
      { kind: 'token', secret: SECRET },
      poster,
      () => now,
      (line) => log.push(line),
    );
    const orderToken = await signOrderToken(SECRET, { orderId: 'ORD-9', amount: '499.00', currency: 'INR', exp: now + 900_000 });
    expect(await resolve('ORD-9', 'upi', new Request('http://127.0.0.1/payin/payments'), { orderToken })).toBeNull();
    expect(log.join('\n')).toMatch(/order token for ORD-9: its exp .* is in milliseconds\? .*seconds since the epoch/);
    // The same quote in seconds prices the order.
    const inSeconds = await signOrderToken(SECRET, { orderId: 'ORD-9', amount: '499.00', currency: 'INR', exp: now / 1000 + 900 });
    expect(await resolve('ORD-9', 'upi', new Request('http://127.0.0.1/payin/payments'), { orderToken: inSeconds })).toEqual({
      amount: '499.00',
      currency: 'INR',
    });
  });

  it('prices the order from a token whose currency is in lower case, in upper case', async () => {
    expect((await pricedBy({ amount: '120.00', currency: 'rub' })).price).toEqual({ amount: '120.00', currency: 'RUB' });
  });

  it.each([
    ['a thousands separator (PHP number_format with its defaults)', '1,499.00'],
    ['a zero amount', '0.00'],
    ['three decimals', '1.234'],
    ['a third decimal after zeros', '1.2340'],
  ])('refuses a token whose price carries %s as no price (404), the log naming the order and the price', async (_what, amount) => {
    // It went on to the proxy as the shop's price, which threw: a 500 'internal error' for the shopper, and a log
    // line about a resolveOrder that this shop never wrote.
    const { price, log } = await pricedBy({ amount, currency: 'INR' });
    expect(price).toBeNull();
    expect(log.join('\n')).toContain(`order token for ORD-9`);
    expect(log.join('\n')).toContain(JSON.stringify(amount));
  });
});
