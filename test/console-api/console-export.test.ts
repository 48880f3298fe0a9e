/**
 * Export CSV of a list longer than one answer holds (10,000 rows): the operator's file has every payment of the
 * list, as the console's own client asks for it, and the audit log says what was exported.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleClient } from '../../src/console/console-client.js';
import { EXPORT_LIMIT } from '../../src/console-api/console-reads.js';
import type { PaymentRecord } from '../../src/proxy/infrastructure/store.js';
import { consoleSetup } from './console-harness.js';

const PAID = EXPORT_LIMIT + 120;

/** `count` paid payments, written as the ledger writes final ones (a final record is never evicted). */
async function paidPayments(store: ReturnType<typeof consoleSetup>['store'], count: number) {
  for (let i = 0; i < count; i++) {
    const id = `pay-${String(i).padStart(6, '0')}`;
    const record: PaymentRecord = {
      view: { id, orderId: `O-${i}`, method: 'upi', state: 'finished', outcome: 'paid', final: true, amount: '250.00', currency: 'INR' },
      priced: { amount: '250.00', currency: 'INR' },
      version: 1,
      updatedAt: i,
      listedAt: 1_000 + i,
      finalAt: 2_000 + i,
    };
    await store.putPayment(record, 0);
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('Export CSV of a long list', () => {
  it('answers at most 10,000 rows at once, with the cursor of the rest', async () => {
    const world = consoleSetup();
    await world.signIn();
    await paidPayments(world.store, PAID);
    const first = await world.post('/api/export', 'filter=paid');
    expect(first.text.trim().split('\r\n')).toHaveLength(EXPORT_LIMIT + 1);
    const next = first.answer.headers.get('x-payin-next');
    expect(next).toBeTruthy();
    const rest = await world.post('/api/export', new URLSearchParams({ filter: 'paid', cursor: next! }).toString());
    expect(rest.text.trim().split('\r\n')).toHaveLength(PAID - EXPORT_LIMIT + 1);
    expect(rest.answer.headers.get('x-payin-next')).toBeNull();
    const audit = await world.store.auditLog(undefined, 5);
    expect(audit.map((a) => a.result)).toEqual([`${PAID - EXPORT_LIMIT} payments (paid, continued)`, `${EXPORT_LIMIT} payments (paid)`]);
  });

  it("gives the console's own client one file with every payment of the list", async () => {
    const world = consoleSetup();
    await world.signIn();
    await paidPayments(world.store, PAID);
    // The page's fetch, with the cookies and the operator a browser would carry (console-harness.ts).
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => world.request(String(url).replace('/payin/console', ''), init));
    const client = new ConsoleClient('/payin/console');
    await client.session();
    const lines = (await (await client.exportCsv('paid', '')).text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,orderId,/);
    expect(lines.filter((line) => line.startsWith('id,'))).toHaveLength(1);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(PAID);
  });
});
