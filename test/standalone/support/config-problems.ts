/** The standalone configuration tests' shared parts: a configuration that starts, and the problems one is refused with. */
import { expect } from 'vitest';
import { ConfigError, readStandaloneConfig } from '../../../src/standalone/index.js';

/** Every setting a standalone server needs, each good. */
export const GOOD_ENV: Record<string, string> = {
  PAYIN_BASE_URL: 'https://pay.example',
  PAYIN_MERCHANT_ID: 'm-1',
  PAYIN_TOKEN: 'token',
  PAYIN_SECRET: 'a-signing-secret',
  PAYIN_CALLBACK_URL: 'https://shop.example/payin/callback',
  PAYIN_WEBHOOK_URL: 'https://shop.example/payin-webhook',
  PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`,
  PAYIN_RESOLVE_URL: 'https://shop.example/payin-price',
};

/** The message a configuration is refused with ('' when it is taken); anything but a ConfigError fails the test. */
export function configProblems(env: Record<string, string>): string {
  try {
    readStandaloneConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  return '';
}
