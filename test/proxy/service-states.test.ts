/**
 * Every path through the service's states that the real sandbox can walk, over loopback: what the ledger records,
 * what the shop's hook hears (each new state once, with its outcome and amounts) and what the shopper's page reads.
 * Callbacks come twice and out of order in the second pass, as the service may send them; only the final state is
 * then sure to be heard, and it is heard once. Nothing but a finish that covers the price is ever "paid".
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxAction } from '../../src/sandbox/state-machine.js';
import { eventually, startLive, type Live } from './sandbox-harness.js';

let live: Live | undefined;
afterEach(async () => {
  await live?.close();
  live = undefined;
});

type Step = [SandboxAction, { amount?: string }?];

/** Each path: the actions after the payment is pending, and what the hook hears of it (state, outcome, amount, initAmount). */
const PATHS: [string, Step[], [string, string, string, string?][]][] = [
  ['paid more than the price', [['pay', { amount: '600.00' }]], [['finished', 'paid', '600.00', '499.00']]],
  ['paid less than the price', [['pay', { amount: '400.00' }]], [['finished', 'underpaid', '400.00', '499.00']]],
  [
    'checked, then paid',
    [['in-check'], ['pay']],
    [
      ['in_check', 'checking', '499.00'],
      ['finished', 'paid', '499.00'],
    ],
  ],
  [
    'checked, then failed',
    [['in-check'], ['fail']],
    [
      ['in_check', 'checking', '499.00'],
      ['failed', 'failed', '499.00'],
    ],
  ],
  [
    'disputed, then paid less',
    [['dispute'], ['pay', { amount: '450.00' }]],
    [
      ['dispute', 'checking', '499.00'],
      ['finished', 'underpaid', '450.00', '499.00'],
    ],
  ],
  [
    'checked, disputed, then expired',
    [['in-check'], ['dispute'], ['expire']],
    [
      ['in_check', 'checking', '499.00'],
      ['dispute', 'checking', '499.00'],
      ['expired', 'expired', '499.00'],
    ],
  ],
  ['canceled', [['cancel']], [['canceled', 'failed', '499.00']]],
];

async function walk(l: Live, orderId: string, steps: Step[]) {
  const { body } = await l.create(orderId);
  const id: string = body.payment.id;
  await eventually(() => l.sandbox.payment(id)?.state === 'pending', 5_000, 'the requisites');
  await eventually(() => l.updates.some((u) => u.payment.id === id), 5_000, 'the first state to be heard');
  for (const [action, fields] of steps) {
    const before = l.sandbox.payment(id)!.deliveries.length;
    l.sandbox.act(id, action, fields);
    // One state at a time, so that the order of the hook's calls is the service's order.
    await eventually(() => l.sandbox.payment(id)!.deliveries.length > before, 5_000, `the callback of ${action}`);
    await l.sandbox.idle();
  }
  return { id, token: body.token as string };
}

/**
 * What the hook heard of the path's own steps: not the states before them, "created" (heard or not, as the create
 * answered before or after the sandbox assigned requisites) and "pending".
 */
const heard = (l: Live, id: string) =>
  l.updates
    .filter((u) => u.payment.id === id && u.payment.state !== 'created' && u.payment.state !== 'pending')
    .map((u) => [u.payment.state, u.payment.outcome, u.payment.amount, ...(u.payment.initAmount ? [u.payment.initAmount] : [])]);

describe("the service's states, walked on the sandbox", () => {
  it('are each heard once, in order, with their outcome and amounts, and the page reads the last', async () => {
    live = await startLive();
    for (const [n, [name, steps, expected]] of PATHS.entries()) {
      const { id, token } = await walk(live, `S-${n}`, steps);
      await eventually(() => heard(live!, id).length === expected.length, 5_000, `what the hook hears when ${name}`);
      expect(heard(live, id), name).toEqual(expected);
      const [state, outcome, amount] = expected.at(-1)!;
      expect((await live.status(id, token)).body.payment, name).toMatchObject({ state, outcome, amount });
    }
  }, 30_000);

  it('end in the same final announcement, once, with callbacks duplicated and reordered', async () => {
    live = await startLive({}, { reorderDelayMs: 100 });
    live.sandbox.setFaults({ duplicateCallbacks: true, reorderCallbacks: true });
    for (const [n, [name, steps, expected]] of PATHS.entries()) {
      const { id } = await walk(live, `R-${n}`, steps);
      const last = expected.at(-1)!;
      await eventually(() => heard(live!, id).some(([state]) => state === last[0]), 5_000, `the final state when ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 250)); // the held-back and duplicate callbacks land
      await live.sandbox.idle();
      const finals = heard(live, id).filter(([state]) => state === last[0]);
      expect(finals, name).toEqual([last]);
      if (last[1] !== 'paid')
        expect(
          heard(live, id).filter(([, outcome]) => outcome === 'paid'),
          name,
        ).toEqual([]);
    }
  }, 30_000);
});
