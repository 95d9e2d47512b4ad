/**
 * The one module that imports the property-testing library (fast-check). Property tests take `fc` and
 * their run options from here, so the library and the run budget are chosen in one place.
 *
 * Runs are bounded and reproducible: {@link propertyRuns} gives a fixed seed and a run count, so a failure
 * in CI fails the same way on a developer's machine. To explore other inputs, set `GOVCAT_PROPERTY_SEED`
 * (an integer) and `GOVCAT_PROPERTY_RUNS`; a failing run prints the seed and the shrunk counterexample,
 * and passing that seed again reproduces it.
 *
 * @example
 * ```ts
 * import { fc, propertyRuns } from "./property.ts";
 * fc.assert(fc.property(fc.string(), (s) => s.length >= 0), propertyRuns());
 * ```
 *
 * @module
 */
import fc from "npm:fast-check@4.10.2";

export { fc };

/** Seed used unless GOVCAT_PROPERTY_SEED says otherwise. */
export const DEFAULT_PROPERTY_SEED = 20_260_901;

function integerFromEnv(name: string): number | undefined {
  const raw = Deno.env.get(name);
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

/** fast-check parameters: a fixed seed (or GOVCAT_PROPERTY_SEED) and `numRuns` runs (or GOVCAT_PROPERTY_RUNS). */
export function propertyRuns(numRuns = 300): { seed: number; numRuns: number } {
  return {
    seed: integerFromEnv("GOVCAT_PROPERTY_SEED") ?? DEFAULT_PROPERTY_SEED,
    numRuns: integerFromEnv("GOVCAT_PROPERTY_RUNS") ?? numRuns,
  };
}
