/**
 * PAYIN_WEBHOOK_SECRET as a shop writes it: the proxy signs with the bytes its `whsec_` base64 stands for, and
 * the shop's helper (examples/standalone/payin.py, .php, .rb) decodes the same text. Python's base64 refuses
 * text whose length is not a multiple of 4 or that is not padded, where Node reads something from it anyway:
 * such a secret would start the server and then fail every webhook in the Python shop. The configuration refuses
 * it, and its message, like the docs, says how to make a good one.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configProblems, GOOD_ENV } from './support/config-problems.js';

/** The problems the configuration names with `secret` as the webhook secret ('' when it takes it). */
const problemsWith = (secret: string) => configProblems({ ...GOOD_ENV, PAYIN_WEBHOOK_SECRET: secret });

describe('PAYIN_WEBHOOK_SECRET', () => {
  it('takes what `openssl rand -base64 24` makes, and padded base64 of other lengths', () => {
    expect(problemsWith(`whsec_${randomBytes(24).toString('base64')}`)).toBe('');
    expect(problemsWith(`whsec_${randomBytes(16).toString('base64')}`)).toBe('');
    expect(problemsWith(`whsec_${randomBytes(32).toString('base64')}`)).toBe('');
  });

  it.each([
    ['21 characters, one past a multiple of 4', 'whsec_ThisIsMyWebhookKey123'],
    ['22 characters without their padding', 'whsec_ThisIsMyWebhookKey1234'],
    ['padding in the middle', 'whsec_ThisIsMy=WebhookKey12'],
    ['fewer than 12 bytes', `whsec_${randomBytes(9).toString('base64')}`],
  ])('refuses base64 a helper cannot read: %s', (_, secret) => {
    expect(problemsWith(secret)).toMatch(/PAYIN_WEBHOOK_SECRET must look like whsec_.*openssl rand -base64 24/);
  });

  it('is explained in docs/standalone.md with the command that makes one', () => {
    const page = readFileSync(new URL('../../docs/standalone.md', import.meta.url), 'utf8');
    expect(page).toContain('whsec_$(openssl rand -base64 24)');
  });
});
