/**
 * A standalone server before the real sandbox over loopback, restarted with other settings the way an operator
 * restarts it (a rotated secret): `start(settings)` closes the running server first; the sandbox and its payments
 * stay. Its webhooks go to a closed port and its store is in memory unless the settings say otherwise.
 */
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { serve } from '../../../src/server/serve.js';
import { readStandaloneConfig, startStandalone, type StandaloneServer } from '../../../src/standalone/index.js';
import { GOOD_ENV } from './config-problems.js';
import { sandboxMerchant } from './sandbox-merchant.js';

export interface RestartedStandalone {
  sandbox: Sandbox;
  /** Every line the servers logged. */
  log: string[];
  start(settings: Record<string, string>): Promise<StandaloneServer>;
  /** A JSON POST to the running server's route `path` under /payin: its status and body. */
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export async function restartedStandalone(): Promise<RestartedStandalone> {
  const sandbox = createSandbox({ requisitesDelayMs: 0 });
  const service = await serve(sandbox);
  const log: string[] = [];
  let server: StandaloneServer | undefined;
  return {
    sandbox,
    log,
    async start(settings) {
      await server?.close();
      const config = readStandaloneConfig({
        ...sandboxMerchant(service.url),
        PAYIN_WEBHOOK_URL: 'http://127.0.0.1:9/webhook',
        PAYIN_WEBHOOK_SECRET: GOOD_ENV.PAYIN_WEBHOOK_SECRET!,
        PAYIN_STORE_URL: 'memory:',
        PORT: '0',
        ...settings,
      });
      server = await startStandalone(config, { log: (line) => log.push(line), reconcileEveryMs: 0, storeCheckEveryMs: 0 });
      return server;
    },
    async post(path, body) {
      const answer = await fetch(`${server!.url}/payin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: answer.status, body: await answer.json() };
    },
    async close() {
      await server?.close();
      sandbox.close();
      await service.close();
    },
  };
}
