/**
 * What the standalone server's /metrics says, read as an operator's dashboard and alerts read it, with the real
 * sandbox over loopback as the payment service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { SBP_MEMBERS_PATH } from '../../src/sandbox/sbp-members.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { readStandaloneConfig, signOrderToken, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { sandboxMerchant } from './support/sandbox-merchant.js';

const TOKEN_SECRET = 'order-token-key-for-metrics';

/** A sample's value in the Prometheus text, e.g. sample(text, 'payin_upstream_request_seconds_count'). */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in /metrics`);
  return Number(line.slice(name.length + 1));
}

describe('the standalone server /metrics', () => {
  let sandbox: Sandbox;
  let service: RunningServer;
  /** The same sandbox on another address, standing in for NSPK's servers of the SBP bank list and logos. */
  let banks: RunningServer;
  let server: StandaloneServer;
  /** Calls to the service's API, as the sandbox received them. */
  let serviceCalls = 0;
  const metric = async (name: string) => sample(await (await fetch(`${server.url}/metrics`)).text(), name);

  beforeAll(async () => {
    sandbox = createSandbox({ requisitesDelayMs: 0 });
    service = await serve((request) => {
      if (new URL(request.url).pathname.startsWith('/api/')) serviceCalls++;
      return sandbox(request);
    });
    banks = await serve(sandbox);
    const config = readStandaloneConfig({
      ...sandboxMerchant(service.url),
      PAYIN_WEBHOOK_URL: 'http://127.0.0.1:9/webhook',
      PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`,
      PAYIN_ORDER_TOKEN_SECRET: TOKEN_SECRET,
      PAYIN_SBP_BANKS_URL: `${banks.url}${SBP_MEMBERS_PATH}`,
      PAYIN_STORE_URL: 'memory:',
      PORT: '0',
    });
    server = await startStandalone(config, { log: () => {}, reconcileEveryMs: 0, storeCheckEveryMs: 0 });
  });
  afterAll(async () => {
    await server?.close();
    sandbox?.close();
    await service?.close();
    await banks?.close();
  });

  it("times the payment service's answers only, not the SBP bank list and logos the proxy fetches elsewhere", async () => {
    const listUrl = `${server.url}/payin/sbp-banks`;
    const list = (await (await fetch(listUrl)).json()) as { dictionary: { logoURL?: string }[] };
    const logo = list.dictionary.find((bank) => bank.logoURL)?.logoURL;
    expect(logo).toBeDefined();
    // As the element does: relative to the list's address.
    expect((await fetch(new URL(logo!, listUrl))).status).toBe(200);
    expect(await metric('payin_upstream_request_seconds_count')).toBe(0);

    const orderToken = await signOrderToken(TOKEN_SECRET, {
      orderId: 'M-1',
      amount: '250.00',
      currency: 'INR',
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    const created = await fetch(`${server.url}/payin/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: 'M-1', method: 'upi', orderToken }),
    });
    expect(created.status).toBe(201);
    expect(serviceCalls).toBeGreaterThan(0);
    expect(await metric('payin_upstream_request_seconds_count')).toBe(serviceCalls);
  });
});
