/**
 * Every screen the element can show, in each of its variants (the desktop and the phone pay screens, the app and
 * bank choosers, the notices, every kind of error), rendered from the screen templates into a shadow root that
 * has the element's own stylesheet and its parts', in any translation, without a backend: a test can walk all of
 * them in every language in a few seconds. Every part is there (the ES module build's, imported here); a case
 * with `isPhone` draws the phone part's layout. The wrapper is the element's (`base`, then the screen's section).
 */
import { html, render } from 'lit';
import type { PaymentView } from '../../../src/shared/payment-view.js';
import { PayinError } from '../../../src/widget/api-client.js';
import type { FlowState, PaymentFlowController } from '../../../src/widget/controllers/payment-flow.js';
import type { PartName, Parts } from '../../../src/widget/parts/part-types.js';
import * as phonePart from '../../../src/widget/parts/phone.js';
import * as qrEncoderPart from '../../../src/widget/parts/qr-encoder.js';
import * as resultsPart from '../../../src/widget/parts/results.js';
import * as sbpBanksPart from '../../../src/widget/parts/sbp-banks.js';
import * as upiAppsPart from '../../../src/widget/parts/upi-apps.js';
import { styles } from '../../../src/widget/payin-checkout.styles.js';
import type { SbpBank } from '../../../src/widget/phone/deep-links.js';
import { type PhoneContext, phonePayScreen } from '../../../src/widget/phone/phone-layout.js';
import type { Translation } from '../../../src/widget/translations/translation.js';
import { renderScreen } from '../../../src/widget/views/screens.js';
import type { Screen, ViewContext } from '../../../src/widget/views/view-context.js';

/** The widest realistic amount: twelve lakh rupees and more. */
const PAYMENT: PaymentView = {
  id: 'pay_1',
  orderId: 'A-1001',
  method: 'upi',
  state: 'pending',
  outcome: 'waiting',
  final: false,
  amount: '1234567.50',
  currency: 'INR',
  createdAt: '2026-11-24T10:00:00Z',
  expiresAt: '2026-11-24T10:15:00Z',
  serverTime: '2026-11-24T10:00:00Z',
  requisites: { address: 'longshopname.payments@okhdfcbank', recipient: 'Sharma General Stores Pvt Ltd', bank: 'HDFC Bank' },
  qr: 'upi://pay?pa=longshopname.payments@okhdfcbank&pn=Sharma%20General%20Stores&am=1234567.50&cu=INR&tr=A-1001',
};

const SBP: PaymentView = {
  ...PAYMENT,
  method: 'sbp',
  currency: 'RUB',
  requisites: { address: '+7 900 123-45-67', recipient: 'Ivanov Ivan', bank: 'Sberbank' },
  qr: undefined,
};

const BANKS: SbpBank[] = ['Sberbank', 'T-Bank', 'VTB', 'Alfa-Bank', 'Gazprombank', 'Raiffeisenbank', 'Rosbank', 'Otkritie'].map(
  (bankName, i) => ({ bankName, schema: `bank1000000000${10 + i}`, package_name: `ru.bank${i}` }),
);

/** The service's state behind each outcome, as the proxy answers it (a superseded payment is still open unless paid). */
const STATE_OF: Partial<Record<PaymentView['outcome'], string>> = {
  checking: 'in_check',
  paid: 'finished',
  underpaid: 'finished',
  expired: 'expired',
  failed: 'failed',
};

const settled = (payment: PaymentView, outcome: PaymentView['outcome'], extra: Partial<PaymentView> = {}): PaymentView => ({
  ...payment,
  state: STATE_OF[outcome] ?? payment.state,
  outcome,
  final: outcome !== 'checking',
  ...extra,
});

export interface ScreenCase {
  name: string;
  screen: Screen;
  state: FlowState;
  /** What the screen's context says; `isPhone` picks the phone layout, with what it keeps of its own. */
  context?: Partial<PhoneContext> & { isPhone?: boolean };
}

const PARTS: Parts = {
  phone: phonePart,
  'upi-apps': upiAppsPart,
  'sbp-banks': sbpBanksPart,
  results: resultsPart,
  'qr-encoder': qrEncoderPart,
};

const error = (code: ConstructorParameters<typeof PayinError>[0]) => ({ phase: 'error' as const, error: new PayinError(code, code) });

/** Every screen and variant, by a name that says which. */
export const SCREEN_CASES: ScreenCase[] = [
  { name: 'start', screen: 'start', state: { phase: 'idle' } },
  { name: 'choose', screen: 'choose', state: { phase: 'idle' }, context: { methods: ['upi', 'sbp', 'c2c', 'card'] } },
  { name: 'loading', screen: 'loading', state: { phase: 'creating' } },
  { name: 'preparing', screen: 'preparing', state: { phase: 'active', payment: { ...PAYMENT, requisites: undefined } } },
  { name: 'pay, desktop, QR', screen: 'pay', state: { phase: 'active', payment: PAYMENT }, context: { methods: ['upi', 'sbp'] } },
  { name: 'pay, desktop, copied', screen: 'pay', state: { phase: 'active', payment: PAYMENT }, context: { copied: 'address' } },
  { name: 'pay, desktop, SBP without QR', screen: 'pay', state: { phase: 'active', payment: SBP } },
  {
    name: 'pay, desktop, card transfer',
    screen: 'pay',
    state: {
      phase: 'active',
      payment: { ...SBP, method: 'c2c', requisites: { address: '2200123456789012', recipient: 'Ivanov Ivan', bank: 'Sberbank' } },
    },
  },
  {
    name: 'pay, connection lost',
    screen: 'pay',
    state: { phase: 'active', payment: PAYMENT, trouble: new PayinError('network_error', '') },
  },
  {
    name: 'pay, android apps',
    screen: 'pay',
    state: { phase: 'active', payment: PAYMENT },
    context: { isPhone: true, platform: 'android' },
  },
  {
    name: 'pay, ios apps',
    screen: 'pay',
    state: { phase: 'active', payment: PAYMENT },
    context: { isPhone: true, platform: 'ios', upiApps: ['gpay', 'phonepe', 'paytm'] },
  },
  {
    name: "pay, app didn't open",
    screen: 'pay',
    state: { phase: 'active', payment: PAYMENT },
    context: { isPhone: true, platform: 'android', stuck: true },
  },
  {
    name: 'pay, other device',
    screen: 'pay',
    state: { phase: 'active', payment: PAYMENT },
    context: { isPhone: true, platform: 'android', otherDevice: true },
  },
  {
    name: 'pay, hosted page',
    screen: 'pay',
    state: { phase: 'active', payment: { ...PAYMENT, method: 'card', qr: 'https://pay.example/p/1', requisites: undefined } },
    context: { isPhone: true, platform: 'android' },
  },
  {
    name: 'pay, SBP banks',
    screen: 'pay',
    state: { phase: 'active', payment: SBP },
    context: { isPhone: true, platform: 'android', banks: BANKS },
  },
  {
    name: 'pay, SBP no such bank',
    screen: 'pay',
    state: { phase: 'active', payment: SBP },
    context: { isPhone: true, platform: 'ios', banks: BANKS, bankQuery: 'zzz' },
  },
  { name: 'checking', screen: 'checking', state: { phase: 'active', payment: settled(PAYMENT, 'checking') } },
  { name: 'checking, not confirmed', screen: 'checking', state: { phase: 'active', payment: settled(PAYMENT, 'checking'), stalled: true } },
  { name: 'late', screen: 'late', state: { phase: 'active', payment: PAYMENT, late: true } },
  { name: 'paid', screen: 'paid', state: { phase: 'active', payment: settled(PAYMENT, 'paid') } },
  {
    name: 'paid, another sum',
    screen: 'paid',
    state: { phase: 'active', payment: settled(PAYMENT, 'paid', { amount: '1234000.00', initAmount: '1234567.50' }) },
  },
  {
    name: 'underpaid',
    screen: 'underpaid',
    state: { phase: 'active', payment: settled(PAYMENT, 'underpaid', { amount: '1000000.00', initAmount: '1234567.50' }) },
  },
  {
    name: 'superseded',
    screen: 'superseded',
    state: { phase: 'active', payment: settled(PAYMENT, 'superseded') },
    context: { methods: ['upi', 'sbp'] },
  },
  {
    name: 'superseded, paid anyway',
    screen: 'superseded',
    state: { phase: 'active', payment: settled(PAYMENT, 'superseded', { state: 'finished' }) },
    context: { methods: ['upi', 'sbp'] },
  },
  {
    name: 'expired',
    screen: 'expired',
    state: { phase: 'active', payment: settled(PAYMENT, 'expired') },
    context: { methods: ['upi', 'sbp'] },
  },
  { name: 'failed', screen: 'failed', state: { phase: 'active', payment: settled(PAYMENT, 'failed') } },
  { name: 'error, network', screen: 'error', state: error('network_error') },
  { name: 'error, paid', screen: 'error', state: error('order_paid') },
  { name: 'error, setup', screen: 'error', state: error('misconfigured') },
  { name: 'error, service', screen: 'error', state: error('upstream_error') },
  { name: 'error, start again', screen: 'error', state: error('not_found') },
];

const noop = () => undefined;

function contextFor(t: Translation, locale: string, c: ScreenCase): ViewContext {
  const flow = { countdown: { remainingMs: 14 * 60_000 + 59_000 }, start: noop, retry: noop, refresh: noop, reset: noop };
  const { isPhone = false, ...context } = c.context ?? {};
  const view: ViewContext = {
    t,
    locale,
    flow: flow as unknown as PaymentFlowController,
    state: c.state,
    methods: [],
    copied: undefined,
    copy: noop,
    part: <K extends PartName>(name: K) => PARTS[name],
    phoneLayout: () =>
      isPhone
        ? {
            payScreen: (v, payment, title, qr) =>
              phonePayScreen(
                {
                  ...v,
                  platform: 'android',
                  upiApps: ['gpay', 'phonepe', 'paytm', 'bhim'],
                  recall: () => undefined,
                  banks: undefined,
                  bankQuery: '',
                  filterBanks: noop,
                  tapped: noop,
                  stuck: false,
                  otherDevice: false,
                  setOtherDevice: noop,
                  ...context,
                },
                payment,
                title,
                qr,
              ),
          }
        : undefined,
  };
  return { ...view, ...context };
}

/** A host with the element's stylesheet and its parts' in its shadow root, appended to the page. */
export function screenHost(): { host: HTMLElement; root: ShadowRoot } {
  const host = document.createElement('div');
  const root = host.attachShadow({ mode: 'open' });
  root.adoptedStyleSheets = [styles, phonePart.styles(), upiAppsPart.styles(), sbpBanksPart.styles(), resultsPart.styles()].map(
    (sheet) => sheet.styleSheet!,
  );
  document.body.append(host);
  return { host, root };
}

/** Draws one case in `t`, as the element wraps its screens. */
export function drawScreen(root: ShadowRoot, t: Translation, locale: string, c: ScreenCase): void {
  render(
    html`<div part="base" class="base" lang=${locale} dir=${t.dir ?? 'ltr'}>
      <section part="screen" class="screen ${c.screen}">${renderScreen(contextFor(t, locale, c), c.screen)}</section>
    </div>`,
    root,
  );
}
