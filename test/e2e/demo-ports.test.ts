/**
 * `npm start` where one of its ports is taken: a Vite dev server on 5173 (Vite's own default), or the sandbox the
 * README's first integration starts (`npx payin-checkout sandbox`, on 4010). The demo stops and names the
 * variable that moves it, PORT or SANDBOX_PORT, instead of Node's bare "listen EADDRINUSE", which says neither
 * which of its two servers could not listen nor what to change.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnDemo } from './support/demo-process.js';

let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

/** Runs the demo as `npm start` does after its build, and answers how it ended and what it said (bounded). */
function demoWith(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnDemo(env);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output() });
    });
  });
}

describe('npm start with a port that is taken', () => {
  it('names PORT when the storefront cannot listen', async () => {
    const { code, output } = await demoWith({ PORT: String(port) });
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`PORT \\(${port}\\).*set PORT`));
    expect(output).not.toMatch(/Ready\./);
  });

  it('names SANDBOX_PORT when the sandbox cannot listen, and the sandbox the reader may have started', async () => {
    const { code, output } = await demoWith({ SANDBOX_PORT: String(port) });
    expect(code).toBe(1);
    expect(output).toMatch(new RegExp(`SANDBOX_PORT \\(${port}\\).*npx payin-checkout sandbox.*set SANDBOX_PORT`));
    expect(output).not.toMatch(/Ready\./);
  });
});
