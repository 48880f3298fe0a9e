/**
 * What the console shows, as functions of what it holds: the list (filters with counts, search, the table that
 * turns into cards on a phone) and one payment (its facts, actions, timeline, the order's other payments, the
 * audit). Every value is rendered as text by Lit: order ids and errors come from outside and are never HTML.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConsoleAction, HistoryEntry, ListAnswer, PaymentAnswer, Row } from './console-client.js';
import { formatAmount, formatTime } from './console-format.js';
import type { ConsoleWords } from './console-i18n.js';

export interface ViewContext {
  t: ConsoleWords;
  locale: string;
  busy: boolean;
  open(id: string): void;
}

export interface ListContext extends ViewContext {
  filters: readonly string[];
  filter: string;
  /** The search the list shown was found by ('' for none). */
  q: string;
  list: ListAnswer | undefined;
  setFilter(filter: string): void;
  more(): void;
}

/**
 * A control that waits for the call under way says so (aria-disabled) and ignores presses, but keeps the keyboard:
 * a disabled button loses focus, which drops to the top of the page, and the operator tabs down from there again.
 */
const idle = (c: ViewContext) => (c.busy ? 'true' : nothing);

const outcomeBadge = (row: Row, t: ConsoleWords) =>
  html`<span class="badge ${row.outcome}">${t.outcomes[row.outcome] ?? row.outcome}</span>`;

/**
 * What needs the operator (a refund to do, a contradiction to look into, stuck), in the warning colour; what an
 * operator marked done, apart and calm.
 */
function notesOf(row: Row, t: ConsoleWords): TemplateResult | typeof nothing {
  const toRefund = row.secondPaymentOf && !row.refunded;
  const toLookInto = row.contradicted && !row.resolved;
  const notes = [row.late && t.notes.late, toRefund && t.notes.second, toLookInto && t.notes.contradicted, row.stuck && t.notes.stuck];
  const warnings = notes.filter(Boolean);
  const warning = warnings.length ? html`<span class="note">${warnings.join('; ')}</span>` : nothing;
  const done = [row.refunded && t.notes.refunded, row.resolved && t.notes.resolved].filter(Boolean);
  if (!done.length) return warning;
  return html`${warning}${warnings.length ? ' ' : ''}<span class="done">${done.join('; ')}</span>`;
}

export function filterBar(c: ListContext): TemplateResult {
  return html`<ul class="filters" aria-label=${c.t.columns.outcome}>
    ${c.filters.map(
      (f) => html`<li>
        <button type="button" aria-pressed=${c.filter === f ? 'true' : 'false'} data-filter=${f} @click=${() => c.setFilter(f)}>
          ${c.t.filters[f] ?? f}<span class="count">${c.list ? new Intl.NumberFormat(c.locale).format(c.list.counts[f] ?? 0) : ''}</span>
        </button>
      </li>`,
    )}
  </ul>`;
}

export function paymentTable(c: ListContext): TemplateResult {
  const { t, locale, list } = c;
  if (!list) return html`<p>${t.loading}</p>`;
  if (list.payments.length === 0) return html`<p>${t.empty}</p>`;
  const col = t.columns;
  // The caption names the table in a screen reader's list of tables; the pressed filter and the search field say it on screen.
  return html`<table>
      <caption class="sr-only">${t.caption(t.filters[c.filter] ?? c.filter, c.q)}</caption>
      <thead>
        <tr>
          <th scope="col">${col.created}</th><th scope="col">${col.order}</th><th scope="col">${col.payment}</th>
          <th scope="col">${col.method}</th><th scope="col">${col.amount}</th><th scope="col">${col.outcome}</th><th scope="col">${col.notes}</th>
        </tr>
      </thead>
      <tbody>
        ${list.payments.map(
          (row) => html`<tr data-payment=${row.id}>
            <td data-label=${col.created}>${formatTime(row.createdAt ?? row.listedAt, locale)}</td>
            <td data-label=${col.order} class="order">${row.orderId}</td>
            <td data-label=${col.payment}><button type="button" class="link" @click=${() => c.open(row.id)}>${row.id}</button></td>
            <td data-label=${col.method}>${row.method.toUpperCase()}</td>
            <td data-label=${col.amount} class="amount">${formatAmount(row.amount, row.currency, locale)}</td>
            <td data-label=${col.outcome}>${outcomeBadge(row, t)}</td>
            <td data-label=${col.notes}>${notesOf(row, t)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    ${list.next ? html`<p><button type="button" @click=${() => c.busy || c.more()} aria-disabled=${idle(c)}>${t.more}</button></p>` : nothing}`;
}

export interface DetailContext extends ViewContext {
  detail: PaymentAnswer;
  back(): void;
  act(action: ConsoleAction, fields?: Record<string, string>): void;
}

/**
 * A second payment: refunded (who, when, reference), or a refund to do with the form that records it once the
 * operator has refunded it at the service.
 */
function refundPart(c: DetailContext): TemplateResult | typeof nothing {
  const { t, detail } = c;
  const p = detail.payment;
  if (!p.secondPaymentOf) return nothing;
  if (p.refunded) return html`<p class="done">${t.secondRefunded(p.secondPaymentOf)}</p>`;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('reference') as HTMLInputElement;
    if (!c.busy) c.act('mark-refunded', { reference: input.value });
  };
  return html`<p class="note">${t.secondOf(p.secondPaymentOf)}</p>
    <form class="mark" @submit=${submit}>
      <div>
        <label for="refund-reference">${t.refundReference}</label>
        <input id="refund-reference" name="reference" maxlength="100" autocomplete="off" spellcheck="false">
      </div>
      <button type="submit" aria-disabled=${idle(c)} aria-describedby="refund-note">${t.markRefunded}</button>
    </form>
    <p id="refund-note">${t.markRefundedNote}</p>`;
}

/**
 * A payment the service contradicted: resolved (who, when, the note), or to look into, with the form that records it
 * once the operator has dealt with it at the service.
 */
function contradictionPart(c: DetailContext): TemplateResult | typeof nothing {
  const { t, detail } = c;
  const p = detail.payment;
  // A contradiction on the timeline without the record's mark (noted by an instance of the release before, during an
  // upgrade) is said, with nothing to mark.
  const noted = detail.history.some((h) => h.kind === 'contradiction');
  if (!p.contradicted) return noted ? html`<p class="note">${t.contradicted}</p>` : nothing;
  if (p.resolved) return html`<p class="done">${t.contradictionResolved}</p>`;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('note') as HTMLInputElement;
    if (!c.busy) c.act('mark-resolved', { note: input.value });
  };
  return html`<p class="note">${t.contradicted}</p>
    <form class="mark" @submit=${submit}>
      <div>
        <label for="resolution-note">${t.resolutionNote}</label>
        <input id="resolution-note" name="note" maxlength="200" autocomplete="off">
      </div>
      <button type="submit" aria-disabled=${idle(c)} aria-describedby="resolution-note-help">${t.markResolved}</button>
    </form>
    <p id="resolution-note-help">${t.markResolvedNote}</p>`;
}

/** A state the payment took, or what the service said against its final state (marked, as the operator must act). */
function timelineLine(h: HistoryEntry, t: ConsoleWords, locale: string): TemplateResult | string {
  if (h.kind === 'state') return t.stateLine(h.state, t.outcomes[h.outcome] ?? h.outcome, t.sources[h.source] ?? h.source);
  if (h.kind !== 'contradiction') return '';
  const amount = h.amount === undefined ? undefined : formatAmount(h.amount, h.currency ?? '', locale);
  return html`<span class="note contradiction">${t.contradictionLine(h.state, amount, `${h.recorded} (${t.outcomes[h.outcome] ?? h.outcome})`)}</span>`;
}

export function paymentDetail(c: DetailContext): TemplateResult {
  const { t, locale, detail } = c;
  const p = detail.payment;
  const f = t.facts;
  const timeline = detail.history.filter((h) => h.kind === 'state' || h.kind === 'contradiction');
  const announcements = detail.history.filter((h) => h.kind === 'announcement');
  return html`<p><button type="button" @click=${() => c.back()}>← ${t.back}</button></p>
    <h2 id="payment-heading" tabindex="-1">${t.columns.payment} ${p.id}</h2>
    <dl>
      <dt>${f.order}</dt><dd>${p.orderId}</dd>
      <dt>${f.payment}</dt><dd>${p.id}</dd>
      <dt>${f.method}</dt><dd>${p.method.toUpperCase()}</dd>
      <dt>${f.amount}</dt><dd>${formatAmount(p.amount, p.currency, locale)}</dd>
      <dt>${f.priced}</dt><dd>${formatAmount(p.priced, p.pricedCurrency, locale)}</dd>
      <dt>${f.state}</dt><dd>${p.state} · ${outcomeBadge(p, t)} ${notesOf(p, t)}</dd>
      <dt>${f.created}</dt><dd>${formatTime(p.createdAt, locale)}</dd>
      <dt>${f.expires}</dt><dd>${formatTime(p.expiresAt, locale)}</dd>
      ${p.requisites ? html`<dt>${f.address}</dt><dd>${p.requisites.address}${p.requisites.bank ? ` (${p.requisites.bank})` : ''}</dd>` : nothing}
      ${p.refunded ? html`<dt>${f.refund}</dt><dd>${t.refundedBy(p.refunded.operator, formatTime(p.refunded.at, locale), p.refunded.reference)}</dd>` : nothing}
      ${p.resolved ? html`<dt>${f.resolution}</dt><dd>${t.resolvedBy(p.resolved.operator, formatTime(p.resolved.at, locale), p.resolved.note)}</dd>` : nothing}
    </dl>
    ${refundPart(c)}
    ${detail.announcement.failing ? html`<p class="note">${t.failingNow}</p>` : nothing}
    ${contradictionPart(c)}
    <div class="actions">
      <button type="button" class="primary" aria-disabled=${idle(c)} @click=${() => c.busy || c.act('recheck')}>${t.recheck}</button>
      <button type="button" aria-disabled=${idle(c)} @click=${() => c.busy || c.act('redeliver')} aria-describedby="redeliver-note">${t.redeliver}</button>
    </div>
    <p id="redeliver-note">${t.redeliverNote}</p>
    <h2>${t.timeline}</h2>
    <ol class="timeline">
      ${timeline.map((h) => html`<li><time>${formatTime(h.at, locale)}</time> ${timelineLine(h, t, locale)}</li>`)}
    </ol>
    <h2>${t.announcements}</h2>
    <ol class="announcements">
      ${announcements.map(
        (h) =>
          html`<li><time>${formatTime(h.at, locale)}</time> ${h.kind === 'announcement' ? html`${t.announcementLine(h.state, h.ok, h.redelivery === true, h.attempt)}${h.error ? html` <span class="error">(${h.error})</span>` : nothing}` : ''}</li>`,
      )}
    </ol>
    <h2>${t.otherPayments}</h2>
    ${
      detail.order.payments.length
        ? html`<ul class="plain">
            ${detail.order.payments.map(
              (o) =>
                html`<li><button type="button" class="link" @click=${() => c.open(o.id)}>${o.id}</button> · ${o.method.toUpperCase()} · ${formatAmount(o.amount, o.currency, locale)} · ${outcomeBadge(o, t)} ${notesOf(o, t)}</li>`,
            )}
          </ul>`
        : html`<p>${t.noOtherPayments}</p>`
    }
    <h2>${t.audit}</h2>
    ${
      detail.audit.length
        ? html`<ul class="plain audit">
            ${detail.audit.map((a) => html`<li><time>${formatTime(a.at, locale)}</time> ${a.operator}: ${a.action} → ${a.result}</li>`)}
          </ul>`
        : html`<p>${t.noAudit}</p>`
    }`;
}
