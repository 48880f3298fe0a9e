/**
 * `payin-checkout proxy [--config payin.json]`: reads the configuration (the PAYIN_* variables, or a JSON file of
 * the same names, which wins), refuses to start half-configured naming every missing variable, serves, and shuts
 * down gracefully on SIGTERM and SIGINT.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, readStandaloneConfig } from './config.js';
import { isSetting, notASetting } from './settings.js';
import { startStandalone } from './standalone-server.js';
import { proxyUsage } from './usage.js';

export async function runProxyCommand(argv: string[]): Promise<void> {
  let fromFile: Record<string, string> = {};
  try {
    const { configPath, help } = proxyArgs(argv);
    if (help) return void process.stdout.write(`${proxyUsage()}\n`);
    if (configPath !== undefined) fromFile = readConfigFile(configPath);
  } catch (error) {
    return exit((error as Error).message);
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
    if (stopping) {
      // An operator who asks twice does not want to wait out the grace period: the ledger keeps what was in
      // flight (an announcement not yet taken is sent again after a restart).
      console.log(`payin-proxy: ${signal} again: stopping now, without waiting for what is in flight`);
      process.exit(1);
    }
    stopping = true;
    console.log(`payin-proxy: ${signal}: finishing requests in flight, then stopping`);
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * The command's arguments: only `--config <file>` (or `--config=<file>`), and `--help`. Anything else is refused,
 * naming it, so that a `--port 9000` meant for this server (the sandbox takes one) does not leave it listening on
 * another port.
 */
export function proxyArgs(argv: readonly string[]): { configPath?: string; help?: true } {
  const settings = 'every other setting is a variable (PORT, HOST, PAYIN_*: see docs/standalone.md) or a key of the --config file';
  let configPath: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--config' || arg.startsWith('--config=')) {
      const path = arg === '--config' ? argv[++i] : arg.slice('--config='.length);
      if (!path || path.startsWith('--')) throw new Error('--config needs a file, such as --config payin.json');
      configPath = path;
    } else {
      throw new Error(`unknown argument "${arg}": the proxy takes only --config <file>; ${settings}`);
    }
  }
  return configPath === undefined ? {} : { configPath };
}

/**
 * The settings of a --config file: a JSON object of the variables' names. A key that is no setting is refused,
 * naming the one it most likely meant (settings.ts). A number or a boolean is taken as its
 * text (`"PORT": 8787` is as natural as `"PORT": "8787"`); anything else is named by its key, never echoed, and
 * a file that is not valid JSON is said to be so without the parser's quote of its content (it may hold a secret).
 */
export function readConfigFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`could not read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`could not read ${path}: it is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${path} must be a JSON object of settings, such as {"PORT": 8787, "PAYIN_BASE_URL": "https://..."}`);
  }
  const strangers = Object.keys(parsed).filter((name) => !isSetting(name));
  if (strangers.length) {
    const named = strangers.map((name) => notASetting(name, true)).join('; ');
    throw new Error(`${path}: ${named}. Its keys are the variables of docs/standalone.md, such as PORT or PAYIN_BASE_URL`);
  }
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') settings[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') settings[name] = String(value);
    else throw new Error(`${path}: ${name} must be a string (or a number)`);
  }
  return settings;
}

function exit(message: string): never {
  process.stderr.write(`payin-checkout proxy: ${message}\n`);
  process.exit(2);
}
