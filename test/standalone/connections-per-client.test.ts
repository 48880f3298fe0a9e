/**
 * One address cannot take the standalone server's every connection. The server keeps at most 1,000 connections
 * open and refuses the rest at once; a client that opens them and sends nothing (a slowloris: each is dropped only
 * after the 10 s headers timeout, and opened again) held all 1,000 from one address, and every shopper was
 * refused. Exposed directly (no PAYIN_CLIENT_IP_HEADER), the server now gives one client (an IPv4 address, an
 * IPv6 /64) at most 100 connections; loopback's 127.0.0.2 stands for a second machine.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartedStandalone, type RestartedStandalone } from './support/restarted-standalone.js';

const TOKEN_PRICING = { PAYIN_ORDER_TOKEN_SECRET: 'order-token-key-for-tests-123' };

let world: RestartedStandalone;
beforeAll(async () => {
  world = await restartedStandalone();
});
afterAll(() => world.close());

/** `count` connections from `localAddress` that send nothing; each notes whether the server closed it. */
async function holdConnections(url: string, count: number, localAddress = '127.0.0.1') {
  const { hostname, port } = new URL(url);
  const held: { socket: Socket; closed: boolean }[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    const entry = { socket, closed: false };
    socket.on('error', () => {});
    socket.on('close', () => (entry.closed = true));
    socket.resume(); // reads the server's FIN, so that 'close' comes when the server drops it
    await new Promise((resolve) => socket.once('connect', resolve).once('close', resolve));
    held.push(entry);
  }
  return held;
}

/** GET `path` on a fresh connection from `localAddress`: the status, or the error's words. */
function get(url: string, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false, localAddress, timeout: 3_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 3 s')));
    req.on('error', (error) => resolve(error.message));
    req.end();
  });
}

describe('connections per client', () => {
  it('serves another address while one address holds a thousand idle connections', async () => {
    const server = await world.start(TOKEN_PRICING);
    const held = await holdConnections(server.url, 1_000);
    try {
      expect(await get(`${server.url}/livez`, '127.0.0.2')).toBe(200);
      // The address's connections past its 100 were closed at once, not left to the headers timeout.
      await expect.poll(() => held.filter((entry) => entry.closed).length, { timeout: 2_000 }).toBe(900);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });

  it('serves the address again once it lets its connections go', async () => {
    const server = await world.start(TOKEN_PRICING);
    const held = await holdConnections(server.url, 100);
    expect(await get(`${server.url}/livez`, '127.0.0.1')).not.toBe(200);
    for (const { socket } of held) socket.destroy();
    await expect.poll(() => get(`${server.url}/livez`, '127.0.0.1'), { timeout: 2_000 }).toBe(200);
  });

  it('leaves the cap to the web server in front when PAYIN_CLIENT_IP_HEADER is set: every connection comes from it', async () => {
    const server = await world.start({ ...TOKEN_PRICING, PAYIN_CLIENT_IP_HEADER: 'X-Real-IP' });
    const held = await holdConnections(server.url, 150);
    try {
      expect(await get(`${server.url}/livez`, '127.0.0.1')).toBe(200);
      expect(held.filter((entry) => entry.closed)).toHaveLength(0);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});
