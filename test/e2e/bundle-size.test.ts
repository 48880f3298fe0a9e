/**
 * The script-tag build is what a shop's shoppers download before they can pay, so its size is a feature: it aims
 * at 20 kB gzip and this check fails the test command once it passes 24 kB. It reads the file the build just
 * wrote; run `npm run build` first (the test command does).
 */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const BUNDLE = new URL('../../dist/payin-checkout.iife.js', import.meta.url);
const BUDGET_GZIP_BYTES = 24_000;

function bundle(): string {
  if (!existsSync(BUNDLE)) throw new Error('dist/payin-checkout.iife.js is missing: run `npm run build` first.');
  return readFileSync(BUNDLE, 'utf8');
}

describe('the script-tag build', () => {
  it('stays within 24 kB gzip', () => {
    const gzip = gzipSync(bundle(), { level: 9 }).byteLength;
    console.log(`dist/payin-checkout.iife.js: ${(gzip / 1000).toFixed(1)} kB gzip (budget ${BUDGET_GZIP_BYTES / 1000} kB)`);
    expect(gzip).toBeGreaterThan(1000);
    expect(gzip).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  });

  it('is one self-contained classic script with nothing left to resolve', () => {
    const code = bundle();
    expect(code).not.toMatch(/^\s*import[\s{*]/m);
    expect(code).not.toMatch(/^\s*export[\s{*]/m);
    expect(code).not.toMatch(/\brequire\(\s*["']/);
    expect(code).not.toMatch(/["']node:/);
    expect(code).toContain('payin-checkout');
  });

  it('carries no source map reference and nothing secret', () => {
    const code = bundle();
    expect(code).not.toContain('sourceMappingURL');
    for (const secret of ['demo-secret', 'PAYIN_SECRET', 'PAYIN_TOKEN', 'Signature']) expect(code).not.toContain(secret);
  });
});
