// The element's module on a server: an SSR framework (Next, Nuxt, Astro, SvelteKit) imports it while rendering
// a page, where there is no `window`, no `document`, no `sessionStorage`. Importing must not throw and must start
// no work; Lit's server shim provides a registry, in which the tag is defined once however often it is imported.
import { describe, expect, it } from 'vitest';

describe('the widget module in plain Node', () => {
  it('imports without a DOM and defines the tag once', async () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
    const mod = await import('../../src/widget/index.js');
    expect(mod.TAG_NAME).toBe('payin-checkout');
    await import('../../src/widget/payin-checkout.js?again' as string);
    const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
    expect(registry?.get('payin-checkout')).toBe(mod.PayinCheckout);
  });

  it('constructs the element (as server rendering does) without touching browser APIs', async () => {
    const { PayinCheckout } = await import('../../src/widget/index.js');
    const el = new PayinCheckout();
    expect(el.endpoint).toBe('/payin');
    expect(el.screen).toBe('start');
    expect(el.payment).toBeUndefined();
  });
});
