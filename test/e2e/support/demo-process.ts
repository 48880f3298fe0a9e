/**
 * Runs the demo exactly as `npm start` does after its build (`node demo/server/start.js`), on free ports, and
 * reads the addresses it prints. Every wait is bounded; stop() ends the process it started and nothing else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

export interface DemoProcess {
  storeUrl: string;
  /** The payment service the demo talks to: its embedded sandbox, or PAYIN_BASE_URL when that is set. */
  sandboxUrl: string;
  /** Everything the demo printed so far (its log lines included). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The demo's process, started as `npm start` starts it after its build, on free ports unless `env` names them, with
 * none of this machine's PAYIN_* settings; `output()` is everything it printed so far.
 */
export function spawnDemo(env: Record<string, string> = {}): { child: ChildProcess; output(): string } {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYIN_')));
  const child = spawn(process.execPath, ['demo/server/start.js'], {
    cwd: REPO,
    env: { ...inherited, PORT: '0', SANDBOX_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return { child, output: () => output };
}

export async function startDemo(env: Record<string, string> = {}): Promise<DemoProcess> {
  const { child, output } = spawnDemo(env);

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the demo did not print "Ready." within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      const check = () => {
        if (!/^Ready\./m.test(output())) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the demo exited with ${code} before it was ready`));
      });
    });
  } catch (error) {
    await stopChild(child);
    throw new Error(`${(error as Error).message}\n--- demo output ---\n${output()}`);
  }

  const storeUrl = /^\s+Storefront\s+(http:\/\/\S+?)\/?$/m.exec(output())?.[1];
  const sandboxUrl = env.PAYIN_BASE_URL ?? /^\s+Sandbox console\s+(http:\/\/\S+?)\/?$/m.exec(output())?.[1];
  if (!storeUrl || !sandboxUrl) {
    await stopChild(child);
    throw new Error(`the demo did not print its storefront and sandbox addresses:\n${output()}`);
  }
  return { storeUrl, sandboxUrl, output, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
