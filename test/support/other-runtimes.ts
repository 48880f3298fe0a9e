/**
 * Bun and Deno from their npm packages, as the runtime tests start them, and a file of the node suite run again
 * under one of them: a nested vitest, given none of this vitest's own variables (it would take them as its own).
 * The packages' code must run unchanged there, so their own tests are what checks it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './compiled-cli.js';

const bin = (name: string) => join(root, 'node_modules/.bin', name);

export const OTHER_RUNTIMES = [
  { name: 'Bun', command: bin('bun'), args: ['--bun'] },
  { name: 'Deno', command: bin('deno'), args: ['run', '-A'] },
] as const;

export type OtherRuntime = (typeof OTHER_RUNTIMES)[number];

/** The environment of a child process, without vitest's own variables. */
export function childEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...extra };
}

/** Runs one test file (relative to the project) under `runtime`: its exit status and everything it printed. */
export function runTestFileOn(runtime: OtherRuntime, file: string, timeoutMs = 120_000): { status: number | null; output: string } {
  const run = spawnSync(runtime.command, [...runtime.args, join(root, 'node_modules/vitest/vitest.mjs'), 'run', file], {
    cwd: root,
    env: childEnv(),
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}
