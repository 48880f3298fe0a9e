import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody, verifySignature } from '../../src/shared/hmac.js';
import { createBody } from './helpers.js';

// The CLI is compiled on its own into a private directory, so that this test needs no earlier `npm run build`
// and never races another suite over dist/. It is the same source and compiler that produce dist/sandbox/cli.js.
const root = resolve(import.meta.dirname, '../..');
let out = '';

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'payin-sandbox-cli-'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'), 'dir');
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--ignoreConfig',
      '--outDir',
      out,
      '--rootDir',
      join(root, 'src'),
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--lib',
      'es2022,dom,dom.iterable',
      '--types',
      'node',
      '--strict',
      '--skipLibCheck',
      join(root, 'src/sandbox/cli.ts'),
    ],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
  expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
}, 60_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [join(out, 'sandbox/cli.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const output = async (pattern: RegExp, ms = 10_000): Promise<RegExpMatchArray> => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const m = pattern.exec(stdout);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${pattern} in output within ${ms} ms:\n${stdout}\n${stderr}`);
  };
  return {
    child,
    exited,
    output,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);
}

describe('the sandbox CLI', () => {
  it('prints its URL and the demo credentials, answers a signed create over HTTP, and exits on SIGTERM', async () => {
    const cli = run(['sandbox', '--port', '0', '--ttl-seconds', '120']);
    const [, url] = await cli.output(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(cli.stdout).toContain('merchant:  demo-merchant  token: demo-token  secret: demo-secret');
    expect(cli.stdout).toContain(`console:   ${url}/`);
    expect(cli.stdout).toContain('expiry:    120 s');

    const body = JSON.stringify(createBody({ orderId: 'CLI-1' }));
    const response = await fetch(`${url}/api/v2/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer demo-token', signature: await signBody('demo-secret', body) },
      body,
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(await verifySignature('demo-secret', text, response.headers.get('signature'))).toBe(true);
    const answer = JSON.parse(text);
    expect(answer.url).toBe(`${url}/pay/${answer.result.id}`);
    const list = await (await fetch(`${url}/sandbox/payments`)).json();
    expect(list[0]).toMatchObject({ id: answer.result.id, orderId: 'CLI-1' });
    expect(Date.parse(list[0].expired_at) - Date.parse(list[0].created_at)).toBe(120_000);

    cli.child.kill('SIGTERM');
    expect(await within(cli.exited, 5000)).toBe(0);
    await expect(fetch(`${url}/sandbox/payments`)).rejects.toThrow();
  });

  it('takes its port from SANDBOX_PORT, other merchants from --merchant (never echoing their secret), and stops on SIGINT', async () => {
    const probe = run(['sandbox', '--port', '0']);
    const [, port] = await probe.output(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
    probe.child.kill('SIGTERM');
    await within(probe.exited, 5000);

    const cli = run(['sandbox', '--merchant', 'acme:acme-token:acme-secret-1'], { SANDBOX_PORT: port! });
    await cli.output(new RegExp(`listening on http://127\\.0\\.0\\.1:${port}`));
    expect(cli.stdout).toContain('merchant:  acme');
    expect(cli.stdout).not.toContain('acme-secret-1');
    expect(cli.stdout).not.toContain('demo-secret');
    cli.child.kill('SIGINT');
    expect(await within(cli.exited, 5000)).toBe(0);
  });

  it('names --port and SANDBOX_PORT when its port is taken, as by the sandbox of a demo still running', async () => {
    const first = run(['sandbox', '--port', '0']);
    const [, port] = await first.output(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
    const second = run(['sandbox'], { SANDBOX_PORT: port! });
    expect(await within(second.exited, 5000)).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(`--port \\(SANDBOX_PORT\\) ${port}: another program already listens on 127\\.0\\.0\\.1:${port}`),
    );
    expect(second.stderr).toMatch(/npm start.*--port/);
    first.child.kill('SIGTERM');
    await within(first.exited, 5000);
  });

  it('stops cleanly on a SIGINT sent the moment it says it is listening', async () => {
    // The handlers must be in place before the first line: a signal that came earlier ended the process by the
    // default action (exit by signal, no clean stop), in about half of such tries.
    for (let i = 0; i < 10; i++) {
      const cli = run(['sandbox', '--port', '0']);
      cli.child.stdout!.once('data', () => cli.child.kill('SIGINT'));
      expect(await within(cli.exited, 5000), `try ${i + 1}`).toBe(0);
    }
  });

  it('prints what docs/sandbox.md shows it printing, line for line', async () => {
    const page = readFileSync(join(root, 'docs/sandbox.md'), 'utf8');
    const shown = /It prints its address[\s\S]*?```\n([\s\S]*?)```/.exec(page)?.[1]?.trimEnd().split('\n');
    expect(shown?.length).toBeGreaterThan(1);
    const cli = run(['sandbox', '--port', '0']);
    const [, port] = await cli.output(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
    await cli.output(/Press Ctrl\+C/);
    expect(cli.stdout.trimEnd().split('\n')).toEqual(shown!.map((line) => line.replaceAll(':4010', `:${port}`)));
    cli.child.kill('SIGTERM');
    await within(cli.exited, 5000);
  });

  it('names the variable a bad value came from, and the flag', async () => {
    for (const [args, env, said] of [
      [['sandbox'], { SANDBOX_TTL_SECONDS: 'abc' }, 'SANDBOX_TTL_SECONDS must be a whole number from 1 to 2592000, got "abc"'],
      [['sandbox'], { SANDBOX_PORT: '99999' }, 'SANDBOX_PORT must be a whole number from 0 to 65535, got "99999"'],
      [['sandbox'], { SANDBOX_SBP_SHAPE: 'qr' }, 'SANDBOX_SBP_SHAPE must be phone, c2b or both, got "qr"'],
      [['sandbox', '--sbp-shape', 'qr'], {}, '--sbp-shape must be phone, c2b or both, got "qr"'],
      [['sandbox', '--ttl-seconds', '0'], { SANDBOX_TTL_SECONDS: '60' }, '--ttl-seconds must be a whole number from 1 to 2592000, got "0"'],
    ] as const) {
      const cli = run([...args], env);
      expect(await within(cli.exited, 5000), said).toBe(2);
      expect(cli.stderr).toContain(`payin-checkout: ${said}`);
    }
  });

  it('refuses bad flags with the usage and exit code 2', async () => {
    for (const args of [['sandbox', '--port', 'abc'], ['sandbox', '--nope'], ['serve'], ['sandbox', '--merchant', 'only-id']]) {
      const cli = run(args);
      expect(await within(cli.exited, 5000), args.join(' ')).toBe(2);
      expect(cli.stderr).toContain('Usage: payin-checkout sandbox');
    }
    // An unknown command is told the two there are: the sandbox and the standalone proxy.
    const unknown = run(['serve']);
    expect(await within(unknown.exited, 5000)).toBe(2);
    expect(unknown.stderr).toMatch(/payin-checkout: unknown command "serve": the commands are "sandbox" and "proxy"/);
    const help = run(['--help']);
    expect(await within(help.exited, 5000)).toBe(0);
    expect(help.stdout).toContain('--ttl-seconds');
  });
});
