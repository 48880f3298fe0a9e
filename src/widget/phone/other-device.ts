/**
 * "Pay from another device" on a phone: the QR folded away (the phone that shows it cannot scan it), with a
 * caption for this case. Unfolded, it also offers to keep the image (keep-qr.ts).
 * `<details>` gives the fold its keyboard and screen-reader behaviour for free.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { DrawnQr } from '../qr-code.js';
import { keepQr } from './keep-qr.js';
import type { PhoneContext } from './phone-layout.js';

export function otherDevice(ctx: PhoneContext, qr: DrawnQr): TemplateResult {
  const { t } = ctx;
  return html`<details part="other-device" class="other" ?open=${ctx.otherDevice}
    @toggle=${(e: Event) => ctx.setOtherDevice((e.target as HTMLDetailsElement).open)}>
    <summary part="other-device-toggle">${t.otherDevice}</summary>
    <figure part="qr-frame" class="qr-frame">${qr.svg}<figcaption class="hint">${t.otherDeviceHint}</figcaption></figure>
    ${ctx.otherDevice ? keepQr(ctx, qr.matrix) : nothing}
  </details>`;
}
