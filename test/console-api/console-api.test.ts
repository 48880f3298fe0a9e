import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/proxy/infrastructure/memory-store.js';
import { drive, setup, until } from '../proxy/harness.js';
import { consoleSetup } from './console-harness.js';

interface Row {
  id: string;
  orderId: string;
  outcome: string;
  secondPaymentOf?: string;
}
interface ListBody {
  payments: Row[];
  next?: string;
  counts: Record<string, number>;
}
interface DetailBody {
  payment: Row;
  history: { kind: string; state: string; source?: string; ok?: boolean; error?: string }[];
  audit: { operator: string; action: string; result: string }[];
  announcement: { failing: boolean };
  order: { payments: Row[] };
}

describe('the console is off unless the shop turns it on', () => {
  it('answers 404 under /payin/console without the console option', async () => {
    const { proxy } = setup();
    const answer = await proxy(new Request('http://shop.test/payin/console/api/payments'));
    expect(answer.status).toBe(404);
  });
});

describe('who may use the console', () => {
  it('refuses a stranger with the same 401 whether or not the payment exists, and never caches', async () => {
    const world = consoleSetup();
    const { body } = await world.create('A-1');
    const real = await world.request(`/api/payments/${body.payment.id}`, { as: 'stranger' });
    const made = await world.request('/api/payments/no-such-payment', { as: 'stranger' });
    expect(real.status).toBe(401);
    expect(made.status).toBe(401);
    expect(await real.text()).toBe(await made.text());
    expect(real.headers.get('cache-control')).toBe('no-store');
    expect((await world.request('/api/payments', { as: 'stranger' })).status).toBe(401);
    expect((await world.request('', { as: 'stranger' })).status).toBe(401);
  });

  it('refuses requests from another site, and actions without the CSRF token', async () => {
    const world = consoleSetup();
    const { body } = await world.create('A-1');
    await world.signIn();
    const asked = world.service.paymentStatuses.length;
    expect((await world.request('/api/payments', { site: 'cross-site' })).status).toBe(403);
    const id = body.payment.id;
    expect((await world.post(`/api/payments/${id}/recheck`, '', { 'x-payin-csrf': 'guess' })).answer.status).toBe(403);
    // A browser too old to send Sec-Fetch-Site is judged by its Origin against the Host.
    expect((await world.post(`/api/payments/${id}/recheck`, '', { origin: 'https://evil.test' }, null)).answer.status).toBe(403);
    expect((await world.post(`/api/payments/${id}/recheck`, '', { origin: 'null' }, null)).answer.status).toBe(403);
    expect((await world.request(`/api/payments/${id}/recheck`, { method: 'POST', site: 'cross-site' })).status).toBe(403);
    expect(world.service.paymentStatuses).toHaveLength(asked);
    expect((await world.post(`/api/payments/${id}/recheck`)).answer.status).toBe(200);
    expect((await world.post(`/api/payments/${id}/recheck`, '', {}, null)).answer.status).toBe(200);
    // An opaque origin ("null") passes only when the browser says same-origin.
    expect((await world.post(`/api/payments/${id}/recheck`, '', { origin: 'null' })).answer.status).toBe(200);
    const opaque = await world.request(`/api/payments/${id}/recheck`, { method: 'POST', site: 'same-site', headers: { origin: 'null' } });
    expect(opaque.status).toBe(403);
  });
});

describe('the list', () => {
  it('lists payments newest first with counts, pages by cursor, and finds one by order id or payment id', async () => {
    const world = consoleSetup();
    await world.signIn();
    const ids: string[] = [];
    for (const order of ['A-1', 'A-2', 'A-3']) {
      ids.push((await world.create(order)).body.payment.id);
      await world.clock.advance(1_000);
    }
    const first = await world.get<ListBody>('/api/payments?limit=2');
    expect(first.answer.headers.get('cache-control')).toBe('no-store');
    expect(first.body.payments.map((p) => p.orderId)).toEqual(['A-3', 'A-2']);
    expect(first.body.counts).toMatchObject({ all: 3, open: 3, paid: 0 });
    const second = await world.get<ListBody>(`/api/payments?limit=2&cursor=${first.body.next}`);
    expect(second.body.payments.map((p) => p.orderId)).toEqual(['A-1']);
    expect((await world.get<ListBody>('/api/payments?q=A-2')).body.payments.map((p) => p.id)).toEqual([ids[1]]);
    expect((await world.get<ListBody>(`/api/payments?q=${ids[2]}`)).body.payments.map((p) => p.orderId)).toEqual(['A-3']);
    expect((await world.get<ListBody>('/api/payments?q=nothing')).body.payments).toEqual([]);
    expect((await world.get('/api/payments?filter=bogus')).answer.status).toBe(400);
  });

  it('exports the current filter as CSV, with a formula-looking order id defused', async () => {
    const world = consoleSetup();
    await world.signIn();
    await world.create('A-1');
    await world.create('=cmd');
    const { answer, text } = await world.post('/api/export', 'filter=open');
    expect(answer.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,orderId,method,state,outcome,amount,currency,priced,createdAt,expiresAt,secondPaymentOf,pricedCurrency,refundedAt,refundedBy,refundReference,contradictedState,resolvedAt,resolvedBy,resolutionNote',
    );
    expect(lines).toHaveLength(3);
    expect(text).toContain(",'=cmd,");
    const audit = await world.store.auditLog(undefined, 5);
    expect(audit[0]).toMatchObject({ operator: 'ana', action: 'export', result: '2 payments (open)' });
  });

  it('keeps a formula after a semicolon in its cell, for a spreadsheet whose locale separates cells with ";"', async () => {
    // Excel in a Russian or German locale opens a .csv split at ";" (a "," is no separator there, so quotes around
    // a cell in the middle of a line do not hold it together): an order id such as 'A;=1+2' became a formula =1+2.
    const world = consoleSetup();
    await world.signIn();
    await world.create('A;=1+2');
    await world.create("B;@SUM(1);-2;C;=cmd|' /C calc'!A0;D");
    const { text } = await world.post('/api/export', 'filter=open');
    const cells = text.trim().split('\r\n').slice(1).flatMap(semicolonCells);
    expect(cells.filter((cell) => /^[=+@]|^-(?!\d+$)/.test(cell))).toEqual([]);
    // Each such part defused as a whole cell is: an apostrophe before it.
    expect(text).toContain(`,A;'=1+2,`);
    expect(text).toContain(`,B;'@SUM(1);-2;C;'=cmd|' /C calc'!A0;D,`);
    // Behind a space or a quote too: Excel reads that part from the cell as written, its quote doubled.
    await world.create('E; "=1+2"');
    expect((await world.post('/api/export', 'filter=open')).text).toContain(`,"E;' ""=1+2""",`);
  });
});

describe('re-check now', () => {
  it('records what the service says through the ledger, announces paid once, and keeps the timeline and audit', async () => {
    const world = consoleSetup();
    await world.signIn();
    const { body } = await world.create('A-1');
    const id = body.payment.id;
    world.service.set(id, { state: 'finished' }); // paid; its callback never came
    const done = await world.post<{ result: string }>(`/api/payments/${id}/recheck`);
    expect(done.body.result).toBe('now finished');
    expect(world.updates.filter((u) => u.payment.outcome === 'paid')).toHaveLength(1);
    await world.post(`/api/payments/${id}/recheck`);
    expect(world.updates.filter((u) => u.payment.outcome === 'paid')).toHaveLength(1);
    const detail = await world.get<DetailBody>(`/api/payments/${id}`);
    expect(detail.body.payment.outcome).toBe('paid');
    expect(detail.body.history.filter((h) => h.kind === 'state').map((h) => [h.state, h.source])).toEqual([
      ['created', 'create'],
      ['pending', 'create'],
      ['finished', 'reconcile'],
    ]);
    expect(detail.body.history.some((h) => h.kind === 'announcement' && h.state === 'finished' && h.ok)).toBe(true);
    expect(detail.body.audit.map((a) => [a.operator, a.action, a.result])).toEqual([
      ['ana', 'recheck', 'unchanged (finished)'],
      ['ana', 'recheck', 'now finished'],
    ]);
  });

  it('says so when the service is down, and changes nothing', async () => {
    const world = consoleSetup();
    await world.signIn();
    const { body } = await world.create('A-1');
    const before = await world.store.getPayment(body.payment.id);
    world.service.onStatus = () => 'network-error';
    const done = await drive(
      world.clock,
      world.post<{ error: { code: string; message: string } }>(`/api/payments/${body.payment.id}/recheck`),
    );
    expect(done.answer.status).toBe(502);
    expect(done.body.error.message).toMatch(/did not answer: nothing was changed/);
    expect(await world.store.getPayment(body.payment.id)).toEqual(before);
    expect(await world.store.auditLog(body.payment.id, 5)).toEqual([
      expect.objectContaining({ operator: 'ana', action: 'recheck', result: expect.stringMatching(/did not answer/) }),
    ]);
  });
});

describe('re-check against a service that answers but refuses', () => {
  it.each([
    [404, 404, /the payment service does not know this payment \(HTTP 404\)/, { reason: 'unknown_payment', httpStatus: 404 }],
    [401, 401, /the payment service refused the status call \(HTTP 401\)/, { reason: 'refused', httpStatus: 401 }],
    // The service may refuse with HTTP 200 and status false; its code then says what the refusal is.
    [200, 404, /the payment service does not know this payment \(code 404\)/, { reason: 'unknown_payment', refusalCode: 404 }],
    [200, 400, /the payment service refused the status call \(code 400\)/, { reason: 'refused', refusalCode: 400 }],
  ])('says what HTTP %s with code %s means instead of "did not answer", and changes nothing', async (status, code, message, facts) => {
    const world = consoleSetup();
    await world.signIn();
    const { body } = await world.create('A-1');
    const before = await world.store.getPayment(body.payment.id);
    world.service.onStatus = () => ({ status, body: { status: false, code, message: 'no' } });
    const done = await drive(
      world.clock,
      world.post<{ error: { code: string; message: string } }>(`/api/payments/${body.payment.id}/recheck`),
    );
    expect(done.answer.status).toBe(502);
    expect(done.body.error.message).toMatch(message);
    expect(done.body.error.message).toMatch(/nothing was changed/);
    expect(done.body.error.message).not.toMatch(/did not answer/);
    // The same as facts, for a page to word in the operator's language; the other of status and code is not said.
    expect(done.body.error).toEqual({ code: 'service_unavailable', message: expect.any(String), ...facts });
    expect(await world.store.getPayment(body.payment.id)).toEqual(before);
  });
});

describe('redeliver', () => {
  it("lists a failing announcement, and sends it once the shop's hook recovers, once for two operators at once", async () => {
    let down = true;
    const calls: string[] = [];
    const world = consoleSetup({
      onPaymentUpdate: async (payment) => {
        calls.push(payment.state);
        if (down) throw new Error('the shop database is down');
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
    });
    await world.signIn();
    const { body } = await world.create('A-1');
    const id = body.payment.id;
    const failing = await world.get<ListBody>('/api/payments?filter=failing');
    expect(failing.body.payments.map((p) => p.id)).toEqual([id]);
    expect(failing.body.counts.failing).toBe(1);
    const detail = await world.get<DetailBody>(`/api/payments/${id}`);
    expect(detail.body.announcement.failing).toBe(true);
    expect(detail.body.history.find((h) => h.kind === 'announcement')).toMatchObject({
      ok: false,
      error: 'Error: the shop database is down',
    });

    down = false;
    calls.length = 0;
    const [a, b] = await Promise.all([world.post(`/api/payments/${id}/redeliver`), world.post(`/api/payments/${id}/redeliver`)]);
    expect([a.answer.status, b.answer.status].sort()).toEqual([200, 409]);
    expect(calls).toEqual(['pending']);
    expect((await world.get<ListBody>('/api/payments?filter=failing')).body.payments).toEqual([]);
    // Already taken: a redelivery hands the same state over once more.
    const again = await world.post<{ result: string }>(`/api/payments/${id}/redeliver`);
    expect(again.body.result).toBe('sent: the shop took it');
    expect(calls).toEqual(['pending', 'pending']);
  });
});

describe('a payment whose announcement has failed for days', () => {
  it("keeps its states on the timeline, and the latest failures with their attempt, however long the shop's hook is down", async () => {
    const world = consoleSetup({
      reconcileEveryMs: 0,
      onPaymentUpdate: () => {
        throw new Error('the shop database is down');
      },
    });
    await world.signIn();
    const { body } = await world.create('A-1');
    const id = body.payment.id;
    world.service.set(id, { state: 'finished', status: true });
    expect((await world.callback({ ...world.service.payments.get(id)!, state: 'finished', status: true })).status).toBe(200);
    // Three days of retries, at most five minutes apart: about 860 failed attempts.
    for (let hour = 0; hour < 72; hour++) await world.clock.advance(60 * 60_000);
    const { body: detail } = await world.get<DetailBody>(`/api/payments/${id}`);
    const states = detail.history.filter((h) => h.kind === 'state').map((h) => h.state);
    expect(states).toEqual(['created', 'pending', 'finished']);
    const failures = detail.history.filter((h) => h.kind === 'announcement') as { attempt?: number }[];
    expect(failures.length).toBeLessThan(60);
    expect(failures[failures.length - 1]!.attempt).toBeGreaterThan(500);
    expect(detail.announcement.failing).toBe(true);
  });
});

describe('a payment paid after the hook failed on its pending state', () => {
  it('is no failing announcement, on the list or on its page, while the hook takes the paid', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let paidCalled = false;
    const world = consoleSetup({
      reconcileEveryMs: 0,
      onPaymentUpdate: async (payment) => {
        if (payment.state === 'pending') throw new Error('the shop database is down');
        paidCalled = true;
        await held;
      },
    });
    await world.signIn();
    const { body } = await world.create('A-1');
    const id = body.payment.id;
    expect((await world.get<DetailBody>(`/api/payments/${id}`)).body.announcement.failing).toBe(true);
    world.service.set(id, { state: 'finished', status: true });
    const answered = world.callback({ ...world.service.payments.get(id)!, state: 'finished', status: true });
    await until(() => paidCalled, 'the hook to be called with paid');
    const list = await world.get<ListBody>('/api/payments?filter=failing');
    const detail = await world.get<DetailBody>(`/api/payments/${id}`);
    expect({ listed: list.body.payments, count: list.body.counts.failing, page: detail.body.announcement.failing }).toEqual({
      listed: [],
      count: 0,
      page: false,
    });
    release();
    expect((await answered).status).toBe(200);
  });
});

describe('a second payment of a paid order', () => {
  it('is listed as a refund to do', async () => {
    const world = consoleSetup();
    await world.signIn();
    const first = (await world.create('A-1', 'upi')).body.payment.id;
    const second = (await world.create('A-1', 'sbp')).body.payment.id;
    world.service.set(first, { state: 'finished' });
    world.service.set(second, { state: 'finished' });
    await world.post(`/api/payments/${first}/recheck`);
    await world.post(`/api/payments/${second}/recheck`);
    const list = await world.get<ListBody>('/api/payments?filter=second');
    expect(list.body.payments.map((p) => [p.id, p.secondPaymentOf])).toEqual([[second, first]]);
    expect(list.body.counts.second).toBe(1);
  });
});

describe('a store that fails', () => {
  it('answers with a clear error', async () => {
    const store = new MemoryStore();
    store.listPayments = async () => {
      throw new Error('disk I/O error');
    };
    const world = consoleSetup({ store });
    await world.signIn();
    const { answer, body } = await world.get<{ error: { code: string; message: string } }>('/api/payments');
    expect(answer.status).toBe(503);
    expect(body.error.message).toMatch(/could not be read or written.*nothing was done/);
  });
});

describe('a payment id that is not a valid URL escape', () => {
  it('is a 400 that says so, not a store outage', async () => {
    const world = consoleSetup();
    await world.signIn();
    const { answer, body } = await world.get<{ error: { code: string; message: string } }>('/api/payments/%E0%A4%ZZ');
    expect(answer.status).toBe(400);
    expect(body.error.code).toBe('bad_request');
  });
});

/**
 * The cells of a CSV line as Excel reads it where ";" separates them: a cell that starts with a quote runs to its
 * closing quote ("" is one), any other to the next ";".
 */
function semicolonCells(line: string): string[] {
  return [...line.matchAll(/(?:^|;)("(?:[^"]|"")*"|[^;]*)/g)].map(([, cell]) =>
    cell!.startsWith('"') ? cell!.slice(1, -1).replace(/""/g, '"') : cell!,
  );
}
