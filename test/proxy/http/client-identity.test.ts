/**
 * Per-client limits on runtimes that give no peer address by themselves (Bun, Deno, workers, Hono): the address
 * is handed over as `proxy(request, {clientAddress})`; without any, the limits fall back to each order and payment,
 * never to the whole shop as one client, and a warning says once how to fix it.
 */
import { describe, expect, it } from 'vitest';
import type { ProxyLogger } from '../../../src/proxy/logger.js';
import { ORIGIN, setup } from '../harness.js';

const createRequest = (orderId: string) =>
  new Request(`${ORIGIN}/payin/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ orderId, method: 'upi' }),
  });

function recordingLogger(lines: string[]): ProxyLogger {
  const log = (message: string) => lines.push(message);
  return { info: log, warn: log, error: log };
}

/**
 * A create of `orderId` whose `header` says `value` (its status), on a proxy whose clientId reads that header (or
 * answers `fallback` without it), allowing `perMinute` creates a minute to a client.
 */
function byHeader(header: string, perMinute: number, fallback: string | undefined) {
  const t = setup({ limits: { createsPerMinute: perMinute }, clientId: (request) => request.headers.get(header) ?? fallback });
  return async (value: string, orderId: string) => {
    const request = createRequest(orderId);
    request.headers.set(header, value);
    return (await t.proxy(request)).status;
  };
}

describe('client identity', () => {
  it('lets a 31st shopper create a payment when the runtime gives no address, limiting each order instead', async () => {
    const lines: string[] = [];
    const t = setup({ limits: { createsPerMinute: 3 }, logger: recordingLogger(lines) });
    const shoppers = [];
    for (let i = 0; i < 31; i++) shoppers.push((await t.proxy(createRequest(`O-${i}`))).status);
    expect(shoppers.every((s) => s === 201)).toBe(true);
    const oneOrder = [];
    for (let i = 0; i < 4; i++) oneOrder.push((await t.proxy(createRequest('O-0'))).status);
    expect(oneOrder).toEqual([200, 200, 429, 429]);
    expect(lines.filter((l) => l.includes('no client address'))).toHaveLength(1);
    expect(lines.find((l) => l.includes('no client address'))).toMatch(/clientAddress.*clientId/);
  });

  it('limits per client address when the runtime hands one over', async () => {
    const t = setup({ limits: { createsPerMinute: 2 } });
    const from = async (clientAddress: string, orderId: string) => (await t.proxy(createRequest(orderId), { clientAddress })).status;
    expect([await from('10.0.0.1', 'A'), await from('10.0.0.1', 'B'), await from('10.0.0.1', 'C')]).toEqual([201, 201, 429]);
    expect(await from('10.0.0.2', 'D')).toBe(201);
  });

  it('limits an IPv6 client by its /64, so that changing the last half of its address gives it no fresh quota', async () => {
    const t = setup({ limits: { createsPerMinute: 2 } });
    const from = async (clientAddress: string, orderId: string) => (await t.proxy(createRequest(orderId), { clientAddress })).status;
    expect([await from('2001:db8:1:2::1', 'A'), await from('2001:db8:1:2::2', 'B'), await from('2001:db8:1:2::3', 'C')]).toEqual([
      201, 201, 429,
    ]);
    expect(await from('2001:db8:1:3::1', 'D')).toBe(201);
  });

  it('limits an IPv6 shopper by its /64 behind a reverse proxy too, with the clientId of docs/security.md', async () => {
    const from = byHeader('x-real-ip', 2, 'unknown');
    expect([await from('2001:db8:1:2::1', 'A'), await from('2001:db8:1:2::2', 'B'), await from('2001:db8:1:2::3', 'C')]).toEqual([
      201, 201, 429,
    ]);
    expect(await from('2001:db8:1:3::1', 'D')).toBe(201);
  });

  it('counts a shopper once whatever port its reverse proxy wrote after the address', async () => {
    const from = byHeader('x-forwarded-for', 2, undefined);
    expect([await from('203.0.113.7:51234', 'A'), await from('203.0.113.7:51235', 'B'), await from('203.0.113.7:51236', 'C')]).toEqual([
      201, 201, 429,
    ]);
  });

  it('keeps an identity of the shop’s own that is no address as it is', async () => {
    const from = byHeader('x-session', 1, undefined);
    expect([await from('session:2001', 'A'), await from('session:2002', 'B'), await from('session:2001', 'C')]).toEqual([201, 201, 429]);
  });
});
