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

  it('warns of a backend reached over plain http across a network: its prices can be changed on the way, its webhooks read', async () => {
    // Taken without a word: a pricing answer is not signed, so whoever sat between the two servers could make any
    // order cost 1.00, and read (and within the helpers' 5 minutes, replay) every webhook.
    const lines: string[] = [];
    const { PAYIN_ORDER_TOKEN_SECRET: _token, ...byUrl } = env({
      PAYIN_STORE_URL: 'memory:',
      PAYIN_RESOLVE_URL: 'http://shop.example/payin-price',
      PAYIN_WEBHOOK_URL: 'http://user:the-basic-password@203.0.113.9/payin-webhook',
    });
    const server = await startStandalone(readStandaloneConfig(byUrl), { log: (line) => lines.push(line), reconcileEveryMs: 0 });
    running.push(server);
    const log = lines.join('\n');
    expect(log).toMatch(/warning: PAYIN_RESOLVE_URL is plain http to shop\.example: .*change the prices/);
    expect(log).toMatch(/warning: PAYIN_WEBHOOK_URL is plain http to 203\.0\.113\.9: .*read every payment/);
    expect(log).not.toContain('the-basic-password');
  });

  it.each([
    'http://127.0.0.1:8000/payin-webhook',
    'http://localhost/payin-webhook',
    'http://[::1]:8000/payin-webhook',
    'http://10.0.0.7/payin-webhook',
    'http://shop:8000/payin-webhook',
    'https://shop.example/payin-webhook',
  ])('says nothing of %s: this machine, a private network, a container beside it, or https', async (url) => {
    const lines: string[] = [];
    const config = readStandaloneConfig(env({ PAYIN_STORE_URL: 'memory:', PAYIN_WEBHOOK_URL: url }));
    const server = await startStandalone(config, { log: (line) => lines.push(line), reconcileEveryMs: 0 });
    running.push(server);
    expect(lines.join('\n')).not.toMatch(/plain http/);
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
