/**
 * The Preact typings as a new shop gets them: `npm install preact` gives Preact 11, which keeps `HTMLAttributes`
 * at the top of the module and no longer under `JSX`. A scratch project whose node_modules holds Preact 11 (the
 * devDependency `preact-11`) and this package compiles test/typings/jsx-usage.tsx, expected errors included,
 * the way framework-typings.test.ts does against Preact 10, and the Preact example of docs/element.md.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const project = mkdtempSync(join(tmpdir(), 'payin-preact-11-'));

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('the Preact typings on Preact 11', () => {
  it('type Preact usage of <payin-checkout> and refuse the wrong kinds', () => {
    // The project's node_modules: this repository's, with Preact 11 as `preact`, and the package as published
    // (package.json and dist/ only, so that nothing resolves through this repository's own node_modules).
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, 'payin-checkout'), { recursive: true });
    for (const name of readdirSync(join(REPO, 'node_modules'))) {
      if (name !== 'preact' && name !== 'payin-checkout') symlinkSync(join(REPO, 'node_modules', name), join(modules, name), 'dir');
    }
    symlinkSync(join(REPO, 'node_modules/preact-11'), join(modules, 'preact'), 'dir');
    for (const entry of ['package.json', 'dist']) symlinkSync(join(REPO, entry), join(modules, 'payin-checkout', entry));
    for (const file of ['preact.ts', 'jsx-usage.tsx']) copyFileSync(join(REPO, 'test/typings', file), join(project, file));
    const page = readFileSync(join(REPO, 'docs/element.md'), 'utf8');
    const example = /### Preact\n[\s\S]*?```tsx\n([\s\S]*?)```/.exec(page)?.[1];
    expect(example).toContain("from 'payin-checkout/preact'");
    writeFileSync(join(project, 'docs-example.tsx'), example!);
    const compilerOptions = {
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom'],
      types: [],
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      jsx: 'react-jsx',
      jsxImportSource: 'preact',
      preserveSymlinks: true, // as if installed: `preact` resolves from the project, not from this repository
    };
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions, include: ['preact.ts', 'jsx-usage.tsx', 'docs-example.tsx'] }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', project], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
