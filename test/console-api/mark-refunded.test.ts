/**
 * "Mark refunded" on a second payment of an order, over real HTTP: the proxy and the sandbox each on a loopback
 * socket, a SQLite ledger in a file, the order paid twice at the sandbox. The operator refunds the second payment
 * at the service and records it in the console: it leaves the refunds to do, is listed as refunded with who, when
 * and the reference, in the CSV and the audit log, and stays so after the shop's server restarts. Marking it
 * again, two operators at once, a payment that is no second payment, a stranger, another site and a request
 * without the CSRF token are refused, and mark nothing.
 */
import { describe, expect, it } from 'vitest';
import { eventually } from '../proxy/sandbox-harness.js';
import { operatorOverHttp } from './console-harness.js';
import { useSqliteConsoleWorld } from './sqlite-console-world.js';

interface Mark {
  at: number;
  operator: string;
  reference?: string;
}
interface Row {
  id: string;
  secondPaymentOf?: string;
  refunded?: Mark;
}
interface ListBody {
  payments: Row[];
  counts: Record<string, number>;
}
interface DetailBody {
  payment: Row;
  audit: { operator: string; action: string; result: string }[];
}
type ErrorBody = { error: { code: string; message: string } };

const world = useSqliteConsoleWorld('payin-refund-');

async function pay(id: string) {
  const answer = await fetch(`${world.live.sandboxUrl}/sandbox/payments/${encodeURIComponent(id)}/pay`, { method: 'POST' });
  expect(answer.status).toBe(200);
}

/** The order paid twice: by UPI, then (the shopper had switched) by SBP, which is the refund to do. */
async function paidTwice(orderId: string): Promise<{ first: string; second: string }> {
  const first = (await world.live.create(orderId, 'upi')).body.payment.id as string;
  const second = (await world.live.create(orderId, 'sbp')).body.payment.id as string;
  await pay(first);
  await eventually(async () => (await world.store.getPayment(first))?.view.outcome === 'paid', 5_000, 'the first payment paid');
  await pay(second);
  await eventually(
    async () => (await world.store.getPayment(second))?.secondPaymentOf === first,
    5_000,
    'the second payment marked second',
  );
  return { first, second };
}

describe('mark refunded', () => {
  it('takes a second payment off the refunds to do and lists it as refunded, with who, when and the reference, in the CSV and the audit, after a restart too', async () => {
    const { first, second } = await paidTwice('R-1');
    const ana = operatorOverHttp(world.live.proxyUrl, 'ana');
    await ana.signIn();
    const before = await ana.get<ListBody>('/api/payments?filter=second');
    expect(before.body.payments.map((p) => p.id)).toEqual([second]);
    expect(before.body.counts).toMatchObject({ second: 1, refunded: 0 });

    const done = await ana.post<{ result: string }>(`/api/payments/${second}/mark-refunded`, { reference: '  re_3PqR7x  ' });
    expect(done.answer.status).toBe(200);
    expect(done.body.result).toBe('marked refunded (reference re_3PqR7x)');

    const todo = await ana.get<ListBody>('/api/payments?filter=second');
    expect(todo.body.payments).toEqual([]);
    expect(todo.body.counts).toMatchObject({ second: 0, refunded: 1, paid: 2 });
    const refunded = await ana.get<ListBody>('/api/payments?filter=refunded');
    expect(refunded.body.payments.map((p) => [p.id, p.secondPaymentOf, p.refunded?.operator, p.refunded?.reference])).toEqual([
      [second, first, 'ana', 're_3PqR7x'],
    ]);
    const detail = await ana.get<DetailBody>(`/api/payments/${second}`);
    expect(detail.body.payment.refunded).toEqual({ at: expect.any(Number), operator: 'ana', reference: 're_3PqR7x' });
    expect(Math.abs(detail.body.payment.refunded!.at - Date.now())).toBeLessThan(60_000);
    expect(detail.body.audit.map((a) => [a.operator, a.action, a.result])).toEqual([
      ['ana', 'mark-refunded', 'marked refunded (reference re_3PqR7x)'],
    ]);

    const csv = (await ana.post('/api/export', { filter: 'all' })).text.trim().split('\r\n');
    const header = csv[0]!.split(',');
    expect(header.slice(12, 15)).toEqual(['refundedAt', 'refundedBy', 'refundReference']);
    const rows = csv.slice(1).map((line) => Object.fromEntries(line.split(',').map((cell, i) => [header[i], cell])));
    expect(rows.find((r) => r.id === second)).toMatchObject({
      refundedAt: new Date(detail.body.payment.refunded!.at).toISOString(),
      refundedBy: 'ana',
      refundReference: 're_3PqR7x',
    });
    expect(rows.find((r) => r.id === first)).toMatchObject({ refundedAt: '', refundedBy: '', refundReference: '' });

    // The shop's server restarts: the mark is in the ledger's file, not in the process.
    await world.restart();
    const again = operatorOverHttp(world.live.proxyUrl, 'ana');
    await again.signIn();
    expect((await again.get<DetailBody>(`/api/payments/${second}`)).body.payment.refunded).toEqual(detail.body.payment.refunded);
    expect((await again.get<ListBody>('/api/payments')).body.counts).toMatchObject({ second: 0, refunded: 1 });
  });

  it('refuses to mark it twice: of two operators at once one wins, and the other (and anyone later) is told who marked it and when', async () => {
    const { second } = await paidTwice('R-2');
    const [ana, bo] = [operatorOverHttp(world.live.proxyUrl, 'ana'), operatorOverHttp(world.live.proxyUrl, 'bo')];
    await Promise.all([ana.signIn(), bo.signIn()]);
    const both = await Promise.all([
      ana.post<ErrorBody>(`/api/payments/${second}/mark-refunded`, { reference: 're_ana' }),
      bo.post<ErrorBody>(`/api/payments/${second}/mark-refunded`, { reference: 're_bo' }),
    ]);
    expect(both.map((b) => b.answer.status).sort()).toEqual([200, 409]);
    const mark = (await world.store.getPayment(second))!.refunded!;
    const [winner, loser] = both[0]!.answer.status === 200 ? both : [both[1]!, both[0]!];
    expect(mark.reference).toBe(mark.operator === 'ana' ? 're_ana' : 're_bo');
    expect(loser!.body.error.code).toBe('already_refunded');
    expect(loser!.body.error.message).toBe(
      `already marked refunded by ${mark.operator} at ${new Date(mark.at).toISOString()}, reference ${mark.reference}: not marked again`,
    );
    expect(winner!.answer.status).toBe(200);

    const later = await ana.post<ErrorBody>(`/api/payments/${second}/mark-refunded`);
    expect(later.answer.status).toBe(409);
    expect(later.body.error.message).toMatch(new RegExp(`^already marked refunded by ${mark.operator} at `));
    expect((await world.store.getPayment(second))!.refunded).toEqual(mark);
    // Every try is in the audit log, the refused ones with why.
    const audit = (await ana.get<DetailBody>(`/api/payments/${second}`)).body.audit;
    expect(audit.map((a) => a.action)).toEqual(['mark-refunded', 'mark-refunded', 'mark-refunded']);
    expect(audit.filter((a) => a.result.startsWith('already marked refunded by'))).toHaveLength(2);
  });

  it('refuses a payment that is no second payment, one that does not exist, and a reference too long or with a control character', async () => {
    const { first, second } = await paidTwice('R-3');
    const open = (await world.live.create('R-4', 'upi')).body.payment.id as string;
    const ana = operatorOverHttp(world.live.proxyUrl, 'ana');
    await ana.signIn();
    for (const id of [first, open]) {
      const refused = await ana.post<ErrorBody>(`/api/payments/${id}/mark-refunded`);
      expect(refused.answer.status).toBe(409);
      expect(refused.body.error).toEqual({
        code: 'not_second_payment',
        message: 'only a second payment of an order can be marked refunded: this one is not, so there is no refund to record',
      });
      expect((await world.store.getPayment(id))!.refunded).toBeUndefined();
    }
    const missing = await ana.post<ErrorBody>(`/api/payments/no-such-payment/mark-refunded`);
    expect(missing.answer.status).toBe(404);
    // The facts a page words in the operator's language beside the English message.
    expect(missing.body.error).toMatchObject({ code: 'not_found', reason: 'no_payment' });
    const long = await ana.post<ErrorBody>(`/api/payments/${second}/mark-refunded`, { reference: 'r'.repeat(101) });
    expect(long.answer.status).toBe(400);
    expect(long.body.error.message).toMatch(/longer than 100 characters/);
    // A line break, a C1 control, a line separator, and a right-to-left override that would show a colleague
    // "re_1" where "1_er" was written.
    for (const reference of ['re_1\nre_2', 're_1\u0085re_2', 're_1\u2028re_2', '\u202e1_er']) {
      const control = await ana.post<ErrorBody>(`/api/payments/${second}/mark-refunded`, { reference });
      expect([reference, control.answer.status]).toEqual([reference, 400]);
      expect(control.body.error).toMatchObject({ code: 'bad_request', reason: 'reference_control_character' });
    }
    expect((await world.store.getPayment(second))!.refunded).toBeUndefined();
    // A reference of exactly 100 characters is kept whole.
    expect((await ana.post(`/api/payments/${second}/mark-refunded`, { reference: 'r'.repeat(100) })).answer.status).toBe(200);
    expect((await world.store.getPayment(second))!.refunded!.reference).toHaveLength(100);
  });

  it('refuses a stranger, another site and a request without the CSRF token, as the other actions, and marks nothing', async () => {
    const { second } = await paidTwice('R-5');
    const stranger = operatorOverHttp(world.live.proxyUrl, null);
    expect((await stranger.post(`/api/payments/${second}/mark-refunded`)).answer.status).toBe(401);
    const ana = operatorOverHttp(world.live.proxyUrl, 'ana');
    await ana.signIn();
    const forged = await ana.post<ErrorBody>(`/api/payments/${second}/mark-refunded`, {}, { csrf: 'guess' });
    expect(forged.answer.status).toBe(403);
    expect(forged.body.error).toMatchObject({ code: 'forbidden', reason: 'not_console_page' });
    expect((await ana.post(`/api/payments/${second}/mark-refunded`, {}, { site: 'cross-site' })).answer.status).toBe(403);
    expect((await ana.get(`/api/payments/${second}/mark-refunded`)).answer.status).toBe(405);
    expect((await world.store.getPayment(second))!.refunded).toBeUndefined();
    expect(await world.store.auditLog(second, 10)).toEqual([]);
  });
});
