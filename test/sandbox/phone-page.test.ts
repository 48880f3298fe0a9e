/**
 * The sandbox's /phone page plays the payment app a deep link would open: it shows the app, payee, amount and
 * reference of the payment the link is for and a Pay button for it (the control API's pay action, which the page
 * calls with an empty POST); a bank app opened without a link shows a transfer form; a link no app would open
 * gets a clear 400 page, never a 500. Every answer carries the sandbox's strict CSP.
 */
import { describe, expect, it } from 'vitest';
import { upiLink } from '../../src/shared/qr-payload.js';
import { BASE, createPayment, setup } from './helpers.js';

const open = (sandbox: (r: Request) => Promise<Response>, link: string, extra = '') =>
  sandbox(new Request(`${BASE}/phone?link=${encodeURIComponent(link)}${extra}`));

describe('GET /phone', () => {
  it('shows the UPI payment an Android intent is for, in the app it names, and its Pay button pays it', async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0 });
    const id = await createPayment(sandbox, { orderId: 'PH-1' });
    await createPayment(sandbox, { orderId: 'PH-2' });
    await clock.advance(1);
    const payee = sandbox.payment(id)!.requisites!.address;
    const link = upiLink({ vpa: payee, payeeName: 'Tea & <Mugs>', amount: '250.00', reference: 'PH-1' });
    const answer = await open(sandbox, `intent://pay?${link.split('?')[1]}#Intent;scheme=upi;package=com.phonepe.app;end`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await answer.text();
    expect(html).toContain('<h1>Pay with PhonePe</h1>');
    expect(html).toContain(`Tea &amp; &lt;Mugs&gt; (${payee})`);
    expect(html).toContain('<dd>250.00 INR</dd>');
    expect(html).toContain('<dd>PH-1</dd>');
    expect(html.match(/class="pay" data-payment="/g)).toHaveLength(1);
    expect(html).toContain(`class="pay" data-payment="${id}"`);
    expect(html).toContain(`class="cancel" data-payment="${id}"`);
    expect(html).toContain('<button type="button" id="back">');
    expect(html).not.toMatch(/<script>|\son[a-z]+=/);

    const script = await (await sandbox(new Request(`${BASE}/phone.js`))).text();
    expect(script).toContain("'sandbox/payments/' + encodeURIComponent(button.dataset.payment) + '/' + action");
    expect(script).toContain('history.back()');
    const paid = await sandbox(new Request(`${BASE}/sandbox/payments/${id}/pay`, { method: 'POST' }));
    expect(paid.status).toBe(200);
    expect(sandbox.payment(id)!.state).toBe('finished');
    expect(await (await open(sandbox, link)).text()).toContain('No open payment of the sandbox matches this link');
  });

  it('pays the sum the link asks, as an app does, not the sum of the payment: a link asking less is paid less', async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0, sbpShape: 'c2b' });
    const upi = await createPayment(sandbox, { orderId: 'PH-3' });
    const sbp = await createPayment(sandbox, { orderId: 'S-3', method: 'sbp', currency: 'RUB', amount: '450.00' });
    await clock.advance(1);
    const payee = sandbox.payment(upi)!.requisites!.address;
    // The page showed the link's 200.00 and its Pay button paid the payment's 250.00: a widget whose link asked the
    // wrong sum was paid in full here, and never in production.
    const html = await (await open(sandbox, upiLink({ vpa: payee, payeeName: 'Shop', amount: '200.00', reference: 'PH-3' }))).text();
    expect(html).toContain('<dd>200.00 INR</dd>');
    expect(html).toContain(`class="pay" data-payment="${upi}" data-amount="200.00">Pay 200.00 INR</button>`);
    const c2b = sandbox.payment(sbp)!.media[0]!.replace('sum=45000', 'sum=44999');
    expect(await (await open(sandbox, c2b)).text()).toContain(`data-amount="449.99">Pay 449.99 RUB</button>`);
    const script = await (await sandbox(new Request(`${BASE}/phone.js`))).text();
    expect(script).toContain('JSON.stringify({ amount: sum })');
    // What the script sends for the button.
    const headers = { 'content-type': 'application/json' };
    await sandbox(new Request(`${BASE}/sandbox/payments/${upi}/pay`, { method: 'POST', headers, body: '{"amount":"200.00"}' }));
    expect(sandbox.payment(upi)).toMatchObject({ state: 'finished', amount: '200.00', init_amount: '250.00' });
  });

  it("sends the payer back to the shop's return URL: successUri, or failUri once cancelled in the app", async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0, sbpShape: 'c2b' });
    const back = { successUri: 'https://shop.example/checkout/S-9?paid=1', failUri: 'https://shop.example/checkout/S-9?f=1&x=<2>' };
    const id = await createPayment(sandbox, { orderId: 'S-9', method: 'sbp', currency: 'RUB', amount: '450.00', ...back });
    await clock.advance(1);
    expect(sandbox.payments().find((p) => p.id === id)).toMatchObject(back);
    const qr = sandbox.payment(id)!.media[0]!;
    const html = await (await open(sandbox, qr.replace('https://', 'bank100000000004://'))).text();
    expect(html).toContain(
      '<a id="back" class="button" href="https://shop.example/checkout/S-9?paid=1" data-fail="https://shop.example/checkout/S-9?f=1&amp;x=&lt;2&gt;">',
    );
    const script = await (await sandbox(new Request(`${BASE}/phone.js`))).text();
    expect(script).toContain("if (action === 'cancel' && back.dataset.fail) back.href = back.dataset.fail");
    const cancelled = await sandbox(new Request(`${BASE}/sandbox/payments/${id}/cancel`, { method: 'POST' }));
    expect(cancelled.status).toBe(200);
    expect(sandbox.payment(id)!.state).toBe('canceled');
  });

  it("shows the SBP payment a bank's C2B link is for: its payee, amount and order", async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0, sbpShape: 'c2b' });
    const id = await createPayment(sandbox, { orderId: 'S-1', method: 'sbp', currency: 'RUB', amount: '450.00' });
    await clock.advance(1);
    const p = sandbox.payment(id)!;
    const qr = p.media[0]!;
    const html = await (await open(sandbox, qr.replace('https://', 'bank100000000004://'))).text();
    expect(html).toContain('<h1>Т-Банк: pay by SBP</h1>');
    expect(html).toContain(`<dd>${p.requisites!.recipient}, ${p.requisites!.bank}</dd>`);
    expect(html).toContain('<dd>450.00 RUB</dd>');
    expect(html).toContain('<dd>S-1</dd>');
    expect(html).toContain(`data-payment="${id}"`);
  });

  it('shows a transfer form for a bank app opened without a link, and the payment to that number and sum', async () => {
    const { sandbox, clock } = setup({ requisitesDelayMs: 0 });
    const id = await createPayment(sandbox, { orderId: 'S-2', method: 'sbp', currency: 'RUB', amount: '450.00' });
    await clock.advance(1);
    const phone = sandbox.payment(id)!.requisites!.address;
    const link = 'intent://open#Intent;scheme=bank100000000111;package=ru.sberbankmobile;end';
    const form = await (await open(sandbox, link)).text();
    expect(form).toContain('<h1>Сбербанк: transfer by SBP</h1>');
    expect(form).toContain('<form method="get" action="phone"');
    expect(form).not.toContain('data-payment=');
    const found = await (await open(sandbox, link, `&phone=${encodeURIComponent(phone.replace(/\D/g, ''))}&amount=450`)).text();
    expect(found).toContain(`data-payment="${id}"`);
    const wrongSum = await (await open(sandbox, link, `&phone=${encodeURIComponent(phone)}&amount=449`)).text();
    expect(wrongSum).toContain('No open SBP payment goes to this number for this amount.');
    // The sum as a bank app takes it, with a decimal comma; never a number only JavaScript reads as 450.
    expect(await (await open(sandbox, link, `&phone=${phone.replace(/\D/g, '')}&amount=450,00`)).text()).toContain(`data-payment="${id}"`);
    for (const odd of ['0x1C2', '4.5e2', '450.001']) {
      const text = await (await open(sandbox, link, `&phone=${phone.replace(/\D/g, '')}&amount=${encodeURIComponent(odd)}`)).text();
      expect(text, odd).toContain('No open SBP payment goes to this number for this amount.');
    }
  });

  it('refuses a link no app would open with a 400 page that says why, and HEAD has no body', async () => {
    const { sandbox } = setup();
    for (const link of ['javascript:alert(1)', '', 'intent://pay?pa=x', 'upi://pay?pn=x']) {
      const bad = await open(sandbox, link);
      expect(bad.status).toBe(400);
      expect(bad.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await bad.text()).toContain('<h1>Cannot open this link</h1>');
    }
    expect(await (await open(sandbox, '<img src=x>')).text()).toContain('not a link');
    const head = await sandbox(new Request(`${BASE}/phone?link=upi%3A%2F%2Fpay%3Fpa%3Dx`, { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([200, '']);
  });
});
