/**
 * The UPI app chooser on a phone: one link per app (an Android intent naming the app's package, or the app's own
 * scheme on iOS), then the phone's own choice ("any UPI app" on Android, "other" on iOS, both `upi://pay`). The
 * first app (the shopper's last, else the shop's first) is the primary button. The tap navigates by itself;
 * the handler only remembers the choice and starts watching whether an app opened.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { ANY_APP, DEFAULT_UPI_APPS, UPI_APPS, upiLinks } from './deep-links.js';
import type { PhoneContext } from './phone-layout.js';

export function appChooser(ctx: PhoneContext, payment: PaymentView): TemplateResult | typeof nothing {
  const { t } = ctx;
  const apps = ctx.upiApps.length ? ctx.upiApps : DEFAULT_UPI_APPS;
  const last = ctx.recall('upi-app');
  const ordered = last && apps.includes(last) ? [last, ...apps.filter((a) => a !== last)] : apps;
  const links = upiLinks(payment, ctx.platform, ordered);
  if (!links.length) return nothing;
  return html`<div part="app-chooser" class="chooser">
    <p id="apps-label" class="label">${t.chooseApp}</p>
    <ul class="apps" aria-labelledby="apps-label">
      ${links.map(
        ({ id, href }, i) => html`<li>
          <a part="app-link" class="button ${i === 0 ? 'primary' : ''}" href=${href} data-app=${id}
            @click=${() => ctx.tapped('upi-app', id)}>${
              id === ANY_APP ? (links.length === 1 ? t.openApp : ctx.platform === 'ios' ? t.otherUpiApp : t.anyUpiApp) : UPI_APPS[id]![0]
            }</a>
        </li>`,
      )}
    </ul>
  </div>`;
}
