/**
 * The proxy's folders say what they hold, and their imports point one way: the use cases use the ledger, the
 * HTTP edge and the infrastructure; the ledger uses the edge's errors and the infrastructure, never a use case;
 * the edge and the infrastructure use neither. No module imports itself back through others (the outbox and the
 * ledger once closed such a loop through a field set after both were built), the node adapter's fast path
 * stays inside the node adapter, the node adapter reaches the proxy through its public entry only, and the proxy
 * imports nothing of the node adapter.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;

function filesUnder(dir: string): string[] {
  return readdirSync(join(SRC, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The src-relative files a module imports (type-only imports included: they are what a reader follows). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
    relative(SRC, join(SRC, dirname(file), `${m[1]}.ts`)),
  );
}

const proxyFiles = filesUnder('proxy');
const folderOf = (file: string) => file.split('/')[1]!.replace(/\.ts$/, '');

describe('the proxy layout', () => {
  it('keeps every module in one of four folders, beside the entry, the options and the wiring', () => {
    const loose = proxyFiles.filter((f) => !/^proxy\/(use-cases|ledger|http|infrastructure)\//.test(f));
    expect(loose.sort()).toEqual(
      [
        'proxy/context.ts',
        'proxy/create-proxy.ts',
        'proxy/index.ts',
        'proxy/logger.ts',
        'proxy/maybe-async.ts',
        'proxy/options.ts',
        'proxy/resolved-options.ts',
      ].sort(),
    );
  });

  it('points imports one way: use cases -> ledger -> http, infrastructure', () => {
    const below: Record<string, string[]> = {
      ledger: ['use-cases'],
      http: ['use-cases', 'ledger'],
      infrastructure: ['use-cases', 'ledger'],
    };
    const wrong = proxyFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('proxy/') && (below[folderOf(file)] ?? []).includes(folderOf(target)))
        .map((target) => `${file} -> ${target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    const graph = new Map(proxyFiles.map((f) => [f, importsOf(f).filter((t) => t.startsWith('proxy/'))]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of proxyFiles) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('wires its parts through constructor arguments, setting no field of one part after it was built', () => {
    const wiring = readFileSync(join(SRC, 'proxy/context.ts'), 'utf8');
    expect(wiring.match(/^\s*\w+\.\w+\s*=[^=>]/gm) ?? []).toEqual([]);
  });

  it('lets the node adapter use the proxy through its public entry only (the event-stream format is shared/)', () => {
    const reaching = filesUnder('server').flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('proxy/') && target !== 'proxy/index.ts')
        .map((target) => `${file} -> ${target}`),
    );
    expect(reaching).toEqual([]);
  });

  it('does not import the node adapter: reading bodies is shared/, for every runtime', () => {
    const reaching = proxyFiles.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('server/'))
        .map((target) => `${file} -> ${target}`),
    );
    expect(reaching).toEqual([]);
  });

  it("leaves the node adapter's fast path to the node adapter", () => {
    const users = [...filesUnder('.')].filter((f) => importsOf(f).includes('server/plain-exchange.ts'));
    expect(users.sort()).toEqual(['server/node-listener.ts', 'server/node-request.ts']);
  });
});
