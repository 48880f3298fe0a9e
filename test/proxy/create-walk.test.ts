/**
 * A create request walks the proxy forward, through a few files, never coming back to one: the bound the proxy's
 * layout is kept to, measured rather than read (bench/support/create-walk/trace.mjs has the definition; the
 * same tracer gives `node bench/create-walk.mjs` its figure). The tracer runs in a process of its own, since it
 * loads the proxy's sources through a module hook with every function instrumented.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

interface Walk {
  status: number;
  steps: { file: string; from: { from: string; functions: string[] }[] }[];
  revisited: { file: string; from: string[]; back: string[]; why: string }[];
  others: { file: string; kind: string; from: string[] }[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let walk: Walk;

describe('the create walk', () => {
  beforeAll(() => {
    const out = execFileSync(process.execPath, ['bench/create-walk.mjs', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    walk = JSON.parse(out) as Walk;
  }, 90_000);

  it('traced a create that answered 201, entering the router first', () => {
    expect(walk.status).toBe(201);
    expect(walk.steps[0]).toMatchObject({ file: 'proxy/create-proxy.ts', from: [{ from: 'outside' }] });
    expect(walk.steps.map((s) => s.file)).toContain('proxy/ledger/ledger.ts');
  });

  it('goes through at most 9 files of the router, the use cases and the ledger', () => {
    expect(walk.steps.map((s) => s.file).length, walk.steps.map((s) => s.file).join(' -> ')).toBeLessThanOrEqual(9);
  });

  it('visits no file more than once: each is entered from one file, numbered before it', () => {
    expect(walk.revisited).toEqual([]);
  });

  it('never goes back from the HTTP edge, the infrastructure or a shared helper into the proxy logic', () => {
    const logicCalledFromBelow = walk.steps.filter((s) =>
      s.from.some((f) => f.from !== 'outside' && !/^proxy\/(create-proxy|context)\.ts$|^proxy\/(use-cases|ledger)\//.test(f.from)),
    );
    expect(logicCalledFromBelow).toEqual([]);
  });
});
