/**
 * Registers <payin-checkout> (only once: two copies of the script on a page must not throw) and makes the tag
 * and its events known to TypeScript. Importing this module on a server does nothing but define the class: there
 * is no `customElements` there.
 */

import type { PayinEventMap } from './events.js';
import { PayinCheckout } from './payin-checkout-element.js';

export const TAG_NAME = 'payin-checkout';

// The literal (not TAG_NAME) lets the custom-elements manifest analyzer see the tag.
if (typeof customElements !== 'undefined' && !customElements.get(TAG_NAME)) {
  customElements.define('payin-checkout', PayinCheckout);
}

declare global {
  interface HTMLElementTagNameMap {
    'payin-checkout': PayinCheckout;
  }
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends PayinEventMap {}
}

export { PayinCheckout };
