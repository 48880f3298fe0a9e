/**
 * What the storms share: a bounded worker pool, and the payers' choices (most pay, some pay too little, some let
 * the payment expire or fail) with the outcome the shop must hear for each.
 */
import type { Sandbox } from '../../src/sandbox/index.js';

/** Runs `work` over `items` with at most `limit` at once. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

/** Plays the payer of payment `id` in the sandbox by the roll `roll` (0..1); the outcome the shop must hear. */
export function actAsPayer(sandbox: Sandbox, id: string, roll: number): string {
  const [action, body, outcome] =
    roll < 0.6
      ? (['pay', undefined, 'paid'] as const)
      : roll < 0.7
        ? (['pay', { amount: '1.00' }, 'underpaid'] as const)
        : roll < 0.85
          ? (['expire', undefined, 'expired'] as const)
          : (['fail', undefined, 'failed'] as const);
  sandbox.act(id, action, body);
  return outcome;
}
