/**
 * Back after the expiry on an iPhone in WebKit: the shopper was in the app while the time ran out (payments of
 * this demo expire in 5 s); shown again, the checkout says the time is up and that a payment made is still being
 * checked (the late screen: do not pay again), never that it failed.
 */
import { expect, it } from 'vitest';
import { backAfterExpiry } from '../support/coming-back.js';
import { placeOrder } from '../support/services.js';
import { openCheckout, shoot } from './support/iphone.js';
import { useWebKit } from './support/use-webkit.js';

const live = useWebKit({ SANDBOX_TTL_SECONDS: '5' });

it('says "late", never failed, to a shopper back after the expiry', async () => {
  const { session, demo } = live;
  const order = await placeOrder(demo.storeUrl);
  await openCheckout(session, demo.storeUrl, order.id);
  expect(await backAfterExpiry(session, demo.sandboxUrl, order.id)).toBe('late');
  await shoot(session, 'late-after-expiry');
});
