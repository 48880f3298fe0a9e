/**
 * A shop's graceful shutdown with a checkout open: the shop calls `payin.close()` and closes its server, which
 * waits for every answer to end. An event stream is an answer that never ends on its own (it lives up to 30
 * minutes), so close() ends the streams the proxy holds; the shopper's EventSource reconnects, with its
 * Last-Event-ID, to the next process. Served over node:http on loopback, as a shop mounts the proxy, since what
 * matters is that the server can close.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { toNodeListener } from '../../../src/server/node-listener.js';
import { setup } from '../harness.js';
import { SseReader } from '../sse-reader.js';

async function mounted(t: ReturnType<typeof setup>) {
  const server = createServer(toNodeListener(t.proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const events = async (paymentId: string, token: string) =>
    new SseReader(await fetch(`${base}/payin/events?paymentId=${paymentId}&token=${token}`));
  /** Resolves true once the server has closed, false if it is still open after `ms` of real time. */
  const closes = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  return { server, events, closes };
}

describe('close() with event streams open', () => {
  it('ends the open streams, so that the shop’s server can close', async () => {
    const t = setup();
    const shop = await mounted(t);
    try {
      const { body } = await t.create();
      const events = await shop.events(body.payment.id, body.token);
      expect((await events.nextEvent())?.event).toBe('payment');

      await t.proxy.close();
      expect(await events.next(2_000)).toBeUndefined();
      expect(await shop.closes(2_000)).toBe(true);
      expect(t.store.subscriptionCount).toBe(0);
    } finally {
      shop.server.closeAllConnections();
    }
  });

  it('lets the server close at once after close(), though the browser keeps its connection alive', async () => {
    const t = setup();
    const shop = await mounted(t);
    // Fastify keeps an idle connection for 72 s, and a browser keeps it as long as the server does; the server's
    // close waits for every connection, so the ended streams' connections must not stay behind as idle ones.
    shop.server.keepAliveTimeout = 72_000;
    try {
      const { body } = await t.create();
      const events = await shop.events(body.payment.id, body.token);
      expect((await events.nextEvent())?.event).toBe('payment');

      await t.proxy.close();
      expect(await shop.closes(2_000)).toBe(true);
      expect(await events.next(1_000)).toBeUndefined();
    } finally {
      shop.server.closeAllConnections();
    }
  });

  it('pings no stream after close(), and asks the service nothing for one', async () => {
    const t = setup();
    const { body } = await t.create();
    const response = await t.proxy(new Request(`http://shop.test/payin/events?paymentId=${body.payment.id}&token=${body.token}`));
    const events = new SseReader(response);
    await events.nextEvent();
    await t.proxy.close();
    const asked = t.service.statuses.length;
    await t.clock.advance(60_000);
    expect(await events.next(1_000)).toBeUndefined();
    expect(t.service.statuses.length).toBe(asked);
  });

  it('answers a stream opened after close() with the current state, then ends it', async () => {
    const t = setup();
    const { body } = await t.create();
    await t.proxy.close();
    const response = await t.proxy(new Request(`http://shop.test/payin/events?paymentId=${body.payment.id}&token=${body.token}`));
    const events = new SseReader(response);
    expect(JSON.parse((await events.nextEvent())!.data!).state).toBe('pending');
    expect(await events.next(1_000)).toBeUndefined();
  });
});
