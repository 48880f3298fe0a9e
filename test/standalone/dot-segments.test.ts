/**
 * The standalone server behind a web server that forwards only its base path (`/payin/`) and keeps `/metrics` and
 * `/healthz` to itself: a request target with dot segments must not climb out of the base path on the way in.
 * Such a front matches the path as it came (HAProxy's path_beg, Envoy without path normalisation), while the URL
 * parser here resolves `/payin/%2e%2e/metrics` to `/metrics`. Raw targets over real HTTP, as a client other than a
 * browser sends them (browsers and fetch resolve dot segments before sending).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../src/standalone/index.js';
import { offlineStandaloneEnv } from '../support/standalone-env.js';

let server: StandaloneServer;
beforeAll(async () => {
  server = await startStandalone(readStandaloneConfig(offlineStandaloneEnv('memory:')), {
    log: () => {},
    reconcileEveryMs: 0,
    storeCheckEveryMs: 0,
  });
});
afterAll(() => server.close());

/** GET of a target exactly as written. */
function getRaw(target: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: target, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a request target with dot segments', () => {
  it('is refused with 400, never resolved to the server’s own routes outside the base path', async () => {
    for (const target of [
      '/payin/%2e%2e/metrics',
      '/payin/%2E%2E/healthz',
      '/payin/.%2e/metrics',
      '/payin/../metrics',
      '/payin/./../metrics',
      '/payin\\..\\metrics',
      '/payin/console/%2e%2e/%2e%2e/livez',
    ]) {
      const answer = await getRaw(target);
      expect(answer.status, target).toBe(400);
      expect(answer.body, target).not.toContain('payin_');
    }
  });

  it('leaves the routes themselves, and names that merely hold dots, as they were', async () => {
    expect((await getRaw('/metrics')).body).toContain('payin_webhook_deliveries_total');
    expect((await getRaw('/livez')).status).toBe(200);
    expect((await getRaw('/payin/..%2fmetrics')).status).toBe(404);
    expect((await getRaw('/payin/sbp-banks/logos/...png')).status).toBe(404);
  });
});
