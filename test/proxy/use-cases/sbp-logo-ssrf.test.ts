/**
 * The bank-logo route against a hostile bank list, over real HTTP on loopback: the list's logos redirect to an
 * internal "admin" server, point at it over https by a name that resolves to loopback, are HTML dressed as PNG,
 * never end, or fail. The admin server must see no request at all, and a failing logo is fetched once however
 * many visitors ask.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, setup } from '../harness.js';

/** The smallest valid PNG's first bytes: the signature and an IHDR chunk's start. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function listen(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer(handle);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

const bank = (n: number) => `bank1000000000${String(n).padStart(2, '0')}`;

let admin: { server: Server; origin: string };
let list: { server: Server; origin: string };
const adminHits: string[] = [];
const listHits = new Map<string, number>();
let endlessCancelled = false;

beforeAll(async () => {
  admin = await listen((req, res) => {
    adminHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.from('internal secret')]));
  });
  const adminPort = new URL(admin.origin).port;
  list = await listen((req, res) => {
    const path = req.url ?? '';
    listHits.set(path, (listHits.get(path) ?? 0) + 1);
    const logos: Record<string, string> = {
      [bank(1)]: `${list.origin}/redirect.png`,
      [bank(2)]: `https://localhost:${adminPort}/admin/logo.png`,
      [bank(3)]: `http://127.0.0.1:${adminPort}/admin/logo.png`,
      [bank(4)]: `${list.origin}/failing.png`,
      [bank(5)]: `${list.origin}/html.png`,
      [bank(6)]: `${list.origin}/endless.png`,
      [bank(7)]: `${list.origin}/good.png`,
      [bank(8)]: `https://[::ffff:127.0.0.1]:${adminPort}/admin/logo.png`,
      [bank(9)]: `${list.origin}/slow.png`,
    };
    if (path === '/list.json') {
      const dictionary = Object.entries(logos).map(([schema, logoURL]) => ({ bankName: schema, schema, logoURL }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1', dictionary }));
    } else if (path === '/redirect.png') {
      res.writeHead(302, { location: `${admin.origin}/admin/users` }).end();
    } else if (path === '/failing.png') {
      res.writeHead(500).end();
    } else if (path === '/html.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>');
    } else if (path === '/endless.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.on('close', () => (endlessCancelled = true));
      const chunk = Buffer.concat([PNG, Buffer.alloc(64 * 1024)]);
      // At most 64 chunks (4 MiB): the proxy must stop reading long before.
      let sent = 0;
      const more = () => {
        while (sent < 64 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    } else if (path === '/slow.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG); // and nothing more until the client gives up (the server's close ends it)
    } else if (path === '/good.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    } else res.writeHead(404).end();
  });
});

afterAll(async () => {
  for (const { server } of [admin, list]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function hostileSetup() {
  const t = setup({
    sbpBanksUrl: `${list.origin}/list.json`,
    fetch: globalThis.fetch,
    timeouts: { statusMs: 500 },
    limits: { logosPerMinute: 10_000 },
  });
  const logo = (n: number) => t.proxy(new Request(`${ORIGIN}/payin/sbp-banks/logos/${bank(n)}.png`));
  return { ...t, logo };
}

describe('GET /payin/sbp-banks/logos/<schema>.png with a hostile list', () => {
  it('never follows a redirect, even a same-origin one to an internal address', async () => {
    const t = hostileSetup();
    const answer = await t.logo(1);
    expect(answer.status).toBe(502);
    expect(await answer.text()).not.toContain('internal secret');
    expect(adminHits).toEqual([]);
  });

  it('refuses hosts that resolve to loopback (a name or an IPv4-mapped address) and plain http off the list origin, sending nothing', async () => {
    const t = hostileSetup();
    // Plain http off the list's origin is not even offered in the list (404); the https ones are refused on resolving.
    expect([(await t.logo(2)).status, (await t.logo(3)).status, (await t.logo(8)).status]).toEqual([502, 404, 502]);
    expect(adminHits).toEqual([]);
  });

  it('serves only real images, by their first bytes: HTML labelled image/png is refused', async () => {
    const t = hostileSetup();
    expect((await t.logo(5)).status).toBe(502);
    const good = await t.logo(7);
    expect([good.status, good.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(Buffer.from(await good.arrayBuffer())).toEqual(PNG);
  });

  it('stops reading an answer past the size cap, and gives up on one that stalls', async () => {
    const t = hostileSetup();
    expect((await t.logo(6)).status).toBe(502);
    await expect.poll(() => endlessCancelled, { timeout: 2_000 }).toBe(true);
    expect((await t.logo(9)).status).toBe(502);
  });

  it('fetches a failing logo once for 200 visitors (at once and one after another), and again only after ten minutes', async () => {
    const t = hostileSetup();
    const before = listHits.get('/failing.png') ?? 0;
    const together = await Promise.all(Array.from({ length: 100 }, () => t.logo(4)));
    for (let i = 0; i < 100; i++) together.push(await t.logo(4));
    expect(together.every((answer) => answer.status === 502)).toBe(true);
    expect((listHits.get('/failing.png') ?? 0) - before).toBe(1);
    await t.clock.advance(10 * 60_000 + 1);
    await t.logo(4);
    expect((listHits.get('/failing.png') ?? 0) - before).toBe(2);
  });

  it('limits logo requests per client', async () => {
    const t = setup({ sbpBanksUrl: `${list.origin}/list.json`, fetch: globalThis.fetch, limits: { logosPerMinute: 3 } });
    const ask = () => t.proxy(new Request(`${ORIGIN}/payin/sbp-banks/logos/${bank(7)}.png`), { clientAddress: '203.0.113.9' });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
