/**
 * What a page may send to the proxy's routes, as docs/security.md ("Only ... is accepted from the browser") and
 * docs/proxy.md's table of routes say it: the fields are read from the proxy's own refusal of an unknown one, so a
 * field the routes come to accept (as `orderToken` came to the create) cannot be left out of either page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPayinProxy, silentLogger } from '../../src/proxy/index.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

const proxy = createPayinProxy({
  env: {},
  provider: { baseUrl: 'http://127.0.0.1:1', merchantId: 'm', token: 't', secret: 's' },
  callbackUrl: 'http://127.0.0.1:1/payin/callback',
  resolveOrder: () => null,
  reconcileEveryMs: 0,
  logger: silentLogger,
});

/** The fields a route takes, in the words of its 400 `unknown_field`. */
async function fieldsOf(route: string): Promise<string[]> {
  const answer = await proxy(
    new Request(`http://127.0.0.1/payin/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '1.00' }),
    }),
  );
  const { error } = (await answer.json()) as { error: { code: string; message: string } };
  expect(error.code).toBe('unknown_field');
  return /only (.*?) may be sent/.exec(error.message)![1]!.split(', ');
}

describe('the fields a page may send', () => {
  it('are every one that docs/security.md says the browser may send', async () => {
    const fields = await fieldsOf('payments');
    expect(fields).toContain('orderId');
    const rule = read('docs/security.md')
      .split('\n')
      .find((line) => line.includes('is accepted from the browser'))!;
    expect(fields.filter((field) => !new RegExp(`\\b${field}\\b`).test(rule))).toEqual([]);
  });

  it.each([
    ['payments', 'POST /payin/payments'],
    ['status', 'POST /payin/status'],
  ])('of %s are each named in the route table of docs/proxy.md', async (route, row) => {
    const fields = await fieldsOf(route);
    const line = read('docs/proxy.md')
      .split('\n')
      .find((text) => text.startsWith(`| \`${row}`))!;
    expect(fields.filter((field) => !new RegExp(`\\b${field}\\b`).test(line))).toEqual([]);
  });
});
