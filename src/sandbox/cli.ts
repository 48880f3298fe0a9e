#!/usr/bin/env node
/**
 * `payin-checkout sandbox`: runs the sandbox on node:http so that a shop can point its proxy at a local payment
 * service. It prints where it listens and the credentials to configure (the public demo ones in full; a secret
 * given on the command line is never echoed back), and it shuts down cleanly on SIGINT and SIGTERM so that test
 * runners and process managers can stop it without leaving a socket open.
 */
import { parseArgs } from 'node:util';
import { serve } from '../server/serve.js';
import { createSandbox } from './create-sandbox.js';
import { DEMO_MERCHANT, SBP_SHAPES, type SandboxMerchant, type SbpShape } from './options.js';

const USAGE = `Usage: payin-checkout sandbox [options]
       payin-checkout proxy [--config payin.json]   (the standalone proxy server: see docs/standalone.md)

Options:
  --port <n>              port to listen on (default SANDBOX_PORT or 4010; 0 picks a free one)
  --host <address>        address to bind (default 127.0.0.1)
  --ttl-seconds <n>       seconds until a payment expires (default SANDBOX_TTL_SECONDS or 900)
  --sbp-shape <shape>     what sbp payments hand over: phone, c2b (a qr.nspk.ru link too) or both in turn
                          (default SANDBOX_SBP_SHAPE or phone)
  --public-url <url>      base URL for generated links, when the sandbox sits behind a proxy
  --merchant <id:token:secret>  accept this merchant instead of the demo one (repeatable)
  --help                  show this text`;

function fail(message: string): never {
  process.stderr.write(`payin-checkout: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/**
 * A setting's text with the name to refuse it by: the flag's when given, else the variable's. A bad SANDBOX_TTL_SECONDS
 * was refused as "--ttl-seconds must be ...", sending the reader to a flag nobody had typed.
 */
function setting(
  flag: string | undefined,
  flagName: string,
  env: NodeJS.ProcessEnv,
  variable: string,
  fallback: string,
): [name: string, text: string] {
  if (flag !== undefined) return [flagName, flag];
  const fromEnv = env[variable];
  return fromEnv === undefined ? [flagName, fallback] : [variable, fromEnv];
}

/** Said in the CLI's own terms: createSandbox's "sbpShape must be one of ..." named no flag or variable. */
function shape(name: string, text: string): SbpShape {
  if (!(SBP_SHAPES as readonly string[]).includes(text))
    fail(`${name} must be ${SBP_SHAPES.join(', ').replace(/, (?=[^,]*$)/, ' or ')}, got "${text}"`);
  return text as SbpShape;
}

function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) fail(`${name} must be a whole number from ${min} to ${max}, got "${text}"`);
  return n;
}

/**
 * Node's "listen EADDRINUSE: address already in use 127.0.0.1:4010" names no flag, and the likeliest owner of 4010
 * is this package's own: the demo (`npm start`) runs a sandbox there, and the README walks a reader from the demo
 * to this command.
 */
function listenProblem(error: unknown, host: string, port: number): unknown {
  if ((error as { code?: unknown })?.code !== 'EADDRINUSE') return error;
  return new Error(
    `--port (SANDBOX_PORT) ${port}: another program already listens on ${host}:${port}, perhaps the sandbox of a demo still running (npm start) or another sandbox: stop it, or give --port another port (0 picks a free one)`,
    { cause: error },
  );
}

function merchantFrom(spec: string): SandboxMerchant {
  const [id, token, ...rest] = spec.split(':');
  const secret = rest.join(':');
  if (!id || !token || !secret) fail(`--merchant takes id:token:secret, got "${spec}"`);
  return { id, token, secret };
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'ttl-seconds': { type: 'string' },
  'public-url': { type: 'string' },
  'sbp-shape': { type: 'string' },
  merchant: { type: 'string', multiple: true },
  help: { type: 'boolean' },
} as const;

function parseCli(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return fail((error as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'proxy') {
    // The standalone proxy server lives in its own module; the sandbox never imports the proxy.
    const { runProxyCommand } = await import('../standalone/proxy-command.js');
    return runProxyCommand(argv.slice(1));
  }
  const parsed = parseCli(argv);
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length !== 1 || positionals[0] !== 'sandbox') {
    fail(`unknown command${positionals.length ? ` "${positionals.join(' ')}"` : ''}: the commands are "sandbox" and "proxy"`);
  }

  const env = process.env;
  const port = integer(...setting(values.port, '--port', env, 'SANDBOX_PORT', '4010'), 0, 65535);
  const ttlSeconds = integer(...setting(values['ttl-seconds'], '--ttl-seconds', env, 'SANDBOX_TTL_SECONDS', '900'), 1, 86_400 * 30);
  const sbpShape = shape(...setting(values['sbp-shape'], '--sbp-shape', env, 'SANDBOX_SBP_SHAPE', 'phone'));
  const host = values.host ?? '127.0.0.1';
  const merchants = (values.merchant ?? []).map(merchantFrom);
  const sandbox = (() => {
    try {
      return createSandbox({
        ttlSeconds,
        sbpShape,
        ...(merchants.length ? { merchants } : {}),
        ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
        onError: (error) => console.error('payin-checkout sandbox: unexpected error', error),
      });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  const server = await serve(sandbox, { port, host, onError: (error) => console.error(error) }).catch((error: unknown) => {
    sandbox.close();
    throw listenProblem(error, host, port);
  });
  const base = values['public-url']?.replace(/\/+$/, '') ?? server.url;

  const lines = [`payin-checkout sandbox listening on ${server.url}`, `  console:   ${base}/`, `  API:       ${base}/api/v2`];
  for (const m of sandbox.merchants) {
    const demo = m.id === DEMO_MERCHANT.id && m.token === DEMO_MERCHANT.token && m.secret === DEMO_MERCHANT.secret;
    lines.push(
      demo
        ? `  merchant:  ${m.id}  token: ${m.token}  secret: ${m.secret}  (public demo credentials)`
        : `  merchant:  ${m.id}  token and secret: as given on the command line`,
    );
  }
  lines.push(`  expiry:    ${ttlSeconds} s`, 'Press Ctrl+C to stop.');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write(`payin-checkout sandbox: ${signal}, stopping\n`);
    sandbox.close();
    void server.close().then(() => process.exit(0));
  };
  // Before the lines that say it is listening: whoever waits for them (a script, a test) may stop it at once, and a
  // signal that came before its handler would end the process by the default action instead of this clean stop.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`payin-checkout: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
