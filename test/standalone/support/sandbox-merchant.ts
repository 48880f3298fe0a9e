/** The settings that point a standalone server at a sandbox on loopback, as the sandbox's demo merchant. */
import { DEMO_MERCHANT } from '../../../src/sandbox/index.js';

/**
 * PAYIN_BASE_URL, the merchant's credentials and PAYIN_CALLBACK_URL for the sandbox at `serviceUrl`; the callbacks
 * go to a closed port unless `callbackUrl` names the server's own route.
 */
export function sandboxMerchant(serviceUrl: string, callbackUrl = 'http://127.0.0.1:9/payin/callback'): Record<string, string> {
  return {
    PAYIN_BASE_URL: serviceUrl,
    PAYIN_MERCHANT_ID: DEMO_MERCHANT.id,
    PAYIN_TOKEN: DEMO_MERCHANT.token,
    PAYIN_SECRET: DEMO_MERCHANT.secret,
    PAYIN_CALLBACK_URL: callbackUrl,
  };
}
