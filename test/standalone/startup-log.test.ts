/**
 * The standalone server's startup log as an operator reads it: the addresses it prints are the ones it serves,
 * whatever form PAYIN_BASE_PATH was written in (no leading slash, a trailing one), and no secret is in it.
 */
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readStandaloneConfig, type StandaloneServer, startStandalone } from '../../src/standalone/index.js';

const running: StandaloneServer[] = [];
afterAll(async () => {
  for (const server of running) await server.close();
});

const env = (extra: Record<string, string>) => ({
  PAYIN_BASE_URL: 'http://127.0.0.1:9',
  PAYIN_MERCHANT_ID: 'm-1',
  PAYIN_TOKEN: 'the-service-token',
  PAYIN_SECRET: 'the-signing-secret',
  PAYIN_CALLBACK_URL: 'http://127.0.0.1:9/pay/callback',
  PAYIN_WEBHOOK_URL: 'http://127.0.0.1:9/webhook',
  PAYIN_WEBHOOK_SECRET: `whsec_${Buffer.from('sixteen bytes or more').toString('base64')}`,
  PAYIN_ORDER_TOKEN_SECRET: 'the-order-token-key-0123',
  PAYIN_CONSOLE_TOKEN: 'the-console-token-0123456789',
  PAYIN_STORE_URL: 'postgres://payin:the-db-password@127.0.0.1:9/shop',
  PORT: '0',
  ...extra,
});

describe('the startup log', () => {
  it.each(['pay', '/pay/', 'pay/'])('prints the endpoint and console it serves when PAYIN_BASE_PATH is "%s"', async (basePath) => {
    const lines: string[] = [];
    const config = readStandaloneConfig(env({ PAYIN_BASE_PATH: basePath, PAYIN_STORE_URL: 'memory:' }));
    const server = await startStandalone(config, { log: (line) => lines.push(line), reconcileEveryMs: 0 });
    running.push(server);
    const log = lines.join('\n');
    expect(log).toContain(`proxy:   ${server.url}/pay (the element's endpoint)`);
    expect(log).toContain(`console: ${server.url}/pay/console `);
    expect((await fetch(`${server.url}/pay/console`)).status).toBe(401);
  });

  it('warns of a PAYIN_ variable that is no setting, naming the one meant: the server would otherwise run without it', async () => {
    const lines: string[] = [];
    const config = readStandaloneConfig(
      env({
        PAYIN_STORE_URL: 'memory:',
        PAYIN_ALLOWED_ORIGIN: 'https://shop.example',
        PAYIN_CONSOLE_TOKN: 'a-token-meant-for-the-console',
      }),
    );
    const server = await startStandalone(config, { log: (line) => lines.push(line), reconcileEveryMs: 0 });
    running.push(server);
    const log = lines.join('\n');
    expect(log).toMatch(
      /warning: PAYIN_ALLOWED_ORIGIN is not a setting of this server \(did you mean PAYIN_ALLOWED_ORIGINS\?\); it is ignored/,
    );
    expect(log).toMatch(
      /warning: PAYIN_CONSOLE_TOKN is not a setting of this server \(did you mean PAYIN_CONSOLE_TOKEN\?\); it is ignored/,
    );
    expect(log).not.toContain('a-token-meant-for-the-console');
    expect(lines.filter((line) => line.includes('is not a setting'))).toHaveLength(2);
  });

  it('never prints a secret or the database password', async () => {
    const lines: string[] = [];
    const server = await startStandalone(readStandaloneConfig(env({})), { log: (line) => lines.push(line), reconcileEveryMs: 0 });
    running.push(server);
    const log = lines.join('\n');
    for (const secret of [
      'the-service-token',
      'the-signing-secret',
      'the-order-token-key-0123',
      'the-console-token',
      'the-db-password',
      'whsec_',
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('says where a relative SQLite file is, since the working directory of a service is rarely where one looks', async () => {
    const lines: string[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'payin-startup-log-'));
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const config = readStandaloneConfig(env({ PAYIN_STORE_URL: 'sqlite:./ledger/payin.db' }));
      const server = await startStandalone(config, { log: (line) => lines.push(line), reconcileEveryMs: 0 });
      running.push(server);
    } finally {
      process.chdir(cwd);
    }
    expect(lines.join('\n')).toContain(`store:   sqlite:./ledger/payin.db (${join(realpathSync(dir), 'ledger', 'payin.db')})`);
  });

  it('warns when PAYIN_CALLBACK_URL does not end in the callback path this server answers', async () => {
    const start = async (callbackUrl: string) => {
      const lines: string[] = [];
      const config = readStandaloneConfig(env({ PAYIN_CALLBACK_URL: callbackUrl, PAYIN_STORE_URL: 'memory:' }));
      running.push(await startStandalone(config, { log: (line) => lines.push(line), reconcileEveryMs: 0 }));
      return lines.join('\n');
    };
    expect(await start('https://shop.example/callback')).toMatch(/warning: PAYIN_CALLBACK_URL ends in \/callback, not \/payin\/callback/);
    expect(await start('https://shop.example/payin/callback')).not.toMatch(/PAYIN_CALLBACK_URL/);
    expect(await start('https://shop.example/shop-a/payin/callback?x=1')).not.toMatch(/PAYIN_CALLBACK_URL/);
  });
});
