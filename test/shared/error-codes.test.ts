import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isErrorCode, isRetryable } from '../../src/shared/error-codes.js';

describe('the error codes the proxy answers with', () => {
  it('are each known to the browser, which checks them without the table of statuses', () => {
    for (const code of Object.keys(ERROR_CODES)) expect(isErrorCode(code), code).toBe(true);
  });

  it('leave out anything else: another word, a part of a code, a code that is not a string', () => {
    for (const value of ['teapot', 'not_found_', 'internal\n', 'upstream', '', undefined, null, 404, ['internal'], { code: 'internal' }]) {
      expect(isErrorCode(value), String(value)).toBe(false);
    }
  });

  it('have a retryable 503 for a proxy whose own store is down, which the shopper may retry', () => {
    expect(ERROR_CODES.unavailable).toBe(503);
    expect(isRetryable('unavailable')).toBe(true);
    expect(isErrorCode('unavailable')).toBe(true);
  });
});
