/**
 * A Cloudflare worker as a shop deploys one, for the tests that run the proxy in workerd: bundled with esbuild the
 * way wrangler bundles it (the workerd, worker and browser export conditions, then a package's module or main field;
 * CommonJS dependencies such as ipaddr.js are bundled as they are for any worker), then run by workerd through
 * miniflare on 127.0.0.1, with the compatibility date of the example's wrangler configuration. What the worker
 * writes to stdout and stderr is kept, for the tests' messages.
 */
import { type BuildOptions, build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The worker's deployment as the example's wrangler configuration gives it. */
export const WRANGLER = JSON.parse(readFileSync(new URL('../../../examples/cloudflare-worker.wrangler.json', import.meta.url), 'utf8')) as {
  compatibility_date: string;
  compatibility_flags?: string[];
};

export interface RunningWorker {
  output(): string;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  port: number;
  /** The worker's environment variables. */
  bindings: Record<string, string>;
  /** Its compatibility flags: the wrangler configuration's unless given. */
  flags?: string[];
}

/** Bundles `source` (an entry point or stdin, and any modules left to workerd) and runs it until `stop()`. */
export async function runWorker(
  source: Pick<BuildOptions, 'entryPoints' | 'stdin' | 'external'>,
  { port, bindings, flags = WRANGLER.compatibility_flags ?? [] }: WorkerOptions,
): Promise<RunningWorker> {
  const bundle = await build({
    ...source,
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser', 'import'],
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'error',
  });
  let output = '';
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]!.text,
    host: '127.0.0.1',
    port,
    compatibilityDate: WRANGLER.compatibility_date,
    compatibilityFlags: flags,
    bindings,
    handleRuntimeStdio(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream) {
      stdout.on('data', (chunk: Buffer) => (output += chunk));
      stderr.on('data', (chunk: Buffer) => (output += chunk));
    },
  });
  try {
    await mf.ready;
  } catch (error) {
    await mf.dispose();
    throw error;
  }
  return { output: () => output, stop: () => mf.dispose() };
}
