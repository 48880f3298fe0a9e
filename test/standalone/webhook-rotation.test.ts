/**
 * Rotating PAYIN_WEBHOOK_SECRET without turning webhooks away: for the switch the variable holds the new secret and
 * the old one, space-separated, and every webhook and pricing call is signed with both (Standard Webhooks lists
 * signatures space-separated, and the shop's helpers accept a call when any of them verifies), so the shop's backend
 * may move to the new secret at any time; then the old one is dropped.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createSignedPoster } from '../../src/standalone/signed-post.js';
import { configProblems, GOOD_ENV } from './support/config-problems.js';

const OLD = `whsec_${randomBytes(24).toString('base64')}`;
const NEW = `whsec_${randomBytes(24).toString('base64')}`;

/** A backend that keeps what it was sent. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const backend = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ headers: req.headers, body });
    res.writeHead(204).end();
  });
});
afterAll(() => new Promise((resolve) => backend.close(resolve)));

describe('PAYIN_WEBHOOK_SECRET during a rotation', () => {
  it('takes two secrets, space-separated, and still names a bad one', () => {
    expect(configProblems({ ...GOOD_ENV, PAYIN_WEBHOOK_SECRET: `${NEW} ${OLD}` })).toBe('');
    expect(configProblems({ ...GOOD_ENV, PAYIN_WEBHOOK_SECRET: `${NEW} whsec_short` })).toMatch(
      /PAYIN_WEBHOOK_SECRET must look like whsec_/,
    );
  });

  it('refuses three secrets or the same one twice, as the other rotated secrets do, with every other problem', () => {
    const third = `whsec_${randomBytes(24).toString('base64')}`;
    const three = configProblems({ ...GOOD_ENV, PAYIN_WEBHOOK_SECRET: `${NEW} ${OLD} ${third}`, PORT: 'x' });
    expect(three).toMatch(/PAYIN_WEBHOOK_SECRET holds 3 secrets: give one, or during a rotation two/);
    expect(three).toMatch(/PORT must be a port number/);
    expect(configProblems({ ...GOOD_ENV, PAYIN_WEBHOOK_SECRET: `${OLD} ${OLD}` })).toMatch(
      /PAYIN_WEBHOOK_SECRET holds the same secret twice/,
    );
  });

  it('signs each call so that a backend holding either secret verifies it', async () => {
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(backend.address() as { port: number }).port}/webhook`;
    const poster = createSignedPoster(`${NEW} ${OLD}`, { timeoutMs: 5_000, now: Date.now });
    const answer = await poster.post(url, 'msg_1_finished', { type: 'payment.updated', data: { id: '1' } });
    expect(answer.status).toBe(204);
    const [call] = received;
    const headers = call!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [OLD, NEW])
      expect(new Webhook(secret).verify(call!.body, headers)).toEqual({ type: 'payment.updated', data: { id: '1' } });
    const stranger = `whsec_${randomBytes(24).toString('base64')}`;
    expect(() => new Webhook(stranger).verify(call!.body, headers)).toThrow();
  });
});
