// @ts-check
/**
 * The demo's configuration, from the same environment variables as the proxy and the sandbox (see the README):
 * with PAYIN_BASE_URL set it talks to that payment service with the PAYIN_* credentials and starts no sandbox;
 * without it, it runs the embedded sandbox with the public demo merchant. Mistakes are reported all at once,
 * naming the variable, before anything listens.
 */

/**
 * @typedef {{ baseUrl: string, merchantId: string, token: string, secret: string }} Provider
 * @typedef {{ kind: 'sandbox', ttlSeconds: number | undefined, sbpShape: 'phone' | 'c2b' | 'both', port: number }} SandboxMode
 * @typedef {{ kind: 'service', provider: Provider, callbackUrl: string }} ServiceMode
 * @typedef {{ port: number, host: string, mode: SandboxMode | ServiceMode }} DemoConfig
 */

/**
 * @param {Record<string, string | undefined>} env
 * @returns {DemoConfig}
 */
export function readConfig(env) {
  /** @type {string[]} */
  const problems = [];
  const port = readPort(env, 'PORT', 5173, problems);
  const sandboxPort = readPort(env, 'SANDBOX_PORT', 4010, problems);
  // Loopback only: the demo is for this machine. A shop's own server decides its own host.
  const host = '127.0.0.1';
  /** @type {SandboxMode | ServiceMode} */
  let mode;
  const baseUrl = env.PAYIN_BASE_URL?.trim();
  if (baseUrl) {
    /** @param {string} name */
    const need = (name) => {
      const value = env[name]?.trim();
      if (!value) problems.push(`${name} is not set (it is needed together with PAYIN_BASE_URL)`);
      return value ?? '';
    };
    mode = {
      kind: 'service',
      provider: { baseUrl, merchantId: need('PAYIN_MERCHANT_ID'), token: need('PAYIN_TOKEN'), secret: need('PAYIN_SECRET') },
      callbackUrl: need('PAYIN_CALLBACK_URL'),
    };
  } else {
    const ttl = env.SANDBOX_TTL_SECONDS?.trim();
    const ttlSeconds = ttl ? Number(ttl) : undefined;
    if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds >= 1)) {
      problems.push(`SANDBOX_TTL_SECONDS must be a whole number of seconds >= 1, got "${ttl}"`);
    }
    // What the sandbox's SBP payments hand over: a phone number, a C2B link (qr.nspk.ru) or, by default, each in turn.
    const sbpShape = env.SANDBOX_SBP_SHAPE?.trim() || 'both';
    if (!['phone', 'c2b', 'both'].includes(sbpShape)) problems.push(`SANDBOX_SBP_SHAPE must be phone, c2b or both, got "${sbpShape}"`);
    mode = { kind: 'sandbox', ttlSeconds, sbpShape: /** @type {'phone' | 'c2b' | 'both'} */ (sbpShape), port: sandboxPort };
  }
  if (problems.length) throw new Error(`The demo cannot start:\n  - ${problems.join('\n  - ')}`);
  return { port, host, mode };
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 * @param {string[]} problems
 */
function readPort(env, name, fallback, problems) {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    problems.push(`${name} must be a port number (0 picks a free one), got "${text}"`);
    return fallback;
  }
  return port;
}
