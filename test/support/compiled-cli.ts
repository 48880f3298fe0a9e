/**
 * The package's CLI compiled on its own into a private folder (so that no earlier build is needed and dist/ is
 * never raced), for tests that run `payin-checkout proxy` as separate processes: on another runtime, or killed
 * with SIGKILL. Its node_modules links to the project's packages, leaving out the ones named in `without`, so that
 * a test can show that something runs with a package not installed (better-sqlite3, the native module).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const root = resolve(import.meta.dirname, '../..');

export interface CompiledCli {
  /** The folder that holds the build, its node_modules, and room for the tests' files. */
  dir: string;
  /** The compiled src/ (its node_modules beside it). */
  build: string;
  /** sandbox/cli.js in the build: `<runtime> <cli> proxy`. */
  cli: string;
  remove(): void;
}

export function compileCli(options: { without?: string[] } = {}): CompiledCli {
  const dir = mkdtempSync(join(tmpdir(), 'payin-cli-'));
  const out = join(dir, 'build');
  const tsc = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '--ignoreConfig',
      ...['--outDir', out, '--rootDir', join(root, 'src'), '--module', 'nodenext', '--moduleResolution', 'nodenext'],
      ...['--target', 'es2022', '--lib', 'es2022,dom,dom.iterable', '--types', 'node', '--strict', '--skipLibCheck'],
      join(root, 'src/sandbox/cli.ts'),
      // Imported only when PAYIN_STORE_URL names them, so the CLI's own imports do not pull them in.
      join(root, 'src/sqlite/index.ts'),
      join(root, 'src/postgres/index.ts'),
      join(root, 'src/redis/index.ts'),
      join(root, 'src/standalone/index.ts'),
    ],
    { cwd: root, encoding: 'utf8', timeout: 180_000 },
  );
  if (tsc.status !== 0) throw new Error(`compiling the CLI failed:\n${tsc.stdout}${tsc.stderr}`);
  writeFileSync(join(out, 'package.json'), '{"type":"module"}');
  const modules = join(out, 'node_modules');
  mkdirSync(modules);
  const left = new Set(options.without ?? []);
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (!left.has(name) && name !== '.bin') symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
  }
  return { dir, build: out, cli: join(out, 'sandbox/cli.js'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The CLI compiled once for the whole test file: before its tests (compiling takes a minute or more on a busy
 * machine, hence the hook's time) and removed after them. What it returns stands for the build once it is made.
 */
export function useCompiledCli(options: { without?: string[] } = {}): Omit<CompiledCli, 'remove'> {
  let made: CompiledCli | undefined;
  beforeAll(() => {
    made = compileCli(options);
  }, 240_000);
  afterAll(() => made?.remove());
  const ready = (): CompiledCli => {
    if (!made) throw new Error('the CLI is not compiled yet: useCompiledCli() is read before its beforeAll ran');
    return made;
  };
  return {
    get dir() {
      return ready().dir;
    },
    get build() {
      return ready().build;
    },
    get cli() {
      return ready().cli;
    },
  };
}
