/**
 * What an action answers beside its English `result`, over real HTTP (the proxy and the sandbox each on a loopback
 * socket): the outcome as a word a page can put in the operator's own language, the state a re-check found, the
 * reference of a refund marked, and whether the audit log took the line. A refusal to mark a refund twice names
 * who marked it and when, as facts beside its message.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsoleOptions } from '../../src/console-api/console-options.js';
import { eventually, type Live, startLive } from '../proxy/sandbox-harness.js';
import { OPERATOR_HEADER, operatorOverHttp } from './console-harness.js';

const twoOperators: ConsoleOptions = {
  authorizeOperator: (request) => ['ana', 'bo'].includes(request.headers.get(OPERATOR_HEADER) ?? ''),
  operatorName: (request) => request.headers.get(OPERATOR_HEADER) ?? undefined,
};

let live: Live;
beforeEach(async () => {
  live = await startLive({ console: twoOperators, reconcileEveryMs: 0 });
});
afterEach(async () => {
  await live.close();
});

describe("an action's outcome", () => {
  it('answers a re-check as unchanged with the state found, and a redelivery as sent, each audited', async () => {
    const id = (await live.create('O-1', 'upi')).body.payment.id as string;
    const ana = operatorOverHttp(live.proxyUrl, 'ana');
    await ana.signIn();

    const recheck = await ana.post(`/api/payments/${id}/recheck`);
    expect(recheck.answer.status).toBe(200);
    expect(recheck.body).toEqual({ result: 'unchanged (pending)', changed: false, outcome: 'unchanged', state: 'pending', audited: true });

    const redeliver = await ana.post(`/api/payments/${id}/redeliver`);
    expect(redeliver.body).toMatchObject({ outcome: 'sent', audited: true });
  });

  it('answers a refund marked with its reference, and a second mark with who marked it and when', async () => {
    const first = (await live.create('O-2', 'upi')).body.payment.id as string;
    const second = (await live.create('O-2', 'sbp')).body.payment.id as string;
    for (const id of [first, second]) {
      const paid = await fetch(`${live.sandboxUrl}/sandbox/payments/${encodeURIComponent(id)}/pay`, { method: 'POST' });
      expect(paid.status).toBe(200);
    }
    const [ana, bo] = [operatorOverHttp(live.proxyUrl, 'ana'), operatorOverHttp(live.proxyUrl, 'bo')];
    await Promise.all([ana.signIn(), bo.signIn()]);
    await eventually(
      async () =>
        (await ana.get<{ payment: { secondPaymentOf?: string } }>(`/api/payments/${second}`)).body.payment.secondPaymentOf === first,
      5_000,
      'the second payment known as second',
    );
    const marked = await ana.post(`/api/payments/${second}/mark-refunded`, { reference: 're_1' });
    expect(marked.body).toMatchObject({ outcome: 'marked-refunded', reference: 're_1', audited: true });

    const again = await bo.post<{ error: Record<string, unknown> }>(`/api/payments/${second}/mark-refunded`);
    expect(again.answer.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'already_refunded', operator: 'ana', reference: 're_1' });
    expect(typeof again.body.error.at).toBe('number');
  });
});
