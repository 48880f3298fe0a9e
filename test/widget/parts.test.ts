/**
 * The on-demand parts (src/widget/parts/): each loads once per page however many elements ask, and one that
 * cannot load is left out with one warning, never retried into a loop: only once the browser is back online is it
 * asked for again (a phone on a poor network). The element then draws
 * without it (the end-to-end suite blocks each part of the script-tag build in turn); here the loader itself, and
 * the ES module build's parts, which load as dynamic imports.
 */
import { expect } from '@open-wc/testing';
import { PARTS } from '../../src/widget/parts/catalog.js';
import { partLoader } from '../../src/widget/parts/load-part.js';
import type { PartLoaders } from '../../src/widget/parts/part-types.js';

/** Loaders that count their calls; `phone` fails (`failing` times, or for good). */
function countingLoaders(failing = Infinity) {
  const calls: string[] = [];
  const results = { styles: () => undefined };
  const loaders = Object.fromEntries(
    Object.keys(PARTS).map((name) => [
      name,
      () => {
        calls.push(name);
        const fails = name === 'phone' && calls.filter((call) => call === 'phone').length <= failing;
        return fails ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve(results);
      },
    ]),
  ) as unknown as PartLoaders;
  return { loaders, calls, results };
}

async function capturingWarnings<T>(run: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
  try {
    return { result: await run(), warnings };
  } finally {
    console.warn = original;
  }
}

describe('the parts', () => {
  it('loads a part once for every element that asks, and answers it once loaded', async () => {
    const { loaders, calls, results } = countingLoaders();
    const load = partLoader(loaders);
    const first = load('results');
    expect(first).to.be.instanceOf(Promise);
    expect(load('results')).to.equal(first);
    await first;
    expect(load('results')).to.equal(results);
    expect(calls).to.deep.equal(['results']);
  });

  it('leaves a part that cannot load out for the page, with one warning that names it', async () => {
    const { loaders, calls } = countingLoaders();
    const load = partLoader(loaders);
    const { warnings } = await capturingWarnings(async () => {
      await load('phone');
      expect(load('phone')).to.equal(null);
      expect(load('phone')).to.equal(null);
    });
    expect(calls).to.deep.equal(['phone']);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('the "phone" part did not load');
  });

  it('asks again for a part that could not load once the browser is back online, and only then', async () => {
    const { loaders, calls, results } = countingLoaders(1);
    const load = partLoader(loaders);
    await capturingWarnings(async () => {
      await load('phone');
      expect(load('phone')).to.equal(null);
      window.dispatchEvent(new Event('online'));
      await load('phone');
      window.dispatchEvent(new Event('online'));
    });
    expect([load('phone'), calls]).to.deep.equal([results, ['phone', 'phone']]);
  });

  it('refuses a module that is not a part', async () => {
    const load = partLoader({ ...countingLoaders().loaders, results: () => Promise.resolve(undefined as never) });
    const { warnings } = await capturingWarnings(async () => load('results'));
    expect(load('results')).to.equal(null);
    expect(warnings[0]).to.contain('the "results" part did not load');
  });

  it('imports each part of the ES module build, with what the element draws from it', async () => {
    const phone = await PARTS.phone();
    expect(phone.PhoneLayout).to.be.a('function');
    expect((await PARTS['upi-apps']()).appChooser).to.be.a('function');
    const banks = await PARTS['sbp-banks']();
    expect(banks.bankChooser).to.be.a('function');
    expect(banks.SbpBankListController).to.be.a('function');
    const results = await PARTS.results();
    expect(results.resultScreen).to.be.a('function');
    for (const part of [phone, await PARTS['upi-apps'](), banks, results]) expect(part.styles().cssText).to.match(/\{/);
  });
});
