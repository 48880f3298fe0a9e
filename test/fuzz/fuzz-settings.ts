/**
 * One seed and run count for every fuzz suite: fixed by default so that `npm test` is repeatable, overridable
 * (FUZZ_SEED, FUZZ_RUNS) to explore. fast-check prints the seed and the shrunk counterexample on a failure, so a
 * failure can be replayed with `FUZZ_SEED=<seed> npx vitest run test/fuzz`.
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 4242);

/** Runs per property: `base` by default, scaled by FUZZ_RUNS (a multiplier) for a longer search. */
export function fuzzRuns(base: number): number {
  return Math.max(1, Math.round(base * Number(process.env.FUZZ_RUNS ?? 1)));
}

/** Settles `promise` or rejects after `ms` of real time: a fuzzed request must never hang. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms`)), ms);
    }),
  ]);
}
