/**
 * The SBP bank chooser on a phone: a searchable list of the NSPK members (the shopper's last bank and the largest
 * banks first, in a box that scrolls after about six), each a link that opens that bank's app at the payment (a
 * C2B link) or, for a transfer to a phone number, opens the app after copying the number. Logos come only from
 * the proxy's origin; a bank without one shows its initial. Its search asks the phone's keyboard not to correct
 * what is typed: a bank's name in Latin letters ("sber") is no word of its dictionary, and would be replaced. A
 * live region under it, there from the start (one added with its words is often not read), tells a screen reader
 * how many banks are left as the shopper types; "no such bank" is also shown.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { PaymentView } from '../../shared/payment-view.js';
import { rankBanks } from './bank-order.js';
import { bankSearch, MAX_BANK_QUERY } from './bank-search.js';
import { type SbpBank, sbpBankLink } from './deep-links.js';
import type { PhoneContext } from './phone-layout.js';

/** Banks before the search field is worth its space. */
const FEW = 6;

/**
 * `c2b`: the payment's C2B link (deep-links.ts's c2bLink, which the phone layout reads once for the whole screen),
 * if it is a C2B payment; `banks`: the NSPK list as the proxy ordered it, once loaded.
 */
export function bankChooser(
  ctx: PhoneContext,
  payment: PaymentView,
  c2b: string | undefined,
  banks: SbpBank[] | undefined,
): TemplateResult | typeof nothing {
  const { t } = ctx;
  const usable = rankBanks(banks ?? [], ctx.recall('sbp-bank')).flatMap((bank) => {
    const href = sbpBankLink(c2b, bank, ctx.platform);
    return href ? [{ bank, href }] : [];
  });
  if (!usable.length) return nothing;
  const matches = bankSearch(
    ctx.bankQuery,
    usable.map((u) => u.bank),
  );
  const found = usable.filter((u) => matches(u.bank));
  const phone = c2b ? undefined : payment.requisites?.address;
  const tap = (bank: SbpBank) => {
    if (phone) ctx.copy('address', phone); // before the app opens: the shopper pastes it there
    ctx.tapped('sbp-bank', bank.schema);
  };
  return html`<div part="bank-chooser" class="chooser">
    <p id="banks-label" class="label">${t.chooseBank}</p>
    ${phone ? html`<p class="hint">${t.sbpPhoneHint(phone)}</p>` : nothing}
    ${
      usable.length > FEW
        ? html`<input part="bank-search" class="search" type="search" autocomplete="off" autocorrect="off"
          spellcheck="false" maxlength=${MAX_BANK_QUERY}
          aria-label=${t.findBank} placeholder=${t.findBank} .value=${ctx.bankQuery}
          @input=${(e: Event) => ctx.filterBanks((e.target as HTMLInputElement).value)}>
          <p class=${found.length ? 'sr-only' : 'hint'} role="status">${ctx.bankQuery ? (found.length ? t.banksFound(found.length) : t.noBank) : ''}</p>`
        : nothing
    }
    <ul class="banks" aria-labelledby="banks-label">
      ${found.map(
        ({ bank, href }) => html`<li><a part="bank-link" class="bank" href=${href} data-schema=${bank.schema} @click=${() => tap(bank)}>
          ${bank.logoURL ? html`<img src=${bank.logoURL} alt="">` : html`<span class="logo" aria-hidden="true">${bank.bankName[0]}</span>`}
          <span>${bank.bankName}</span></a></li>`,
      )}
    </ul>
  </div>`;
}
