/**
 * The README is a guide and the reference lives in docs/, one page per topic: every page is linked from the
 * guide, and every relative link of the guide, of CONTRIBUTING.md and of the pages reaches a file that exists (a
 * heading anchor too, where the link names one).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const pages = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
const documents = ['README.md', 'CONTRIBUTING.md', ...pages.map((p) => `docs/${p}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsIn(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

describe('the guide and the docs pages', () => {
  it('link every docs page from the guide', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(pages.filter((p) => p !== 'README.md' && !readme.includes(`(docs/${p})`))).toEqual([]);
  });

  it('link every docs page from the index of docs/ as well', () => {
    const index = readFileSync(join(ROOT, 'docs/README.md'), 'utf8');
    expect(pages.filter((p) => p !== 'README.md' && !index.includes(`(${p})`))).toEqual([]);
  });

  it('keep the guide to a few hundred lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(400);
  });

  it('have no relative link to a missing file or heading', () => {
    const broken: string[] = [];
    for (const file of documents) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#');
        const resolved = path ? join(dirname(file), path) : file;
        if (!existsSync(join(ROOT, resolved))) broken.push(`${file}: ${target}`);
        else if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name only files of the repository that exist', () => {
    // A path a reader is sent to (the tests behind a guarantee, an example to copy), written out in the text:
    // src/..., test/..., examples/... A pattern (<tag>, *) and what a build or the bench writes are left aside.
    const missing: string[] = [];
    for (const file of documents) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [path] of text.matchAll(/\b(?:src|test|bench|examples|demo|build)\/[\w./[\]-]*\w/g)) {
        if (!path.startsWith('bench/results/') && !existsSync(join(ROOT, path))) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
