/**
 * `payin-checkout proxy --config payin.json` as an operator writes the file: a port is a JSON number as often as a
 * string, and a file that is not an object of settings is named as such, never a crash inside the reader
 * ("env[name]?.trim is not a function").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { proxyArgs, readConfigFile } from '../../src/standalone/proxy-command.js';
import { SETTINGS } from '../../src/standalone/settings.js';
import { proxyUsage } from '../../src/standalone/usage.js';

const dir = mkdtempSync(join(tmpdir(), 'payin-config-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(text: string): string {
  const path = join(dir, `payin-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, text);
  return path;
}

describe('the --config file', () => {
  it('takes numbers and booleans as the text of the setting', () => {
    expect(readConfigFile(fileOf('{"PORT": 8805, "PAYIN_BASE_URL": "https://pay.example", "HOST": "0.0.0.0"}'))).toEqual({
      PORT: '8805',
      PAYIN_BASE_URL: 'https://pay.example',
      HOST: '0.0.0.0',
    });
  });

  it.each([
    ['port', /"port" is not a setting.*did you mean PORT\?/],
    ['PAYIN_ALLOWED_ORIGIN', /"PAYIN_ALLOWED_ORIGIN" is not a setting.*did you mean PAYIN_ALLOWED_ORIGINS\?/],
    ['PAYIN_WEBHOOKS_URL', /did you mean PAYIN_WEBHOOK_URL\?/],
    ['LISTEN', /"LISTEN" is not a setting of this server/],
  ])('refuses a key that is no setting (%s), naming it, instead of starting without it', (key, message) => {
    expect(() => readConfigFile(fileOf(JSON.stringify({ PAYIN_BASE_URL: 'https://pay.example', [key]: 'x' })))).toThrow(message);
  });

  it.each([
    ['an array', '[1, 2]', /must be a JSON object of settings/],
    ['null', 'null', /must be a JSON object of settings/],
    ['a nested object', '{"PAYIN_TOKEN": {"value": "x"}}', /PAYIN_TOKEN must be a string/],
    ['broken JSON', '{"PORT": ', /could not read/],
  ])('names what is wrong with %s', (_what, text, message) => {
    expect(() => readConfigFile(fileOf(text))).toThrow(message);
  });

  it('is described on docs/standalone.md with a file its reader takes', () => {
    const page = readFileSync(new URL('../../docs/standalone.md', import.meta.url), 'utf8');
    const sample = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    expect(sample, 'a JSON sample of a --config file on docs/standalone.md').toBeDefined();
    const settings = readConfigFile(fileOf(sample!));
    for (const name of ['PAYIN_BASE_URL', 'PAYIN_CALLBACK_URL', 'PORT']) expect(settings).toHaveProperty(name);
  });

  it('never echoes a value', () => {
    expect(() => readConfigFile(fileOf('{"PAYIN_SECRET": ["hunter2"]}'))).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
  });
});

describe('the arguments of payin-checkout proxy', () => {
  it('takes --config <file>, in either form, and nothing', () => {
    expect(proxyArgs([])).toEqual({});
    expect(proxyArgs(['--config', 'payin.json'])).toEqual({ configPath: 'payin.json' });
    expect(proxyArgs(['--config=payin.json'])).toEqual({ configPath: 'payin.json' });
  });

  it('takes --help, as the sandbox command does, and answers what the server reads: every setting', () => {
    expect(proxyArgs(['--help'])).toEqual({ help: true });
    expect(proxyArgs(['-h'])).toEqual({ help: true });
    const usage = proxyUsage();
    expect(usage).toMatch(/^Usage: payin-checkout proxy \[--config payin\.json\]/);
    expect(SETTINGS.filter((name) => !new RegExp(`\\b${name}\\b`).test(usage))).toEqual([]);
    expect(usage).toContain('docs/standalone.md');
  });

  it.each([
    [['--port', '9000'], /--port/],
    [['--confg', 'payin.json'], /--confg/],
    [['--config'], /--config needs a file/],
    [['extra'], /extra/],
  ])('refuses %j, naming it, instead of starting without it', (argv, message) => {
    expect(() => proxyArgs(argv)).toThrow(message);
    expect(() => proxyArgs(argv)).toThrow(/PORT|--config/);
  });
});
