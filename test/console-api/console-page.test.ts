/**
 * The console's page for someone its shop does not let in: with the shop's own sign-in (authorizeOperator, no
 * token form), an operator whose shop session has ended opens the console, or has the page reload itself after a
 * 401, and must read what to do in a page, not a JSON error in the browser's raw view.
 */
import { describe, expect, it } from 'vitest';
import { consoleSetup } from './console-harness.js';

describe("the console's page without the shop's sign-in", () => {
  it('is a page that says to sign in to the shop, in English and Russian, telling nothing of the payments', async () => {
    const world = consoleSetup();
    const answer = await world.request('', { as: 'stranger', headers: { accept: 'text/html' } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await answer.text();
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('Sign in to the shop as one of its operators, then open this page again.');
    expect(page).toContain('lang="ru"');
    expect(page).not.toContain('<payin-console');
  });

  it('still answers the API in JSON, alike for every path', async () => {
    const world = consoleSetup();
    const answer = await world.request('/api/payments', { as: 'stranger' });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: { code: 'unauthorized', message: 'sign in to the console' } });
  });
});
