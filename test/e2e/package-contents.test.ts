/**
 * What `npm publish` would ship, read from `npm pack --dry-run --json` after the build: every entry point that
 * package.json promises is in the tarball, and nothing that must stay home is (tests, sources, source maps,
 * environment files, credentials other than the sandbox's public demo ones).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGE_TAGS } from '../../src/widget/translations/language-tags.js';

const ROOT = new URL('../../', import.meta.url);

interface PackManifest {
  exports: unknown;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  customElements?: string;
  files?: string[];
}

const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as PackManifest;
let packed: Set<string>;

beforeAll(() => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [report] = JSON.parse(out.slice(out.indexOf('['))) as [{ files: { path: string }[] }];
  packed = new Set(report.files.map((f) => f.path));
});

/** Every file path a value of `exports` names, through nested conditions. */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

const relative = (path: string) => path.replace(/^\.\//, '');

describe('the published package', () => {
  it('contains every file that package.json points at', () => {
    const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
    const targets = [
      ...exportTargets(manifest.exports),
      ...bins,
      ...[manifest.main, manifest.types, manifest.customElements].filter((p): p is string => !!p),
    ].map(relative);
    expect(targets.length).toBeGreaterThan(5);
    const missing = targets.filter((t) => !packed.has(t));
    expect(missing, `not in the tarball (was the build run?): ${missing.join(', ')}`).toEqual([]);
  });

  it('loads every JavaScript entry point in plain Node by its package name, the element included', () => {
    const entries = Object.entries(manifest.exports as Record<string, unknown>)
      .filter(([, target]) => exportTargets(target).some((t) => /\.js$/.test(t) && !t.includes('.iife.')))
      .map(([key]) => `payin-checkout${key.slice(1)}`);
    expect(entries).toContain('payin-checkout');
    const script = `for (const name of ${JSON.stringify(entries)}) await import(name);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('ships and exports the script-tag build with its parts and every language, the type declarations and the elements manifest', () => {
    for (const file of [
      'iife',
      ...LANGUAGE_TAGS,
      ...['phone', 'upi-apps', 'sbp-banks', 'results', 'qr-encoder'].map((part) => `${part}.part`),
    ]) {
      expect(packed.has(`dist/payin-checkout.${file}.js`)).toBe(true);
      expect(exportTargets(manifest.exports)).toContain(`./dist/payin-checkout.${file}.js`);
    }
    expect(packed.has('custom-elements.json')).toBe(true);
    expect([...packed].some((p) => p.startsWith('dist/widget/') && p.endsWith('.d.ts'))).toBe(true);
  });

  it('ships what the README and the docs pages link to or show (pages, screenshots), so none is broken there', () => {
    expect(packed.has('README.md') && [...packed].filter((path) => path.startsWith('docs/')).length > 5).toBe(true);
    const broken: string[] = [];
    for (const file of [...packed].filter((path) => path.endsWith('.md'))) {
      const text = readFileSync(new URL(file, ROOT), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const resolved = posix.normalize(posix.join(posix.dirname(file), target!));
        if (!packed.has(resolved)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('leaves out tests, sources, source maps and environment files', () => {
    const unwanted = [...packed].filter(
      (p) =>
        /^(test|src|demo|bench|\.ci|node_modules)\//.test(p) ||
        /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) ||
        /\.map$/.test(p) ||
        (/\.[cm]?tsx?$/.test(p) && !/\.d\.[cm]?ts$/.test(p)) ||
        /(^|\/)\.(env|npmrc)/.test(p),
    );
    expect(unwanted).toEqual([]);
  });

  it('holds no credentials except the sandbox demo merchant', () => {
    const allowed = new Set(['demo-merchant', 'demo-token', 'demo-secret']);
    const findings: string[] = [];
    for (const path of packed) {
      if (!/\.(m?js|cjs|ts|json|md)$/.test(path) || path === 'package.json') continue;
      const text = readFileSync(new URL(path, ROOT), 'utf8');
      if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) findings.push(`${path}: a private key`);
      for (const m of text.matchAll(
        /\b(?:AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36}|sk_live_[0-9A-Za-z]{16,}|xox[abprs]-[0-9A-Za-z-]{10,})\b/g,
      )) {
        findings.push(`${path}: a token shaped like ${m[0].slice(0, 4)}...`);
      }
      // A literal value given to something named like a secret, in code (`secret: '...'`) or config (`PAYIN_SECRET=...`).
      const assignment = /\b(?:PAYIN_(?:SECRET|TOKEN)|secret|token|password|api_?key)["']?\s*[:=]\s*["'`]?([A-Za-z0-9_\-+/.]{6,})["'`]?/gi;
      for (const m of text.matchAll(assignment)) {
        const value = m[1]!;
        if (allowed.has(value)) continue;
        if (!/["'`]/.test(m[0]) && !/^PAYIN_/i.test(m[0])) continue; // an identifier on the right, not a literal
        findings.push(`${path}: ${m[0].slice(0, 60)}`);
      }
    }
    expect(findings).toEqual([]);
  });
});
