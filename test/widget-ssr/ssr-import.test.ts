// The element's module on a server: an SSR framework (Next, Nuxt, Astro, SvelteKit) imports it while rendering
// a page, where there is no `window`, no `customElements`, no `sessionStorage`. Importing must not throw, and
// must not register anything or start any work.
import { describe, expect, it } from 'vitest';

describe('the widget module in plain Node', () => {
  it('imports without throwing and without a DOM', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const mod = await import('../../src/widget/index.js');
    expect(mod.TAG_NAME).toBe('payin-checkout');
    expect(typeof mod.PayinCheckout).toBe('function');
  });

  it('leaves the tag unregistered when there is no customElements registry', async () => {
    await import('../../src/widget/index.js');
    const registry = (globalThis as { customElements?: CustomElementRegistry }).customElements;
    // Lit's server shim may provide a registry; if it does, the tag is defined once and only once.
    if (registry) expect(registry.get('payin-checkout')).toBeDefined();
    else expect(registry).toBeUndefined();
  });
});
