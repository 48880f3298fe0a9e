/**
 * "Mark resolved" on a payment the service contradicted, over real HTTP: the proxy and the sandbox each on a loopback
 * socket, a SQLite ledger in a file, a payment the sandbox expired that the ledger then marks contradicted (as the
 * callback route does once the service confirms it: test/e2e/console-contradicted.test.ts drives that path). The
 * operator records that it was dealt with at the service: it leaves the contradictions to look into and is listed
 * as resolved, with who, when and the note, in the CSV and the audit log, and stays so after a restart. Marking it
 * again, a payment the service never contradicted, and a note too long or with a control character are refused.
 */
import { describe, expect, it } from 'vitest';
import { markContradicted } from '../../src/proxy/ledger/contradiction-marks.js';
import { ManualClock } from '../../src/shared/manual-clock.js';
import { eventually } from '../proxy/sandbox-harness.js';
import { operatorOverHttp } from './console-harness.js';
import { useSqliteConsoleWorld } from './sqlite-console-world.js';

interface Row {
  id: string;
  contradicted?: { at: number; state: string };
  resolved?: { at: number; operator: string; state: string; note?: string };
}
interface ListBody {
  payments: Row[];
  counts: Record<string, number>;
}
interface DetailBody {
  payment: Row;
  audit: { operator: string; action: string; result: string }[];
}
type ErrorBody = { error: { code: string; message: string; reason?: string } };

const world = useSqliteConsoleWorld('payin-resolved-');

/** A payment of `orderId` the sandbox expired, which the service then says is finished (the money came late). */
async function lateMoney(orderId: string): Promise<string> {
  const id = (await world.live.create(orderId, 'upi')).body.payment.id as string;
  const answer = await fetch(`${world.live.sandboxUrl}/sandbox/payments/${encodeURIComponent(id)}/expire`, { method: 'POST' });
  expect(answer.status).toBe(200);
  await eventually(async () => (await world.store.getPayment(id))?.view.outcome === 'expired', 5_000, 'the payment expired');
  await markContradicted({ store: world.store, clock: new ManualClock(Date.now()) }, id, 'finished');
  return id;
}

describe('mark resolved', () => {
  it('takes a contradicted payment off the work left and lists it as resolved, with who, when and the note, in the CSV and the audit, after a restart too', async () => {
    const id = await lateMoney('X-1');
    const ana = operatorOverHttp(world.live.proxyUrl, 'ana');
    await ana.signIn();
    const before = await ana.get<ListBody>('/api/payments?filter=contradicted');
    expect(before.body.payments.map((p) => [p.id, p.contradicted?.state])).toEqual([[id, 'finished']]);
    expect(before.body.counts).toMatchObject({ contradicted: 1, resolved: 0, expired: 1 });

    const done = await ana.post<{ result: string; outcome: string; note: string }>(`/api/payments/${id}/mark-resolved`, {
      note: '  refunded at the service: re_9  ',
    });
    expect(done.answer.status).toBe(200);
    expect(done.body).toMatchObject({ result: 'marked resolved (refunded at the service: re_9)', outcome: 'marked-resolved' });

    expect((await ana.get<ListBody>('/api/payments?filter=contradicted')).body.payments).toEqual([]);
    const resolved = await ana.get<ListBody>('/api/payments?filter=resolved');
    expect(resolved.body.payments.map((p) => [p.id, p.resolved?.operator, p.resolved?.state, p.resolved?.note])).toEqual([
      [id, 'ana', 'finished', 'refunded at the service: re_9'],
    ]);
    expect(resolved.body.counts).toMatchObject({ contradicted: 0, resolved: 1, expired: 1 });
    const detail = await ana.get<DetailBody>(`/api/payments/${id}`);
    expect(detail.body.audit.map((a) => [a.operator, a.action, a.result])).toEqual([
      ['ana', 'mark-resolved', 'marked resolved (refunded at the service: re_9)'],
    ]);

    const csv = (await ana.post('/api/export', { filter: 'resolved' })).text.trim().split('\r\n');
    const header = csv[0]!.split(',');
    const row = Object.fromEntries(csv[1]!.split(',').map((cell, i) => [header[i], cell]));
    expect(row).toMatchObject({
      id,
      outcome: 'expired',
      contradictedState: 'finished',
      resolvedAt: new Date(detail.body.payment.resolved!.at).toISOString(),
      resolvedBy: 'ana',
      resolutionNote: 'refunded at the service: re_9',
    });

    // The shop's server restarts: the mark is in the ledger's file, not in the process.
    await world.restart();
    const again = operatorOverHttp(world.live.proxyUrl, 'ana');
    await again.signIn();
    expect((await again.get<DetailBody>(`/api/payments/${id}`)).body.payment.resolved).toEqual(detail.body.payment.resolved);
    expect((await again.get<ListBody>('/api/payments')).body.counts).toMatchObject({ contradicted: 0, resolved: 1 });
  });

  it('refuses to mark it twice, a payment the service never contradicted, and a note too long or with a control character', async () => {
    const id = await lateMoney('X-2');
    const quiet = (await world.live.create('X-3', 'upi')).body.payment.id as string;
    const [ana, bo] = [operatorOverHttp(world.live.proxyUrl, 'ana'), operatorOverHttp(world.live.proxyUrl, 'bo')];
    await Promise.all([ana.signIn(), bo.signIn()]);

    const never = await ana.post<ErrorBody>(`/api/payments/${quiet}/mark-resolved`);
    expect([never.answer.status, never.body.error.code]).toEqual([409, 'not_contradicted']);
    const long = await ana.post<ErrorBody>(`/api/payments/${id}/mark-resolved`, { note: 'n'.repeat(201) });
    expect([long.answer.status, long.body.error.message]).toEqual([400, expect.stringMatching(/longer than 200 characters/)]);
    const control = await ana.post<ErrorBody>(`/api/payments/${id}/mark-resolved`, { note: 'done\u202e' });
    expect(control.body.error).toMatchObject({ code: 'bad_request', reason: 'note_control_character' });
    expect((await world.store.getPayment(id))!.contradictionResolved).toBeUndefined();

    expect((await bo.post(`/api/payments/${id}/mark-resolved`, { note: 'shipped' })).answer.status).toBe(200);
    const later = await ana.post<ErrorBody>(`/api/payments/${id}/mark-resolved`, { note: 'refunded' });
    const mark = (await world.store.getPayment(id))!.contradictionResolved!;
    expect(later.answer.status).toBe(409);
    expect(later.body.error).toMatchObject({
      code: 'already_resolved',
      message: `already marked resolved by bo at ${new Date(mark.at).toISOString()}, note: shipped: not marked again`,
      operator: 'bo',
      at: mark.at,
      note: 'shipped',
    });
    expect(mark).toMatchObject({ operator: 'bo', note: 'shipped', state: 'finished' });
    // Every try is in the audit log, the refused ones with why.
    expect((await world.store.auditLog(id, 10)).map((a) => a.result)).toEqual([
      expect.stringMatching(/^already marked resolved by bo/),
      'marked resolved (shipped)',
      'the note holds a control character',
      expect.stringMatching(/longer than 200/),
    ]);
  });
});
