// Every screen, saved as a PNG by screenshots.config.mjs (not a test: it asserts nothing).
import { emulateMedia, executeServerCommand, setViewport } from '@web/test-runner-commands';
import { en } from '../../src/widget/translations/en.js';
import { LANGUAGE_TAGS } from '../../src/widget/translations/language-tags.js';
import { LANGUAGES } from '../../src/widget/translations/languages.js';
import { drawScreen, SCREEN_CASES, screenHost } from './support/every-screen.js';
import { fakeScenario, mount, part, sleep, untilScreen } from './support/helpers.js';
import { ManualClock } from './support/manual-clock.js';

const C2B = 'https://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';

const shot = async (name: string, selector?: string) => {
  await sleep(150);
  console.log(await executeServerCommand('screenshot', { name, selector }));
};

describe('screenshots', () => {
  it('of every screen', async () => {
    for (const [scheme, width] of [
      ['light', 520],
      ['dark', 380],
    ] as const) {
      await emulateMedia({ colorScheme: scheme });
      await setViewport({ width, height: 1000 });
      document.body.style.margin = '8px';
      document.body.style.background = scheme === 'dark' ? '#0d1117' : '#fff';
      const suffix = `${scheme}-${width}`;
      const fake = await fakeScenario({ requisitesAfterMs: 2500, noStream: true });
      const choose = await mount(fake.endpoint, { methods: 'sbp upi' });
      await shot(`01-choose-${suffix}`);
      choose.remove();
      const el = await mount(fake.endpoint, { method: 'upi', pollInterval: 200 });
      await shot(`02-start-${suffix}`);
      void el.start();
      await untilScreen(el, 'preparing');
      await shot(`03-preparing-${suffix}`);
      await untilScreen(el, 'pay', 5000);
      await shot(`04-pay-upi-${suffix}`);
      await fake.configure({ failStatus: 1, failWith: 503 });
      await el.refresh();
      await shot(`05-pay-notice-${suffix}`);
      await fake.set({ state: 'in_check' });
      await untilScreen(el, 'checking');
      await shot(`06-checking-${suffix}`);
      await fake.set({ state: 'finished', amount: '450.00' });
      await untilScreen(el, 'paid');
      await shot(`07-paid-${suffix}`);
      el.remove();
      const sbp = await mount(fake.endpoint, { method: 'sbp', lang: 'ru' });
      await sbp.start();
      await untilScreen(sbp, 'pay', 5000);
      await shot(`08-pay-sbp-ru-${suffix}`);
      await fake.set({ state: 'expired' });
      await untilScreen(sbp, 'expired');
      await shot(`09-expired-ru-${suffix}`);
      sbp.remove();
      const hi = await mount(fake.endpoint, { method: 'upi', lang: 'hi', orderId: `hi-${scheme}` });
      await hi.start();
      await untilScreen(hi, 'pay', 5000);
      await shot(`10-pay-upi-hi-${suffix}`);
      await fake.set({ state: 'canceled' });
      await untilScreen(hi, 'failed');
      await shot(`11-failed-hi-${suffix}`);
      hi.remove();
      const broken = await fakeScenario({ failCreates: 1, failWith: 502 });
      const error = await mount(broken.endpoint, { method: 'upi' });
      await error.start();
      await untilScreen(error, 'error', 8000);
      await shot(`12-error-${suffix}`);
      error.remove();
    }
  });

  it('of the phone screens, at 375x667', async () => {
    await emulateMedia({ colorScheme: 'light' });
    await setViewport({ width: 375, height: 667 });
    document.body.style.margin = '0';
    document.body.style.background = '#fff';
    const fake = await fakeScenario({ noStream: true });
    for (const platform of ['android', 'ios']) {
      const clock = new ManualClock();
      const upi = await mount(fake.endpoint, { method: 'upi', platform, clock, noRemember: true, orderId: `phone-${platform}` });
      await upi.start();
      await untilScreen(upi, 'pay', 5000);
      await shot(`20-phone-upi-${platform}`);
      window.addEventListener('click', (e) => e.preventDefault(), { once: true });
      part(upi, 'app-link')!.click();
      await clock.advance(2_100);
      await shot(`21-phone-upi-didnt-open-${platform}`);
      part<HTMLDetailsElement>(upi, 'other-device')!.open = true;
      await shot(`22-phone-upi-other-device-${platform}`);
      upi.remove();
    }
    const c2b = await fakeScenario({ noStream: true, qr: C2B });
    const sbp = await mount(c2b.endpoint, { method: 'sbp', platform: 'android', lang: 'ru', noRemember: true });
    await sbp.start();
    await untilScreen(sbp, 'pay', 5000);
    await sleep(300);
    await shot('23-phone-sbp-banks-ru-android');
    sbp.remove();
    const phoneShape = await mount(fake.endpoint, { method: 'sbp', platform: 'ios', noRemember: true });
    await phoneShape.start();
    await untilScreen(phoneShape, 'pay', 5000);
    await sleep(300);
    await shot('24-phone-sbp-transfer-ios');
    await fake.set({ expiresInMs: 0 });
    await untilScreen(phoneShape, 'late', 5000);
    await shot('25-phone-late');
    phoneShape.remove();
  });

  it('of every screen in every language, at 375 px (support/every-screen.ts)', async () => {
    await emulateMedia({ colorScheme: 'light' });
    await setViewport({ width: 375, height: 900 });
    document.body.style.margin = '0';
    document.body.style.fontFamily = 'sans-serif';
    for (const lang of ['en', ...LANGUAGE_TAGS]) {
      const t = lang === 'en' ? en : await LANGUAGES.get(lang)!();
      const { host, root } = screenHost();
      host.id = 'screen';
      for (const [i, c] of SCREEN_CASES.entries()) {
        drawScreen(root, t, lang, c);
        await shot(`lang-${lang}-${String(i).padStart(2, '0')}-${c.name.replace(/\W+/g, '-')}`, '#screen');
      }
      host.remove();
    }
  });
});
