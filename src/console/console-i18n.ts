/**
 * The console's words in English and Russian. The operator's browser language picks one (a switch changes it);
 * numbers, amounts and times are written by Intl in the operator's own locale and time zone, whatever the words.
 */
import type { ActionOutcome } from '../console-api/console-actions.js';
import type { RefusalFacts } from '../console-api/console-refusals.js';

/** A word for every outcome an action can answer: a new outcome on the server does not type-check until worded. */
export type OutcomeWords = { [K in ActionOutcome['outcome']]: (answer: Extract<ActionOutcome, { outcome: K }>) => string };

/** Words for every reason a refusal gives (console-api/console-refusals.ts): a new reason does not type-check until worded. */
export type ReasonWords<C extends keyof RefusalFacts> = RefusalFacts[C] extends { reason: string }
  ? { [R in RefusalFacts[C]['reason']]: (facts: Extract<RefusalFacts[C], { reason: R }>) => string }
  : never;

export interface ConsoleWords {
  title: string;
  search: string;
  searchButton: string;
  clear: string;
  filters: Record<string, string>;
  export: string;
  signOut: string;
  columns: { created: string; order: string; payment: string; method: string; amount: string; outcome: string; notes: string };
  outcomes: Record<string, string>;
  notes: { late: string; second: string; refunded: string; contradicted: string; resolved: string; stuck: string };
  empty: string;
  /** What a list load found, said in the live region: `total` is the filter's count, when no search narrows it. */
  shown: (shown: string, count: number, total?: string) => string;
  /** The table's caption, which names it among a screen reader's tables: the filter's word, and the search if any. */
  caption: (filter: string, q: string) => string;
  more: string;
  loading: string;
  back: string;
  facts: {
    order: string;
    payment: string;
    method: string;
    amount: string;
    priced: string;
    state: string;
    created: string;
    expires: string;
    address: string;
    refund: string;
    resolution: string;
  };
  recheck: string;
  redeliver: string;
  redeliverNote: string;
  timeline: string;
  announcements: string;
  otherPayments: string;
  noOtherPayments: string;
  audit: string;
  noAudit: string;
  stateLine: (state: string, outcome: string, source: string) => string;
  /** `attempt`: which try of the state failed, when the outbox counted it. */
  announcementLine: (state: string, ok: boolean, redelivery: boolean, attempt?: number) => string;
  /**
   * The service says `now` (with `amount`, already written in the operator's locale, when it gave one) about a final
   * payment the shop was told was `told` (its state and outcome): nothing changed or announced.
   */
  contradictionLine: (now: string, amount: string | undefined, told: string) => string;
  /** Above the actions, while the payment's contradiction is not resolved: what the operator has to do about it. */
  contradicted: string;
  /** Once an operator marked the contradiction dealt with. */
  contradictionResolved: string;
  /** The resolution fact: who marked it, when (already written in the operator's locale), the note given. */
  resolvedBy: (operator: string, at: string, note?: string) => string;
  markResolved: string;
  resolutionNote: string;
  markResolvedNote: string;
  sources: Record<string, string>;
  failingNow: string;
  secondOf: (id: string) => string;
  /** A second payment an operator marked refunded: `first` paid the order. */
  secondRefunded: (first: string) => string;
  /** The refund fact: who marked it, when (already written in the operator's locale), the reference given. */
  refundedBy: (operator: string, at: string, reference?: string) => string;
  markRefunded: string;
  refundReference: string;
  markRefundedNote: string;
  /** What came of an action, after its name (console-api/console-actions.ts). */
  actionOutcomes: OutcomeWords;
  /** Added when the audit log could not take the action's line: the action was done all the same. */
  notAudited: string;
  /**
   * Refusals the page can meet, by their code (and reason); others, and a refusal from an older server without its
   * facts, show the server's message. `at` is written in the locale.
   */
  refusals: {
    service_unavailable: ReasonWords<'service_unavailable'>;
    store_unavailable: string;
    unauthorized: string;
    forbidden: ReasonWords<'forbidden'>;
    not_found: ReasonWords<'not_found'>;
    bad_request: ReasonWords<'bad_request'>;
    already_refunded: (operator: string, at: string, reference?: string) => string;
    busy: string;
    not_second_payment: string;
    already_resolved: (operator: string, at: string, note?: string) => string;
    not_contradicted: string;
  };
  language: string;
  error: string;
}

/** Which status the service gave: its HTTP status, else the code of its refusal (`code` in the page's language). */
function said({ httpStatus, refusalCode }: { httpStatus?: number; refusalCode?: number }, code: string): string {
  return httpStatus === undefined ? `${code} ${refusalCode ?? '?'}` : `HTTP ${httpStatus}`;
}

export const en: ConsoleWords = {
  title: 'Payments',
  search: 'Order id or payment id',
  searchButton: 'Find',
  clear: 'Show all',
  filters: {
    all: 'All',
    open: 'Open',
    paid: 'Paid',
    late: 'Paid late',
    underpaid: 'Underpaid',
    superseded: 'Superseded',
    expired: 'Expired',
    failed: 'Failed',
    second: 'Second payment: refund',
    refunded: 'Second payment: refunded',
    contradicted: 'Service disagrees',
    resolved: 'Service disagreed: resolved',
    failing: 'Announcement failing',
    stuck: 'Stuck',
  },
  export: 'Export CSV',
  signOut: 'Sign out',
  columns: {
    created: 'Created',
    order: 'Order',
    payment: 'Payment',
    method: 'Method',
    amount: 'Amount',
    outcome: 'Outcome',
    notes: 'Notes',
  },
  outcomes: {
    waiting: 'Waiting',
    checking: 'Checking',
    paid: 'Paid',
    underpaid: 'Underpaid',
    superseded: 'Superseded',
    expired: 'Expired',
    failed: 'Failed',
  },
  notes: {
    late: 'paid after expiry',
    second: 'second payment: refund it',
    refunded: 'second payment: refunded',
    contradicted: 'the service disagrees: look into it',
    resolved: 'the service disagreed: resolved',
    stuck: 'stuck: open past expiry',
  },
  empty: 'No payments here.',
  shown: (shown, count, total) =>
    total === undefined ? `${shown} ${count === 1 ? 'payment' : 'payments'} shown` : `${shown} of ${total} payments shown`,
  caption: (filter, q) => `Payments: ${filter}${q ? `, search “${q}”` : ''}`,
  more: 'Show more',
  loading: 'Loading…',
  back: 'Back to the list',
  facts: {
    order: 'Order',
    payment: 'Payment id (service)',
    method: 'Method',
    amount: 'Amount',
    priced: 'Priced by the shop',
    state: 'State at the service',
    created: 'Created',
    expires: 'Expires',
    address: 'Pay to (requisites)',
    refund: 'Refund',
    resolution: 'Resolved',
  },
  recheck: 'Re-check now',
  redeliver: 'Redeliver announcement',
  redeliverNote: 'The shop receives the same state again; its hook must already accept a state it has seen.',
  timeline: 'Timeline',
  announcements: 'Announcements to the shop',
  otherPayments: "The order's other payments",
  noOtherPayments: 'None.',
  audit: 'Operator actions',
  noAudit: 'None yet.',
  stateLine: (state, outcome, source) => `State ${state} (${outcome}), from ${source}`,
  announcementLine: (state, ok, redelivery, attempt) =>
    `${redelivery ? 'Redelivery' : 'Announcement'} of ${state}: ${ok ? 'taken by the shop' : `not taken${attempt ? ` (attempt ${attempt})` : ''}`}`,
  contradictionLine: (now, amount, told) =>
    `The service now says ${now}${amount ? `, ${amount}` : ''}; the shop was told ${told}. Nothing was changed or announced.`,
  contradicted:
    'The service contradicts the final state the shop was told (see the timeline): look at the payment at the service, a refund to make or goods to ship.',
  contradictionResolved: 'The service contradicted the final state the shop was told (see the timeline): resolved.',
  resolvedBy: (operator, at, note) => `marked resolved by ${operator}, ${at}${note ? ` · ${note}` : ''}`,
  markResolved: 'Mark resolved',
  resolutionNote: 'What was done (optional)',
  markResolvedNote:
    'Deal with it at the payment service first: this records that it was done, with your name, and takes it off Service disagrees.',
  sources: {
    create: 'create',
    status: 'a status call',
    callback: 'a callback',
    events: 'an event stream',
    reconcile: 'a re-check',
    outbox: 'a retry',
  },
  failingNow: "The shop's hook has not taken the current state yet.",
  secondOf: (id) => `Second payment of the order (first: ${id}): refund it.`,
  secondRefunded: (first) => `Second payment of the order (first: ${first}): refunded.`,
  refundedBy: (operator, at, reference) => `marked refunded by ${operator}, ${at}${reference ? ` · reference ${reference}` : ''}`,
  markRefunded: 'Mark refunded',
  refundReference: 'Refund reference (optional)',
  markRefundedNote:
    'Refund it at the payment service first: this records that it was done, with your name, and takes it off the refunds to do.',
  actionOutcomes: {
    changed: ({ state }) => `now ${state}`,
    unchanged: ({ state }) => `unchanged (${state})`,
    'marked-refunded': ({ reference }) => `marked refunded${reference ? ` (reference ${reference})` : ''}`,
    'marked-resolved': ({ note }) => `marked resolved${note ? ` (${note})` : ''}`,
    sent: () => 'sent: the shop took it',
    failed: () => "the shop's hook did not take it",
    unknown: () => 'no such payment',
    'no-hook': () => 'no announcement hook is configured',
  },
  notAudited: ' (not in the audit log: the ledger could not be written)',
  refusals: {
    already_refunded: (operator, at, reference) =>
      `already marked refunded by ${operator}, ${at}${reference ? `, reference ${reference}` : ''}: not marked again`,
    busy: 'already being redelivered by someone else',
    not_second_payment: 'only a second payment of an order can be marked refunded: this one is not, so there is no refund to record',
    already_resolved: (operator, at, note) =>
      `already marked resolved by ${operator}, ${at}${note ? `, note: ${note}` : ''}: not marked again`,
    not_contradicted: 'only a payment the service contradicted can be marked resolved: the service has said nothing against this one',
    service_unavailable: {
      unknown_payment: (facts) =>
        `the payment service does not know this payment (${said(facts, 'code')}): nothing was changed; check that PAYIN_BASE_URL and the merchant are the ones that created it`,
      refused: (facts) =>
        `the payment service refused the status call (${said(facts, 'code')}): nothing was changed; check the merchant's credentials`,
      signature: () => "the payment service's answer failed its signature check: nothing was changed; check the merchant's secret",
      malformed: () => 'the payment service answered something that is not this payment: nothing was changed; try again later',
      failed: ({ httpStatus }) => `the payment service failed (HTTP ${httpStatus ?? '?'}): nothing was changed; try again later`,
      no_answer: () => 'the payment service did not answer: nothing was changed; try again later',
    },
    store_unavailable: 'the ledger could not be read or written just now: nothing was done; try again',
    unauthorized: 'sign in to the console',
    forbidden: {
      not_console_page: () => 'refused: not a request of the console page; reload the page',
      host_mismatch: ({ origin, host }) =>
        `refused: the page at ${origin} sent this request, which arrived addressed to ${host}. Behind a web server, pass the browser's Host header on (nginx: proxy_set_header Host $host;)`,
    },
    not_found: { no_payment: () => 'no payment with this id' },
    bad_request: {
      reference_control_character: () =>
        'the refund reference holds a control character (such as a tab, a line break or a direction mark): type it again',
      note_control_character: () => 'the note holds a control character (such as a tab, a line break or a direction mark): type it again',
    },
  },
  language: 'Language',
  error: 'Something went wrong',
};

export const ru: ConsoleWords = {
  title: 'Платежи',
  search: 'Номер заказа или платежа',
  searchButton: 'Найти',
  clear: 'Показать все',
  filters: {
    all: 'Все',
    open: 'Открытые',
    paid: 'Оплачены',
    late: 'Оплачены поздно',
    underpaid: 'Недоплата',
    superseded: 'Заменены',
    expired: 'Истекли',
    failed: 'Ошибка',
    second: 'Второй платёж: возврат',
    refunded: 'Второй платёж: возвращён',
    contradicted: 'Сервис возражает',
    resolved: 'Сервис возражал: решено',
    failing: 'Уведомление не доходит',
    stuck: 'Зависли',
  },
  export: 'Выгрузить CSV',
  signOut: 'Выйти',
  columns: { created: 'Создан', order: 'Заказ', payment: 'Платёж', method: 'Способ', amount: 'Сумма', outcome: 'Итог', notes: 'Заметки' },
  outcomes: {
    waiting: 'Ожидает',
    checking: 'Проверка',
    paid: 'Оплачен',
    underpaid: 'Недоплата',
    superseded: 'Заменён',
    expired: 'Истёк',
    failed: 'Ошибка',
  },
  notes: {
    late: 'оплачен после срока',
    second: 'второй платёж: вернуть',
    refunded: 'второй платёж: возвращён',
    contradicted: 'сервис возражает: разберитесь',
    resolved: 'сервис возражал: решено',
    stuck: 'завис: открыт после срока',
  },
  empty: 'Здесь платежей нет.',
  shown: (shown, count, total) => {
    const one = new Intl.PluralRules('ru').select(count);
    if (total !== undefined) return `Показано ${shown} из ${total}`;
    return one === 'one' ? `Показан ${shown} платёж` : `Показано ${shown} ${one === 'few' ? 'платежа' : 'платежей'}`;
  },
  caption: (filter, q) => `Платежи: ${filter}${q ? `, поиск «${q}»` : ''}`,
  more: 'Показать ещё',
  loading: 'Загрузка…',
  back: 'Назад к списку',
  facts: {
    order: 'Заказ',
    payment: 'Номер платежа (сервис)',
    method: 'Способ',
    amount: 'Сумма',
    priced: 'Цена магазина',
    state: 'Состояние в сервисе',
    created: 'Создан',
    expires: 'Истекает',
    address: 'Реквизиты',
    refund: 'Возврат',
    resolution: 'Решено',
  },
  recheck: 'Проверить сейчас',
  redeliver: 'Отправить уведомление снова',
  redeliverNote: 'Магазин получит то же состояние ещё раз; его обработчик должен принимать повторы.',
  timeline: 'История',
  announcements: 'Уведомления магазину',
  otherPayments: 'Другие платежи заказа',
  noOtherPayments: 'Нет.',
  audit: 'Действия операторов',
  noAudit: 'Пока нет.',
  stateLine: (state, outcome, source) => `Состояние ${state} (${outcome}), источник: ${source}`,
  announcementLine: (state, ok, redelivery, attempt) =>
    `${redelivery ? 'Повторное уведомление' : 'Уведомление'} о ${state}: ${ok ? 'принято магазином' : `не принято${attempt ? ` (попытка ${attempt})` : ''}`}`,
  contradictionLine: (now, amount, told) =>
    `Сервис теперь сообщает ${now}${amount ? `, ${amount}` : ''}; магазину было сообщено ${told}. Ничего не изменено, магазин не уведомлён.`,
  contradicted:
    'Сервис противоречит окончательному состоянию, о котором узнал магазин (см. историю): проверьте платёж в сервисе, нужен возврат или отгрузка.',
  contradictionResolved: 'Сервис противоречил окончательному состоянию, о котором узнал магазин (см. историю): решено.',
  resolvedBy: (operator, at, note) => `отмечено оператором ${operator}, ${at}${note ? ` · ${note}` : ''}`,
  markResolved: 'Отметить как решённое',
  resolutionNote: 'Что сделано (необязательно)',
  markResolvedNote:
    'Сначала разберитесь с платежом в платёжном сервисе: здесь лишь отмечается, что это сделано (с вашим именем), и платёж уходит из списка «Сервис возражает».',
  sources: {
    create: 'создание',
    status: 'запрос статуса',
    callback: 'колбэк',
    events: 'поток событий',
    reconcile: 'перепроверка',
    outbox: 'повтор',
  },
  failingNow: 'Обработчик магазина ещё не принял текущее состояние.',
  secondOf: (id) => `Второй платёж заказа (первый: ${id}): верните его.`,
  secondRefunded: (first) => `Второй платёж заказа (первый: ${first}): возвращён.`,
  refundedBy: (operator, at, reference) => `отмечен оператором ${operator}, ${at}${reference ? ` · номер возврата ${reference}` : ''}`,
  markRefunded: 'Отметить возврат',
  refundReference: 'Номер возврата (необязательно)',
  markRefundedNote:
    'Сначала верните платёж в платёжном сервисе: здесь лишь отмечается, что возврат сделан (с вашим именем), и платёж уходит из списка возвратов.',
  actionOutcomes: {
    changed: ({ state }) => `теперь ${state}`,
    unchanged: ({ state }) => `без изменений (${state})`,
    'marked-refunded': ({ reference }) => `возврат отмечен${reference ? ` (номер возврата ${reference})` : ''}`,
    'marked-resolved': ({ note }) => `отмечено как решённое${note ? ` (${note})` : ''}`,
    sent: () => 'отправлено: магазин принял',
    failed: () => 'обработчик магазина не принял',
    unknown: () => 'такого платежа нет',
    'no-hook': () => 'обработчик уведомлений не настроен',
  },
  notAudited: ' (нет в журнале действий: его не удалось записать)',
  refusals: {
    already_refunded: (operator, at, reference) =>
      `возврат уже отметил оператор ${operator}, ${at}${reference ? `, номер возврата ${reference}` : ''}: повторно не отмечен`,
    busy: 'уведомление уже отправляет кто-то другой',
    not_second_payment: 'отметить возврат можно только у второго платежа заказа: этот платёж не второй, возвращать нечего',
    already_resolved: (operator, at, note) =>
      `уже отметил как решённое оператор ${operator}, ${at}${note ? `, заметка: ${note}` : ''}: повторно не отмечено`,
    not_contradicted:
      'отметить как решённое можно только платёж, которому возражал сервис: об этом платеже сервис ничего против не сообщал',
    service_unavailable: {
      unknown_payment: (facts) =>
        `платёжный сервис не знает этот платёж (${said(facts, 'код')}): ничего не изменено; проверьте, что PAYIN_BASE_URL и мерчант те же, что создали платёж`,
      refused: (facts) =>
        `платёжный сервис отказал в запросе статуса (${said(facts, 'код')}): ничего не изменено; проверьте учётные данные мерчанта`,
      signature: () => 'ответ платёжного сервиса не прошёл проверку подписи: ничего не изменено; проверьте секрет мерчанта',
      malformed: () => 'платёжный сервис ответил не об этом платеже: ничего не изменено; попробуйте позже',
      failed: ({ httpStatus }) => `сбой платёжного сервиса (HTTP ${httpStatus ?? '?'}): ничего не изменено; попробуйте позже`,
      no_answer: () => 'платёжный сервис не ответил: ничего не изменено; попробуйте позже',
    },
    store_unavailable: 'журнал платежей сейчас не удаётся прочитать или записать: ничего не сделано; попробуйте ещё раз',
    unauthorized: 'войдите в консоль',
    forbidden: {
      not_console_page: () => 'отказано: запрос не от страницы консоли; обновите страницу',
      host_mismatch: ({ origin, host }) =>
        `отказано: запрос отправила страница ${origin}, а пришёл он на адрес ${host}. За веб-сервером передавайте дальше заголовок Host браузера (nginx: proxy_set_header Host $host;)`,
    },
    not_found: { no_payment: () => 'платежа с таким номером нет' },
    bad_request: {
      reference_control_character: () =>
        'в номере возврата есть управляющий символ (например, табуляция, перевод строки или знак направления текста): введите его заново',
      note_control_character: () =>
        'в заметке есть управляющий символ (например, табуляция, перевод строки или знак направления текста): введите её заново',
    },
  },
  language: 'Язык',
  error: 'Что-то пошло не так',
};

export const WORDS = { en, ru } as const;
export type ConsoleLang = keyof typeof WORDS;

export function pickLang(languages: readonly string[]): ConsoleLang {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'ru' || base === 'en') return base;
  }
  return 'en';
}
