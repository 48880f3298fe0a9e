/**
 * <payin-console>: the operator's console page. It asks the server who the operator is (and gets the CSRF token
 * for its actions), then shows the list or one payment. It keeps the filter and search in its own state, not in
 * the URL's query, so that nothing typed into it ends up in a log of URLs; the words follow the browser's
 * language (English or Russian, switchable), amounts and times the browser's locale and time zone.
 *
 * @attr base - the console's address, relative to the page (e.g. ./console), so that it holds under a prefix the
 *   server cannot see; the server writes it into the page
 */
import { html, LitElement, nothing } from 'lit';
import { actionWords, refusalWords } from './action-words.js';
import { type ConsoleAction, ConsoleCallError, ConsoleClient, type ListAnswer, type PaymentAnswer } from './console-client.js';
import { type ConsoleLang, pickLang, WORDS } from './console-i18n.js';
import { filterBar, paymentDetail, paymentTable } from './console-views.js';
import { LatestCall } from './latest-call.js';
import { consoleStyles } from './console.styles.js';

export class PayinConsole extends LitElement {
  static override styles = consoleStyles;
  static override properties = {
    base: { type: String },
    lang: { type: String, reflect: true },
    filter: { state: true },
    q: { state: true },
    list: { state: true },
    detail: { state: true },
    message: { state: true },
    failed: { state: true },
    busy: { state: true },
    operator: { state: true },
    canSignOut: { state: true },
  };

  declare base: string;
  declare lang: ConsoleLang;
  declare filter: string;
  declare q: string;
  declare list: ListAnswer | undefined;
  declare detail: PaymentAnswer | undefined;
  declare message: string;
  declare failed: boolean;
  declare busy: boolean;
  declare operator: string;
  /** False behind the shop's own sign-in, which the console cannot end: the shop signs its operators out. */
  declare canSignOut: boolean;
  #client: ConsoleClient | undefined;
  #filters: readonly string[] = [];
  /** Calls under way: the page is busy until the last of them is done, not the first. */
  #running = 0;
  /** List loads: an earlier one's answer (a slow 'Show more' overtaken by a filter) is dropped. */
  readonly #listLoads = new LatestCall();
  /** Payments opened: an earlier one's late answer is dropped. */
  readonly #opens = new LatestCall();
  /** Whether the operator acted on a payment since the list was loaded: its rows and counts may no longer hold. */
  #acted = false;
  readonly #locale = navigator.language;

  constructor() {
    super();
    this.base = '';
    this.lang = pickLang(navigator.languages);
    this.filter = 'all';
    this.q = '';
    this.message = '';
    this.failed = false;
    this.busy = false;
    this.operator = '';
    this.canSignOut = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#client = new ConsoleClient(this.base);
    void this.#run(async () => {
      const session = await this.#client!.session();
      this.operator = session.operator;
      this.canSignOut = session.signOut;
      this.#filters = session.filters;
      await this.#load();
    });
  }

  override updated(): void {
    document.documentElement.lang = this.lang;
  }

  get #t() {
    return WORDS[this.lang];
  }

  /**
   * Runs a call, showing its failure in the page's language (or as the server worded it, when the page has no
   * words for it); a new call clears the last failure.
   */
  async #run(work: () => Promise<unknown>): Promise<void> {
    this.#running++;
    this.busy = true;
    this.failed = false;
    this.message = '';
    try {
      await work();
    } catch (error) {
      this.failed = true;
      this.message = error instanceof ConsoleCallError ? refusalWords(this.#t, error, this.#locale) : this.#t.error;
      if (error instanceof ConsoleCallError && error.status === 401) location.reload();
    } finally {
      this.busy = --this.#running > 0;
    }
  }

  /**
   * Loads the list under `view` (the current filter and search unless given), and only once it has arrived makes
   * that view current: a load that fails leaves the rows on screen under the filter and search they belong to.
   * Only the latest load counts: a page of more rows that arrives after the operator chose another filter would
   * otherwise be added to that filter's rows and take its name back. True when this load's answer is the list.
   */
  async #load(cursor?: string, view = { filter: this.filter, q: this.q }): Promise<boolean> {
    const answer = await this.#listLoads.run(() => this.#client!.list(view.filter, view.q, cursor));
    if (!answer) return false;
    const { value: page } = answer;
    this.filter = view.filter;
    this.q = view.q;
    this.list = cursor && this.list ? { ...page, payments: [...this.list.payments, ...page.payments] } : page;
    if (!cursor) this.#acted = false;
    return true;
  }

  /** The next page of the list; the keyboard goes to the first of its rows, where the operator reads on. */
  #more = () =>
    this.#run(async () => {
      const shown = this.list?.payments.length ?? 0;
      if (!(await this.#load(this.list?.next))) return;
      const first = this.list?.payments[shown];
      if (first) await this.#focusRow(first.id);
    });

  /** Puts the keyboard on a payment's row in the list, or on the chosen filter when the row is not there. */
  async #focusRow(id: string): Promise<void> {
    await this.updateComplete;
    const root = this.renderRoot;
    const row = root.querySelector<HTMLElement>(`tr[data-payment="${CSS.escape(id)}"] button.link`);
    (row ?? root.querySelector<HTMLElement>('.filters button[aria-pressed="true"]'))?.focus();
  }

  /**
   * Opens one payment's page. Only the payment chosen last opens: one chosen before whose answer comes late would
   * otherwise take its place, and the operator would re-check or redeliver a payment other than the one chosen.
   */
  #open = (id: string) =>
    this.#run(async () => {
      this.message = '';
      const answer = await this.#opens.run(() => this.#client!.payment(id));
      if (!answer) return;
      this.detail = answer.value;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#payment-heading')?.focus();
    });

  #act = (action: ConsoleAction, fields?: Record<string, string>) =>
    this.#run(async () => {
      const id = this.detail!.payment.id;
      const t = this.#t;
      const name = { recheck: t.recheck, redeliver: t.redeliver, 'mark-refunded': t.markRefunded, 'mark-resolved': t.markResolved }[action];
      this.#acted = true;
      this.failed = false;
      this.message = '';
      try {
        const answer = await this.#client!.act(id, action, fields);
        this.message = `${name}: ${actionWords(this.#t, answer)}`;
      } finally {
        // Read again whatever came of it. A read that fails leaves the page as it was: what the operator is told is
        // the action's own word, its result or why it failed; the ledger's 'nothing was done; try again' would be
        // false after a redelivery that went out, and trying again sends the shop a second one. A refund another
        // operator marked first shows here, with who and when.
        this.detail = await this.#client!.payment(id).catch(() => this.detail);
        // The control pressed may be gone (Mark refunded, once marked): the keyboard goes to the payment's heading
        // rather than to the top of the page.
        await this.updateComplete;
        if (!this.shadowRoot?.activeElement) this.renderRoot.querySelector<HTMLElement>('#payment-heading')?.focus();
      }
    });

  /**
   * Back to the list, loaded again when what it shows no longer holds: the operator acted (a re-check that found
   * the payment paid moves it from Open to Paid, a redelivery takes it off Announcement failing, a refund marked
   * takes it off Second payment: refund, a contradiction marked resolved takes it off Service disagrees), or the payment
   * read here has changed since its row was. Otherwise the list stays as it was, with the rows shown so far.
   */
  #back = async () => {
    const payment = this.detail?.payment;
    if (!payment) return;
    const row = this.list?.payments.find((p) => p.id === payment.id);
    const stale = this.#acted || (row !== undefined && row.updatedAt !== payment.updatedAt);
    this.detail = undefined;
    // The keyboard goes back to the payment left; once the list is read again, to its row there (rows are drawn
    // in place, so the focused one may by then show another payment).
    await this.#focusRow(payment.id);
    if (stale)
      await this.#run(async () => {
        if (await this.#load()) await this.#focusRow(payment.id);
      });
  };

  #search = (event: SubmitEvent) => {
    event.preventDefault();
    const input = (event.target as HTMLFormElement).elements.namedItem('q') as HTMLInputElement;
    this.detail = undefined;
    void this.#run(() => this.#find({ filter: this.filter, q: input.value.trim() }));
  };

  #export = () =>
    this.#run(async () => {
      const blob = await this.#client!.exportCsv(this.filter, this.q);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `payments-${this.filter}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    });

  #signOut = () =>
    this.#run(async () => {
      await this.#client!.signOut();
      location.reload();
    });

  override render() {
    const t = this.#t;
    const common = { t, locale: this.#locale, busy: this.busy, open: this.#open };
    return html`<header>
        <h1>${t.title}</h1>
        <div>
          <label for="lang">${t.language}</label>
          <select id="lang" @change=${(e: Event) => (this.lang = (e.target as HTMLSelectElement).value as ConsoleLang)}>
            <option value="en" ?selected=${this.lang === 'en'}>English</option>
            <option value="ru" ?selected=${this.lang === 'ru'}>Русский</option>
          </select>
          ${this.canSignOut ? html`<button type="button" @click=${this.#signOut}>${t.signOut}</button>` : nothing}
        </div>
      </header>
      <p class="status ${this.failed ? 'error' : ''}" role="status" aria-live="polite">${this.message}</p>
      <main>
        ${
          this.detail
            ? paymentDetail({ ...common, detail: this.detail, back: this.#back, act: this.#act })
            : html`<form class="tools" role="search" @submit=${this.#search}>
                  <div>
                    <label for="q">${t.search}</label>
                    <input id="q" name="q" type="search" .value=${this.q} autocomplete="off" spellcheck="false">
                  </div>
                  <button type="submit" class="primary">${t.searchButton}</button>
                  ${this.q ? html`<button type="button" @click=${() => this.#clear()}>${t.clear}</button>` : nothing}
                  <button type="button" @click=${this.#export}>${t.export}</button>
                </form>
                ${filterBar({ ...common, filters: this.#filters, filter: this.filter, q: this.q, list: this.list, setFilter: (f) => this.#setFilter(f), more: () => {} })}
                ${paymentTable({ ...common, filters: this.#filters, filter: this.filter, q: this.q, list: this.list, setFilter: () => {}, more: this.#more })}`
        }
      </main>`;
  }

  #setFilter(filter: string) {
    void this.#run(() => this.#find({ filter, q: this.q }));
  }

  #clear() {
    void this.#run(() => this.#find({ filter: this.filter, q: '' }));
  }

  /**
   * Loads the list the operator asked for (a filter, a search) and says in the live region what it found: the
   * focus stays on the control pressed, and a screen reader would otherwise hear nothing of the rows that came.
   */
  async #find(view: { filter: string; q: string }): Promise<void> {
    if (!(await this.#load(undefined, view)) || !this.list) return;
    const format = (n: number) => new Intl.NumberFormat(this.#locale).format(n);
    const count = this.list.payments.length;
    const total = this.q ? undefined : format(this.list.counts[this.filter] ?? count);
    this.message = count === 0 ? this.#t.empty : this.#t.shown(format(count), count, total);
  }
}
