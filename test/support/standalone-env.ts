/**
 * The variables of a standalone server that never reaches a real service or shop (everything points at the
 * discard port of loopback), for tests of what it does on its own: opening its store, its health routes.
 */
export function offlineStandaloneEnv(storeUrl: string): Record<string, string> {
  return {
    PAYIN_BASE_URL: 'http://127.0.0.1:9',
    PAYIN_MERCHANT_ID: 'm-1',
    PAYIN_TOKEN: 'token',
    PAYIN_SECRET: 'a-signing-secret',
    PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/payin/callback',
    PAYIN_WEBHOOK_URL: 'http://127.0.0.1:9/webhook',
    PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`,
    PAYIN_ORDER_TOKEN_SECRET: 'an-order-token-key-of-length',
    PORT: '0',
    HOST: '127.0.0.1',
    PAYIN_STORE_URL: storeUrl,
  };
}
