/**
 * Two shop servers on one SQLite file, as a deploy that starts the new process before the old one has stopped, or
 * an operator who starts the server a second time by hand: stores.md asks for one process per file (event streams
 * and rate counters live in the process), but the money must still hold, since the leases, the payments' versions
 * and the outbox are in the file and every write takes SQLite's write lock. Each order created at both at once
 * makes one payment, and each "paid" is heard once between the two.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../proxy/sandbox-harness.js';
import { useCompiledCli } from '../support/compiled-cli.js';
import { crashingShop, createUntilAnswered, heardPaid, startService, type CrashingShop, type Service } from './support/crashing-shop.js';

const ORDERS = 12;
const build = useCompiledCli();
let service: Service | undefined;
const shops: CrashingShop[] = [];
afterEach(async () => {
  for (const shop of shops.splice(0)) await shop.close();
  service?.sandbox.close();
  await service?.server.close();
});

describe('two shop servers on one SQLite file', () => {
  it('both start when they open a new file at the same moment (8 processes, 4 new files)', async () => {
    // Each process opens the store (which switches the file to WAL and migrates it) and closes it. SQLite answered
    // the switch "database is locked" at once, without waiting, to all but one of processes opening a new file together.
    const opener = `const { createSqliteStore } = await import(process.argv[1]); await createSqliteStore({ path: process.argv[2] }).close();`;
    const open = (path: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', opener, join(build.build, 'sqlite/index.js'), path]);
        let said = '';
        child.stderr.on('data', (chunk) => (said += chunk));
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', (code) => {
          clearTimeout(timer);
          resolve(code === 0 ? 'ok' : (said.split('\n').find((line) => line.includes('Error')) ?? `exit ${code}`));
        });
      });
    for (let round = 0; round < 4; round++) {
      const path = join(build.dir, `opened-together-${round}.db`);
      expect(await Promise.all(Array.from({ length: 8 }, () => open(path)))).toEqual(Array(8).fill('ok'));
    }
  }, 120_000);

  it(`makes one payment per order created at both at once, and each "paid" is heard once (${ORDERS} orders)`, async () => {
    service = await startService();
    const storeUrl = `sqlite:${join(build.dir, 'shared.db')}`;
    for (let i = 0; i < 2; i++) shops.push(await crashingShop({ build: build.build, storeUrl, service }));
    await Promise.all(shops.map((shop) => shop.start()));
    const [a, b] = shops as [CrashingShop, CrashingShop];

    const ids: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const orderId = `W-${i}`;
      const answers = await Promise.all([createUntilAnswered(a, orderId), createUntilAnswered(b, orderId)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
      expect(answers[0].body.payment.id).toBe(answers[1].body.payment.id);
      ids.push(answers[0].body.payment.id);
    }
    expect(service.sandbox.payments()).toHaveLength(ORDERS);

    for (const id of ids) service.sandbox.act(id, 'pay');
    const lines = () => [...a.hookLines(), ...b.hookLines()];
    await eventually(() => ids.every((id) => heardPaid(lines(), 'done', id) >= 1), 20_000, 'every "paid" to be heard');
    await service.sandbox.idle();
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // both processes' sweeps and lapsed leases: nothing more
    expect(ids.filter((id) => heardPaid(lines(), 'called', id) !== 1)).toEqual([]);
    for (const orderId of ['W-0', `W-${ORDERS - 1}`]) {
      expect([
        (await a.post('/payments', { orderId, method: 'upi' })).status,
        (await b.post('/payments', { orderId, method: 'upi' })).status,
      ]).toEqual([409, 409]);
    }
  }, 90_000);
});
