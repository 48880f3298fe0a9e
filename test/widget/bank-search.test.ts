/**
 * The SBP bank chooser's search (src/widget/phone/bank-search.ts): a shopper whose keyboard is on Latin letters
 * finds «Сбербанк» by "sber", a query in Cyrillic finds what it always found, and the chooser's order holds.
 */
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { PayinCheckout } from '../../src/widget/index.js';
import { bankSearch, latinForm, MAX_BANK_QUERY, onRussianLayout } from '../../src/widget/phone/bank-search.js';
import type { SbpBank } from '../../src/widget/phone/deep-links.js';
import { PREFIX } from '../../src/widget/session-store.js';
import { fakeScenario, mount, part, parts, text, untilScreen } from './support/helpers.js';

/** Members of the NSPK list as it names them, with their apps' Android packages, in the proxy's order. */
const BANKS: SbpBank[] = [
  ['Сбербанк', 'bank100000000111', 'ru.sberbankmobile'],
  ['Т-Банк', 'bank100000000004', 'com.idamob.tinkoff.android'],
  ['ВТБ', 'bank100000000005', 'ru.vtb24.mobilebanking.android'],
  ['Альфа-Банк', 'bank100000000008', 'ru.alfabank.mobile.android'],
  ['Райффайзенбанк', 'bank100000000007', 'ru.raiffeisennews'],
  ['Промсвязьбанк', 'bank100000000010', 'logo.com.mbanking'],
  ['Россельхозбанк', 'bank100000000020', 'ru.rshb.dbo'],
  ['Почта Банк', 'bank100000000016', 'ru.pochta.bank'],
].map(([bankName, schema, package_name]) => ({ bankName, schema, package_name }));

const found = (query: string, banks = BANKS) => banks.filter(bankSearch(query, banks)).map((b) => b.bankName);

describe('the Latin form of a bank name', () => {
  it('transliterates Cyrillic, without case, ё, spaces, hyphens or punctuation', () => {
    expect(latinForm('Сбербанк')).to.equal('sberbank');
    expect(latinForm('«Альфа-Банк»')).to.equal('alfabank');
    expect(latinForm('Т-Банк')).to.equal(latinForm('T bank'));
    expect(latinForm('Почта Банк!')).to.equal('pochtabank');
    expect(latinForm('Ёлка')).to.equal(latinForm('елка'));
  });

  it('folds the spellings shoppers use for the same letters', () => {
    expect(latinForm('alpha')).to.equal(latinForm('Альфа'));
    expect(latinForm('rayffayzen')).to.equal(latinForm('Райффайзен'));
    expect(latinForm('promsvyaz')).to.equal(latinForm('Промсвязь'));
    expect(latinForm('rosselhoz')).to.equal(latinForm('Россельхоз'));
    expect(latinForm('rosselkhoz')).to.equal(latinForm('Россельхоз'));
  });

  it('reads keys typed on a Latin layout as the Russian layout gives them', () => {
    expect(onRussianLayout('c,th')).to.equal('сбер');
    expect(onRussianLayout('Fkmaf')).to.equal('альфа');
    expect(onRussianLayout('DN,')).to.equal('втб');
  });
});

describe('the bank search', () => {
  it('finds a bank by its name in Latin letters, as shoppers type it', () => {
    for (const q of ['sber', 'sberbank', 'SBER-BANK']) expect(found(q), q).to.deep.equal(['Сбербанк']);
    for (const q of ['alfa', 'alpha', 'Alfa Bank']) expect(found(q), q).to.deep.equal(['Альфа-Банк']);
    expect(found('vtb')).to.deep.equal(['ВТБ']);
    expect(found('t-bank')).to.deep.equal(['Т-Банк']);
    expect(found('raif')).to.deep.equal(['Райффайзенбанк']);
  });

  it('finds a bank by a word of its app package: the old name "tinkoff", only where the list carries it', () => {
    expect(found('tinkoff')).to.deep.equal(['Т-Банк']);
    expect(found('raiffeisen')).to.deep.equal(['Райффайзенбанк']);
    const withoutPackages = BANKS.map(({ bankName, schema }) => ({ bankName, schema }));
    expect(found('tinkoff', withoutPackages)).to.deep.equal([]);
    // The top level of a package (ru, com) is every app's: it finds no bank.
    expect(found('ru')).to.deep.equal([]);
  });

  it('finds a query in Cyrillic as before, its letters not folded with others', () => {
    expect(found('альфа')).to.deep.equal(['Альфа-Банк']);
    expect(found('ПОЧТА банк')).to.deep.equal(['Почта Банк']);
    // «ы» and «и» share a Latin letter (Райффайзен is "raiffaizen"); a Cyrillic query still tells them apart.
    expect(found('ы')).to.deep.equal([]);
    expect(found('нет такого')).to.deep.equal([]);
  });

  it('reads the keys on the Russian layout only when the letters as typed find nothing', () => {
    expect(found('c,th')).to.deep.equal(['Сбербанк']);
    expect(found('fkmaf')).to.deep.equal(['Альфа-Банк']);
    // "f" finds banks as typed (Альфа, Райффайзен), so it is not read as «а», which is in every name.
    expect(found('f')).to.deep.equal(['Альфа-Банк', 'Райффайзенбанк']);
  });

  it('reads no more of a query than a bank name could need: a page pasted by mistake costs what a word does', () => {
    // What comes after the first MAX_BANK_QUERY characters is not read (before, every character of a 100,000-character
    // paste was folded again for every bank, at every render: seconds each time).
    const pasted = `sber${' '.repeat(MAX_BANK_QUERY)}${'zzz '.repeat(25_000)}`;
    expect(found(pasted)).to.deep.equal(['Сбербанк']);
    expect(found(`альфа${'.'.repeat(MAX_BANK_QUERY)}я`)).to.deep.equal(['Альфа-Банк']);
    expect(MAX_BANK_QUERY).to.be.at.least(Math.max(...BANKS.map((b) => b.bankName.length)));
  });

  it('keeps the order it is given', () => {
    expect(found('bank')).to.deep.equal([
      'Сбербанк',
      'Т-Банк',
      'Альфа-Банк',
      'Райффайзенбанк',
      'Промсвязьбанк',
      'Россельхозбанк',
      'Почта Банк',
    ]);
  });
});

describe('the bank chooser on a phone', () => {
  const C2B = 'https://qr.nspk.ru/AD10006M8KH1LSBP9B6PG3B6F8S51A3O?type=02&bank=100000000111&sum=150000&cur=RUB&crc=C08B';
  const names = (el: PayinCheckout) => parts(el, 'bank-link').map((a) => a.lastElementChild!.textContent!.trim());

  before(() => setViewport({ width: 375, height: 667 }));
  after(() => setViewport({ width: 800, height: 600 }));
  beforeEach(() => localStorage.removeItem(`${PREFIX}sbp-bank`));

  it('finds Сбербанк when the shopper types "sber" on a Latin keyboard, and keeps the last bank first', async () => {
    localStorage.setItem(`${PREFIX}sbp-bank`, 'bank100000000273');
    const fake = await fakeScenario({ qr: C2B });
    const el = await mount(fake.endpoint, { method: 'sbp', platform: 'android', lang: 'ru' });
    await el.start();
    await untilScreen(el, 'pay');
    await waitUntil(() => parts(el, 'bank-link').length > 0, 'the bank list', { timeout: 5000 });
    const search = part<HTMLInputElement>(el, 'bank-search')!;
    const type = async (keys: string) => {
      search.value = '';
      search.focus();
      await sendKeys({ type: keys });
      await el.updateComplete;
    };

    await type('sber');
    expect(names(el)).to.deep.equal(['Сбербанк']);
    await type('tinkoff');
    expect(names(el)).to.deep.equal(['Т-Банк']);
    await type('c,th');
    expect(names(el)).to.deep.equal(['Сбербанк']);
    // The last bank (Озон) still comes first among what is found, the others in the proxy's order.
    await type('bank');
    expect(names(el)).to.deep.equal([
      'Озон Банк',
      'Сбербанк',
      'Т-Банк',
      'Альфа-Банк',
      'Райффайзенбанк',
      'Газпромбанк',
      'Совкомбанк',
      'Точка',
    ]);
    // The field takes no more than the search reads.
    expect(search.maxLength).to.equal(MAX_BANK_QUERY);
    await type('qqq');
    expect(names(el)).to.deep.equal([]);
    expect(text(el)).to.contain('Такого банка нет.');
    el.remove();
  });
});
