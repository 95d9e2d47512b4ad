/**
 * How long the built-in sample catalog takes to load (`--seed`): an in-memory emulator started with
 * `seed: true` — its entities, collections, business metadata, glossary and unified catalog — next to the
 * same start without a seed, measured in turn in the same run. The figure is the seeded start's median;
 * the bound is under one second.
 *
 * GOVCAT_BENCH_QUICK=1 takes 5 rounds instead of 21.
 *
 * Run: `deno task bench tests/lib/emulator/seed_load_bench.ts`
 */
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { DEFAULT_SEED } from "../../../lib/emulator/seed.ts";
import { median, QUICK, reportFigure } from "../../support/bench_figures.ts";

const ROUNDS = QUICK ? 5 : 21;

async function startMs(seed: boolean): Promise<number> {
  const started = performance.now();
  const emulator = await startEmulator({ seed });
  const elapsed = performance.now() - started;
  await emulator.close();
  return elapsed;
}

// One start of each first: the module graph and SQLite warm up outside the samples.
await startMs(true);
await startMs(false);
const seeded: number[] = [];
const empty: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  seeded.push(await startMs(true));
  empty.push(await startMs(false));
}
const value = median(seeded);
const entities = (DEFAULT_SEED as { entities: unknown[] }).entities.length;
reportFigure({
  id: "emulator.seed-load",
  section: "emulator",
  name: "start with the sample catalog (--seed), in memory",
  value,
  unit: "ms",
  baseline: { name: "the same start without a seed", value: median(empty) },
  target: "< 1 s",
  met: value < 1000,
  note: `median of ${ROUNDS} rounds, max ${Math.max(...seeded).toFixed(1)} ms; ${entities} entities, ` +
    "collections, business metadata, glossary and unified catalog",
});
