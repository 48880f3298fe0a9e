/**
 * `payin-checkout proxy [--config payin.json]`: reads the configuration (the PAYIN_* variables, or a JSON file of
 * the same names, which wins), refuses to start half-configured naming every missing variable, serves, and shuts
 * down gracefully on SIGTERM and SIGINT.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, readStandaloneConfig } from './config.js';
import { startStandalone } from './standalone-server.js';

export async function runProxyCommand(argv: string[]): Promise<void> {
  let fromFile: Record<string, string> = {};
  const at = argv.indexOf('--config');
  if (at !== -1) {
    const path = argv[at + 1];
    if (!path) return exit('--config needs a file, such as --config payin.json');
    try {
      fromFile = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
    } catch (error) {
      return exit(`could not read ${path}: ${(error as Error).message}`);
    }
  }
  const config = (() => {
    try {
      return readStandaloneConfig({ ...process.env, ...fromFile });
    } catch (error) {
      if (error instanceof ConfigError) return exit(error.message);
      throw error;
    }
  })();
  const server = await startStandalone(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`payin-proxy: ${signal}: finishing requests in flight, then stopping`);
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function exit(message: string): never {
  process.stderr.write(`payin-checkout proxy: ${message}\n`);
  process.exit(2);
}
