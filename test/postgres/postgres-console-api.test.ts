/**
 * The operator's console on a PostgreSQL store, through the proxy: it starts (it refused a store without the
 * console operations), lists and filters what the ledger wrote, and a re-check leaves its timeline and audit line
 * in the database. And the standalone server serves it with PAYIN_STORE_URL=postgres://...
 */
import { expect, it } from 'vitest';
import { createPostgresStore } from '../../src/postgres/index.js';
import { DEMO_MERCHANT } from '../../src/sandbox/index.js';
import { readStandaloneConfig, startStandalone } from '../../src/standalone/index.js';
import { consoleSetup } from '../console-api/console-harness.js';
import { usePostgresServer } from './postgres-server-harness.js';
import { signInToConsole } from '../support/console-sign-in.js';

const server = usePostgresServer();

interface ListBody {
  payments: { id: string; orderId: string; outcome: string }[];
  counts: Record<string, number>;
}
interface DetailBody {
  payment: { outcome: string };
  history: { kind: string; state: string; source?: string }[];
  audit: { operator: string; action: string; result: string }[];
}

it('serves the console from PostgreSQL: the list, its filters and counts, a re-check with its timeline and audit', async () => {
  const store = createPostgresStore({ url: server.url, schema: `console_${Math.random().toString(36).slice(2)}`, max: 4 });
  try {
    const world = consoleSetup({ store });
    await world.signIn();
    const first = (await world.create('A-1')).body.payment.id;
    await world.create('A-2');
    const all = await world.get<ListBody>('/api/payments');
    expect(all.answer.status).toBe(200);
    expect(all.body.payments.map((p) => p.orderId)).toEqual(['A-2', 'A-1']);
    expect(all.body.counts).toMatchObject({ all: 2, open: 2, paid: 0 });

    world.service.set(first, { state: 'finished' }); // paid; its callback never came
    expect((await world.post<{ result: string }>(`/api/payments/${first}/recheck`)).body.result).toBe('now finished');
    const paid = await world.get<ListBody>('/api/payments?filter=paid');
    expect(paid.body.payments.map((p) => p.id)).toEqual([first]);
    expect(paid.body.counts).toMatchObject({ all: 2, open: 1, paid: 1 });
    const detail = await world.get<DetailBody>(`/api/payments/${first}`);
    expect(detail.body.payment.outcome).toBe('paid');
    expect(detail.body.history.filter((h) => h.kind === 'state').map((h) => [h.state, h.source])).toEqual([
      ['created', 'create'],
      ['pending', 'create'],
      ['finished', 'reconcile'],
    ]);
    expect(detail.body.audit.map((a) => [a.operator, a.action, a.result])).toEqual([['ana', 'recheck', 'now finished']]);
  } finally {
    await store.close();
  }
});

it('is served by the standalone server with PAYIN_STORE_URL=postgres://... and PAYIN_CONSOLE_TOKEN', async () => {
  const nowhere = 'http://127.0.0.1:1'; // nothing is created here: the list is read from the database alone
  const token = 'standalone-console-token-0123456789';
  const log: string[] = [];
  const config = readStandaloneConfig({
    PORT: '0',
    PAYIN_BASE_URL: nowhere,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_WEBHOOK_URL: `${nowhere}/webhook`,
    PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('a shared secret of enough bytes').toString('base64')}`,
    PAYIN_RESOLVE_URL: `${nowhere}/price`,
    PAYIN_CALLBACK_URL: `${nowhere}/payin/callback`,
    PAYIN_STORE_URL: server.url,
    PAYIN_CONSOLE_TOKEN: token,
  });
  const standalone = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0 });
  try {
    expect(log.some((line) => line.includes('/payin/console (sign in with PAYIN_CONSOLE_TOKEN)'))).toBe(true);
    const cookie = await signInToConsole(standalone.url, token);
    const list = await fetch(`${standalone.url}/payin/console/api/payments?filter=stuck`, { headers: { cookie } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as ListBody).counts).toMatchObject({ all: 0, stuck: 0 });
  } finally {
    await standalone.close();
  }
});
