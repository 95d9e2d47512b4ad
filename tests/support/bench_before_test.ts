/**
 * The Before and after section of BENCHMARKS.md: each figure measured against the earlier commit, next to
 * the same figure of the current run, through each run's own ratio.
 */
import assert from "node:assert/strict";
import type { BenchFigure } from "./bench_figures.ts";
import { beforeAfterSection, type BeforeFigures } from "./bench_before.ts";

const lineage = (value: number, floor: number, met?: boolean): BenchFigure => ({
  id: "emulator.lineage.1m",
  section: "emulator",
  name: "lineage at 1M entities, p50",
  value,
  unit: "ms",
  baseline: { name: "health p50", value: floor },
  target: "≤ 20 ms at 1M",
  met,
});

Deno.test("each figure measured before shows next to its value now, with both ratios", () => {
  const before: BeforeFigures = {
    commit: "2efc6a8",
    measured: "2026-11-29T14:00:00.000Z",
    files: ["tests/lib/emulator/lineage/scale_bench.ts"],
    figures: [
      lineage(15_000, 0.1, false),
      { id: "gone", section: "emulator", name: "a figure this run lacks", value: 3, unit: "ms" },
      { ...lineage(1, 1), id: "detail", name: "a detail", detail: true },
    ],
  };
  const text = beforeAfterSection(before, [lineage(4, 0.2, true)]).join("\n");
  assert.match(text, /against commit 2efc6a8 \(2026-11-29,/);
  assert.match(
    text,
    /\| lineage at 1M entities, p50 \| 15,000 ms \(150,000× the floor\) \| 4 ms \(20× the floor\) \| ≤ 20 ms at 1M \| met \|/,
  );
  assert.match(text, /\| a figure this run lacks \| 3 ms \| not measured \| — \| — \|/);
  assert.doesNotMatch(text, /a detail/, "details stay out, as in the summary");
});
