/**
 * Anyone can post a create with a made-up order id and no order token, or a garbage one, and the standalone server
 * says why it refused (a page whose template forgot the attribute must be told). Each from another address, the
 * per-client limits never stop them: a line per refusal let a stranger write the log at the server's request rate.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

describe('the standalone server’s refusals of order tokens', () => {
  let server: StandaloneServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('says the first refusal of each reason with its order id, then how many more, not a line each', async () => {
    const log: string[] = [];
    const config = readStandaloneConfig({ ...offlineStandaloneEnv('memory:'), PAYIN_CLIENT_IP_HEADER: 'X-Real-IP' });
    server = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0, storeCheckEveryMs: 0 });
    const create = (i: number, orderToken?: string) =>
      fetch(`${server!.url}/payin/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-real-ip': `10.0.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ orderId: `made-up-${i}`, method: 'upi', ...(orderToken === undefined ? {} : { orderToken }) }),
      });
    for (let i = 0; i < 300; i++) expect((await create(i, i % 2 ? 'not.a-token' : undefined)).status).toBe(404);
    const refusals = () => log.filter((line) => line.startsWith('refused'));
    expect(refusals()).toEqual([
      expect.stringMatching(/^refused a create of made-up-0: no order token \(PAYIN_ORDER_TOKEN_SECRET/),
      expect.stringMatching(/^refused an order token for made-up-1: (malformed|signature does not verify)$/),
    ]);

    await server.close();
    expect(refusals().slice(2).sort()).toEqual([
      expect.stringMatching(/^refused 149 more creates without an order token in the last 60 s$/),
      expect.stringMatching(/^refused 149 more order tokens in the last 60 s: (malformed|signature does not verify)$/),
    ]);
  });
});
