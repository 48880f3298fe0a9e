/**
 * The bank-logo route fed any answer a logo host could give (any status, Content-Type, Location and body,
 * real image signatures among them): the visitor gets either a 200 whose bytes are an image of the type it says,
 * or a 502, never a 500, never a hang, and a redirect is never followed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageTypeOf } from '../../src/proxy/infrastructure/logo-fetch.js';
import { ORIGIN, setup } from '../proxy/harness.js';
import { bounded, FUZZ_SEED, fuzzRuns } from './fuzz-settings.js';

const LIST = 'http://banks.test/list.json';
const SCHEMA = 'bank100000000111';

const signatures = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38],
  [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50],
  [0x3c, 0x73, 0x76, 0x67], // <svg
];

const logoAnswer = fc.record({
  status: fc.oneof(fc.constantFrom(200, 301, 302, 307, 308, 404, 500), fc.integer({ min: 200, max: 599 })),
  type: fc.oneof(fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'image/jpeg; charset=x', ''), fc.string()),
  location: fc.constantFrom(undefined, 'http://127.0.0.1:1/admin', '/elsewhere.png'),
  head: fc.oneof(fc.constantFrom(...signatures), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 16 })),
  rest: fc.uint8Array({ maxLength: 2048 }),
});

describe('the logo route fuzzed with any answer of the logo host', () => {
  it('answers an image of the type it says, or 502; it never follows a redirect', async () => {
    await fc.assert(
      fc.asyncProperty(logoAnswer, async ({ status, type, location, head, rest }) => {
        const asked: string[] = [];
        const t = setup({
          sbpBanksUrl: LIST,
          fetch: async (input) => {
            const url = String(input instanceof Request ? input.url : input);
            asked.push(url);
            if (url === LIST)
              return Response.json({ dictionary: [{ bankName: 'Bank', schema: SCHEMA, logoURL: 'http://banks.test/logo.png' }] });
            const headers = new Headers();
            if (type) headers.set('content-type', type);
            if (location) headers.set('location', location);
            const body = new Uint8Array([...head, ...rest]);
            return new Response(status === 204 || status === 205 || status === 304 ? null : body, { status, headers });
          },
        });
        const answer = await bounded(t.proxy(new Request(`${ORIGIN}/payin/sbp-banks/logos/${SCHEMA}.png`)), 2_000, 'the logo route');
        expect([200, 502]).toContain(answer.status);
        expect(asked.filter((url) => url !== LIST)).toEqual(['http://banks.test/logo.png']);
        if (answer.status === 200) {
          const bytes = new Uint8Array(await answer.arrayBuffer());
          expect(imageTypeOf(bytes)).toBe(answer.headers.get('content-type'));
          expect(status).toBe(200);
        }
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
  });
});
