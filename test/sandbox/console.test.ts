import { describe, expect, it } from 'vitest';
import { control, createPayment, setup } from './helpers.js';
import { NO_FAULTS } from '../../src/sandbox/index.js';

describe('the console and the hosted payment page', () => {
  it('serves the console as HTML under a strict CSP, with its script and style as separate files', async () => {
    const { sandbox } = setup();
    const page = await sandbox(control('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await page.text();
    expect(html).toMatch(/<script type="module" src="console.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="console.css">/);
    // No inline script, inline style or external resource.
    expect(html).not.toMatch(/<script>|<script(?![^>]*src=)[^>]*>|<style|\sstyle=|\son\w+=/);
    expect(html).not.toMatch(/https?:\/\//);
    for (const name of Object.keys(NO_FAULTS)) {
      expect(html).toContain(`name="${name}"`);
    }
    const js = await sandbox(control('/console.js'));
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await js.text();
    expect(script).toContain("call('GET', 'sandbox/payments')");
    expect(script).not.toContain('innerHTML');
    expect(() => new Function(script.replace(/^import .*$/gm, ''))).not.toThrow();
    expect((await sandbox(control('/console.css'))).headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('lists the payments with their deliveries at GET /sandbox/payments, newest first', async () => {
    const { sandbox, clock } = setup();
    const first = await createPayment(sandbox, { orderId: 'C-1' });
    const second = await createPayment(sandbox, { orderId: 'C-2', method: 'sbp', currency: 'RUB' });
    await clock.advance(1000);
    await sandbox.idle();
    const list = await (await sandbox(control('/sandbox/payments'))).json();
    expect(list.map((p: { id: string }) => p.id)).toEqual([second, first]);
    expect(list[1]).toMatchObject({ orderId: 'C-1', state: 'pending', merchantId: 'demo-merchant' });
    expect(list[1].deliveries).toEqual([expect.objectContaining({ attempt: 1, state: 'pending', httpStatus: 200, ok: true })]);
    const one = await (await sandbox(control(`/sandbox/payments/${first}`))).json();
    expect(one.id).toBe(first);
  });

  it('serves a hosted payment page for a known payment, whose script claims and cancels through the control API', async () => {
    const { sandbox } = setup();
    const id = await createPayment(sandbox);
    const page = await sandbox(control(`/pay/${id}`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain(`data-payment="${id}"`);
    expect(html).toContain('src="../pay.js"');
    const script = await (await sandbox(control('/pay.js'))).text();
    expect(script).toContain("'../sandbox/payments/'");
    expect(script).toContain("act('in-check')");
    expect(script).toContain("act('cancel')");
    expect(() => new Function(script)).not.toThrow();
    const head = await sandbox(control('/', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
