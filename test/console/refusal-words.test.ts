/**
 * The console page's words for a refusal (src/console/action-words.ts): in the operator's language from the
 * refusal's code and facts, and the server's English message when there are no facts to word (a server of an
 * older version during an upgrade) or the page does not know them (a newer one).
 */
import { describe, expect, it } from 'vitest';
import { refusalWords } from '../../src/console/action-words.js';
import { ConsoleCallError } from '../../src/console/console-client.js';
import { en, ru } from '../../src/console/console-i18n.js';

const refused = (code: string, detail: Record<string, unknown> = {}, message = 'the server said so') =>
  new ConsoleCallError(502, message, code, detail);

describe("a refusal's words", () => {
  it.each([
    [{ reason: 'unknown_payment', refusalCode: 404 }, /^платёжный сервис не знает этот платёж \(код 404\): ничего не изменено;/],
    [{ reason: 'unknown_payment', httpStatus: 404 }, /^платёжный сервис не знает этот платёж \(HTTP 404\)/],
    [{ reason: 'refused', httpStatus: 401 }, /^платёжный сервис отказал в запросе статуса \(HTTP 401\).*учётные данные мерчанта$/],
    [{ reason: 'signature' }, /проверку подписи.*секрет мерчанта$/],
    [{ reason: 'malformed' }, /^платёжный сервис ответил не об этом платеже/],
    [{ reason: 'failed', httpStatus: 503 }, /^сбой платёжного сервиса \(HTTP 503\): ничего не изменено; попробуйте позже$/],
    [{ reason: 'no_answer' }, /^платёжный сервис не ответил: ничего не изменено; попробуйте позже$/],
  ])('words a re-check the service did not answer (%o) in Russian', (facts, words) => {
    expect(refusalWords(ru, refused('service_unavailable', facts), 'ru-RU')).toMatch(words);
  });

  it('words the English page as the server does', () => {
    const message =
      'the payment service does not know this payment (code 404): nothing was changed; check that PAYIN_BASE_URL and the merchant are the ones that created it';
    expect(refusalWords(en, refused('service_unavailable', { reason: 'unknown_payment', refusalCode: 404 }), 'en-GB')).toBe(message);
  });

  it('words the other refusals an operator can meet in Russian', () => {
    expect(refusalWords(ru, refused('store_unavailable'), 'ru-RU')).toMatch(/^журнал платежей сейчас не удаётся прочитать/);
    expect(refusalWords(ru, refused('not_found', { reason: 'no_payment' }), 'ru-RU')).toBe('платежа с таким номером нет');
    expect(refusalWords(ru, refused('forbidden', { reason: 'not_console_page' }), 'ru-RU')).toMatch(/^отказано: .*обновите страницу$/);
    expect(
      refusalWords(ru, refused('forbidden', { reason: 'host_mismatch', origin: 'https://shop.test', host: '127.0.0.1:8787' }), 'ru-RU'),
    ).toMatch(/страница https:\/\/shop\.test, а пришёл он на адрес 127\.0\.0\.1:8787/);
    expect(refusalWords(ru, refused('bad_request', { reason: 'reference_control_character' }), 'ru-RU')).toMatch(/управляющий символ/);
  });

  it("shows the server's message for a refusal without facts, with a reason the page does not know, or of a code it does not word", () => {
    expect(refusalWords(ru, refused('service_unavailable'), 'ru-RU')).toBe('the server said so');
    expect(refusalWords(ru, refused('service_unavailable', { reason: 'on_strike' }), 'ru-RU')).toBe('the server said so');
    expect(refusalWords(ru, refused('not_found'), 'ru-RU')).toBe('the server said so');
    expect(refusalWords(ru, refused('method_not_allowed'), 'ru-RU')).toBe('the server said so');
    expect(refusalWords(ru, refused('toString'), 'ru-RU')).toBe('the server said so');
  });
});
