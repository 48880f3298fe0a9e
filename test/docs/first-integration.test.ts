/**
 * The README's first integration, run as written against the real sandbox: its resolveOrder (also the one
 * docs/proxy.md shows) prices every method its checkout page offers in a currency the service takes for it. A
 * shop copies both, so a method the page offers and the snippet prices wrongly is a button that fails for every
 * shopper who presses it.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { PayinProxyOptions } from '../../src/proxy/options.js';
import { startLive, type Live } from '../proxy/sandbox-harness.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The methods the element of the README's step 5 offers the shopper. */
function methodsOfTheGuidesPage(): string[] {
  const readme = read('README.md');
  const step = readme.slice(readme.indexOf('**5. Put the element on the checkout page**'));
  const methods = /<payin-checkout [^>]*methods="([^"]+)"/.exec(step)?.[1];
  expect(methods, "the element of the README's step 5").toBeDefined();
  return methods!.split(' ');
}

/** The example's resolveOrder as a function, over a shop whose order A-1 costs 499.00 in whatever it is asked. */
function documentedResolveOrder(path: string): PayinProxyOptions['resolveOrder'] {
  const text = read(path);
  const start = text.indexOf('async resolveOrder(orderId, method, request) {');
  const end = text.indexOf('\n  },', start);
  expect(start >= 0 && end > start, `the resolveOrder example of ${path}`).toBe(true);
  const body = text.slice(text.indexOf('{\n', start) + 2, end);
  const order = { total: '499.00', totalIn: (_currency: string) => '499.00' };
  const db = { orders: { find: async (orderId: string) => (orderId === 'A-1' ? order : undefined) } };
  const ownsOrder = async () => true;
  const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
  const run = new AsyncFunction('db', 'ownsOrder', 'orderId', 'method', 'request', body);
  return (orderId, method, request) => run(db, ownsOrder, orderId, method, request) as ReturnType<PayinProxyOptions['resolveOrder']>;
}

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

describe.each(['README.md', 'docs/proxy.md'])('the resolveOrder example of %s', (path) => {
  it.each(methodsOfTheGuidesPage())('prices %s so that the sandbox makes the payment', async (method) => {
    live = await startLive({ resolveOrder: documentedResolveOrder(path) });
    const created = await live.create('A-1', method);
    expect({ status: created.status, error: created.body.error }).toEqual({ status: 201, error: undefined });
  });

  it('answers 404 for an order the shop does not have', async () => {
    live = await startLive({ resolveOrder: documentedResolveOrder(path) });
    expect((await live.create('B-2', 'upi')).status).toBe(404);
  });
});
