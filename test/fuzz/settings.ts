// How long the fuzz properties run — a short fixed-seed run inside `npm test`, the long run of
// `npm run test:fuzz` (test/fuzz/run.ts sets WREN_FUZZ_RUNS and a random, printed seed) — and
// a failure report short enough to read (a shrunk counterexample may hold megabytes).

import fc from "fast-check";

export function fuzzSettings(defaultRuns: number): { numRuns: number; seed: number } {
  const runs = Number(process.env.WREN_FUZZ_RUNS);
  const seed = Number(process.env.WREN_FUZZ_SEED);
  return {
    numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns,
    seed: Number.isInteger(seed) && process.env.WREN_FUZZ_SEED !== "" ? seed : 20261122,
  };
}

/** Runs the property; a failure throws with the seed, the replay path and the property's message. */
export async function checkProperty<T>(
  property: fc.IAsyncPropertyWithHooks<[T]>,
  defaultRuns: number,
): Promise<number> {
  const settings = fuzzSettings(defaultRuns);
  // Shrinking megabyte payloads over HTTP takes minutes: report the first failure as found
  // (WREN_FUZZ_SHRINK=1 shrinks it anyway).
  const endOnFailure = process.env.WREN_FUZZ_SHRINK !== "1";
  const details = await fc.check(property, { ...settings, endOnFailure });
  if (details.failed) {
    const error = details.errorInstance as Error | undefined;
    const message = (error?.message ?? "no error was recorded").slice(0, 3000);
    throw new Error(
      `fuzz property failed (seed ${details.seed}, path "${details.counterexamplePath}", ` +
        `after ${details.numRuns} runs, ${details.numShrinks} shrinks):\n${message}`,
    );
  }
  return details.numRuns;
}
