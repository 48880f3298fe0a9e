/**
 * The service refusing the merchant's credentials (HTTP 401 or 403: a wrong PAYIN_TOKEN, PAYIN_MERCHANT_ID or
 * PAYIN_SECRET, the usual slip when going live) is named as such in the log, with the settings to check. It read
 * "the payment service could not be used just now; try again ... HTTP 401", which sends an operator to wait for
 * a service that will refuse every request until the configuration is mended.
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger as capturing, setup } from './harness.js';

describe('credentials the service refuses', () => {
  it.each([401, 403])('are named in the log when a create gets HTTP %s', async (status) => {
    const { lines, logger } = capturing();
    const world = setup({ logger });
    world.service.onCreate = () => ({ status, body: { status: false, code: status, message: 'unauthorized' } });
    const { response } = await world.create('A-1');
    expect(response.status).toBeGreaterThanOrEqual(500);
    const log = lines.join('\n');
    expect(log).toMatch(/refused the merchant's credentials/);
    expect(log).toMatch(/PAYIN_MERCHANT_ID, PAYIN_TOKEN and PAYIN_SECRET/);
  });

  it('leaves other refusals as they were: a 404 is no credentials problem', async () => {
    const { lines, logger } = capturing();
    const world = setup({ logger });
    world.service.onCreate = () => ({ status: 404, body: { status: false, code: 404, message: 'no' } });
    await world.create('A-1');
    expect(lines.join('\n')).not.toMatch(/credentials/);
  });
});
