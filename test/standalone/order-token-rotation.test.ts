/**
 * PAYIN_ORDER_TOKEN_SECRET during a rotation: the new key and the old one, space-separated, as PAYIN_SECRET and
 * PAYIN_WEBHOOK_SECRET take their two. The shop's pages carry tokens for as long as they stay open, so a server
 * restarted with the new key alone refused every page rendered before the shop's backend switched; with both, such a
 * page still pays (real server, real sandbox, over loopback), while a token under neither is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../src/standalone/index.js';
import { verifyOrderToken } from '../../src/standalone/order-token.js';
import { proxyUsage } from '../../src/standalone/usage.js';
import { configProblems, GOOD_ENV } from './support/config-problems.js';
import { type RestartedStandalone, restartedStandalone } from './support/restarted-standalone.js';

const OLD = 'the-order-token-key-of-last-year';
const NEW = 'the-order-token-key-issued-today';
const { PAYIN_RESOLVE_URL: _, ...TOKEN_PRICED } = GOOD_ENV;

describe('PAYIN_ORDER_TOKEN_SECRET during a rotation', () => {
  it('takes two keys, space-separated, and refuses three, the same one twice or a short one, with every other problem', () => {
    expect(configProblems({ ...TOKEN_PRICED, PAYIN_ORDER_TOKEN_SECRET: `${NEW} ${OLD}` })).toBe('');
    const three = configProblems({ ...TOKEN_PRICED, PAYIN_ORDER_TOKEN_SECRET: `${NEW} ${OLD} a-third-key-of-some-length`, PORT: 'x' });
    expect(three).toMatch(
      /PAYIN_ORDER_TOKEN_SECRET holds 3 secrets: give one, or during a rotation two, space-separated \(the new one first/,
    );
    expect(three).toMatch(/PORT must be a port number/);
    expect(configProblems({ ...TOKEN_PRICED, PAYIN_ORDER_TOKEN_SECRET: `${OLD}  ${OLD}` })).toMatch(
      /PAYIN_ORDER_TOKEN_SECRET holds the same secret twice/,
    );
    const short = configProblems({ ...TOKEN_PRICED, PAYIN_ORDER_TOKEN_SECRET: `${NEW} short-old` });
    expect(short).toMatch(/PAYIN_ORDER_TOKEN_SECRET must be at least 16 characters, each of its two/);
    expect(short).not.toContain('short-old');
  });

  it('says so in --help', () => {
    expect(proxyUsage()).toMatch(/PAYIN_ORDER_TOKEN_SECRET +.*\(the new one and the old one, space-separated, while you rotate it\)/);
  });

  it('signs with the first of the two keys and verifies under either, from JavaScript too', async () => {
    const claims = { orderId: 'A-1', amount: '10.00', currency: 'INR', exp: 2_000 };
    const token = await signOrderToken(`${NEW} ${OLD}`, claims);
    expect((await verifyOrderToken(NEW, token, 'A-1', 1_000_000)).ok).toBe(true);
    const old = await signOrderToken(OLD, claims);
    expect((await verifyOrderToken(`${NEW} ${OLD}`, old, 'A-1', 1_000_000)).ok).toBe(true);
    expect((await verifyOrderToken(NEW, old, 'A-1', 1_000_000)).ok).toBe(false);
  });

  describe('across a restart', () => {
    let stack: RestartedStandalone | undefined;
    afterEach(async () => {
      await stack?.close();
      stack = undefined;
    });

    const create = (orderId: string, orderToken: string) => stack!.post('/payments', { orderId, method: 'upi', orderToken });
    const tokenFor = (secret: string, orderId: string) =>
      signOrderToken(secret, { orderId, amount: '250.00', currency: 'INR', exp: Math.floor(Date.now() / 1000) + 900 });

    it("pays a page's token signed with the old key after a restart with the new and the old one, and refuses one under neither", async () => {
      stack = await restartedStandalone();
      await stack.start({ PAYIN_ORDER_TOKEN_SECRET: OLD });
      // Rendered before the restart, paid after it: the shopper kept the page open.
      const rendered = await tokenFor(OLD, 'T-1');
      await stack.start({ PAYIN_ORDER_TOKEN_SECRET: `${NEW} ${OLD}` });
      const paid = await create('T-1', rendered);
      expect(paid.status).toBe(201);
      expect(paid.body.payment.amount).toBe('250.00');
      // The shop's backend, switched, signs with the new one.
      expect((await create('T-2', await tokenFor(NEW, 'T-2'))).status).toBe(201);
      const forged = await create('T-3', await tokenFor('a-key-the-proxy-never-had', 'T-3'));
      expect(forged.status).toBe(404);
      expect(stack.log.join('\n')).toMatch(/refused an order token for T-3: signature does not verify/);
    });
  });
});
