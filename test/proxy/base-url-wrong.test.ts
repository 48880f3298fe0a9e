/**
 * A PAYIN_BASE_URL that is not the service's address (the usual slip: it ends in /api/v2, to which the proxy adds
 * /api/v2/payments again) makes every create answer HTTP 404. The log read "the payment service could not be used
 * just now; try again ... HTTP 404", which sends an operator to wait for a service that will never answer there;
 * it now names the setting and the address the proxy called.
 */
import { describe, expect, it } from 'vitest';
import { capturingLogger as capturing, setup } from './harness.js';

describe('a create endpoint the service does not have', () => {
  it.each([
    [404, 'a web server’s page', '<html><body>Not Found</body></html>'],
    [404, 'a refusal in the service’s shape', { status: false, code: 404, message: 'no endpoint /api/v2/api/v2/payments' }],
    [405, 'a web server’s page', 'Method Not Allowed'],
  ])('names PAYIN_BASE_URL in the log when a create gets HTTP %s (%s)', async (status, _what, body) => {
    const { lines, logger } = capturing();
    const world = setup({ logger });
    world.service.onCreate = () => ({ status, body });
    const { response } = await world.create('A-1');
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(lines.join('\n')).toMatch(/no such endpoint at http:\/\/service\.test: check PAYIN_BASE_URL/);
  });
});
