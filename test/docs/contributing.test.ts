/**
 * CONTRIBUTING.md tells a contributor how much room the script-tag core has before its guard stops the build's
 * size test: the figure it gives is the guard bench/support/budgets.mjs holds the core to, so that nobody plans a
 * change of the core against a limit that moved.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUDGETS } from '../../bench/support/budgets.mjs';

const contributing = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');

describe('CONTRIBUTING.md', () => {
  it("gives the core's guard that the size test holds it to", () => {
    const stated = /guarded at\s+([\d.]+) kB/.exec(contributing)?.[1];
    expect(stated, "the core's guard in CONTRIBUTING.md").toBeDefined();
    expect(Math.round(Number(stated) * 1000)).toBe(BUDGETS.core);
  });
});
