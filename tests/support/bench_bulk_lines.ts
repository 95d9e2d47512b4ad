/**
 * Figures from the lines `tests/e2e/bulk_import_bench.ts` prints (it reports lines, not figure records):
 * throughput against the theoretical limit, the import with its defaults against a sequential client, the
 * share of an allowed rate reached under a 429 throttle (with the 429s drawn and the rows stored), and peak
 * memory against the 100-row baseline. Lines that do not match are left for the report to show as
 * they are.
 *
 * @example
 * ```ts
 * import { bulkFigures } from "./bench_bulk_lines.ts";
 * const figures = bulkFigures([
 *   "under a 20 req/s throttle: 19.4 req/s = 97% of R (after the opening burst of 20; 200 bulk writes)",
 * ]);
 * console.log(figures[0].id); // "bulk.throttle"
 * ```
 *
 * @module
 */
import type { BenchFigure } from "./bench_figures.ts";

const number = (text: string) => Number(text.replaceAll(",", ""));

/** The lines of the bulk bench's output that carry figures. */
export function bulkLines(output: string): string[] {
  return output.split("\n").map((line) => line.trim()).filter((line) =>
    /^(bulk import\b.*rows\/s|adaptive window against|under a \d+ req\/s throttle:|peak resident memory for)/
      .test(line)
  );
}

const THROUGHPUT = new RegExp(
  String.raw`^(bulk import[^:]*): ([\d,]+) rows in ([\d.]+) s = ([\d,]+) rows/s` +
    String.raw`(?:, (\d+)% of the ([\d,]+) rows/s limit \(([^)]*)\))?(.*)$`,
);
const THROTTLE =
  /^under a (\d+) req\/s throttle: ([\d.]+) req\/s = (\d+)% of R \((.*)\)(?:; target (.*): (met|not met))?$/;
const SEQUENTIAL = new RegExp(
  String.raw`^adaptive window against a sequential client: ([\d,]+) rows in ([\d.]+) s = ([\d,]+) rows/s, ` +
    String.raw`([\d.]+)× the sequential client \(([\d,]+) rows/s: (.*)\); target ≥ ([\d.]+)×: (met|not met)$`,
);
const MEMORY = new RegExp(
  String.raw`^peak resident memory for ([\d,]+) rows: ([\d.]+) MB \(target < (\d+) MB\); ` +
    String.raw`([\d.]+) MB for ([\d,]+) rows \(baseline\), ([\d.]+)× the baseline(.*)$`,
);

const BOUNDED_MEMORY = new RegExp(
  String
    .raw`^peak resident memory for ([\d,]+) rows with ([^:]+): ([\d.]+) MB \(target < (\d+) MB\),? ?(.*)$`,
);

/** Figures read from the bulk bench's lines; the headline import (4 in flight, 20 ms) is not a detail. */
export function bulkFigures(lines: readonly string[]): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const line of lines) {
    const throughput = THROUGHPUT.exec(line);
    if (throughput) {
      const [, label, rows, seconds, rate, , limit, how, rest] = throughput;
      const headline = label === "bulk import";
      const slug = label.replace(/^bulk import,? ?/, "").replace(/[^a-z0-9]+/gi, "-").replace(/-$/, "");
      figures.push({
        id: headline ? "bulk.throughput" : `bulk.throughput.${slug.toLowerCase() || "other"}`,
        section: "bulk",
        name: `${label}, ${number(rows).toLocaleString("en-US")} rows`,
        value: number(rate),
        unit: "rows/s",
        baseline: limit ? { name: `theoretical limit (${how})`, value: number(limit) } : undefined,
        ratioLabel: limit ? "% of the limit" : undefined,
        note: `${seconds} s${rest.replace(/^;/, ";")}`,
        detail: !headline,
      });
      continue;
    }
    const sequential = SEQUENTIAL.exec(line);
    if (sequential) {
      const [, rows, seconds, rate, , baseline, how, times, met] = sequential;
      figures.push({
        id: "bulk.vs-sequential",
        section: "bulk",
        name: `bulk import with its defaults (adaptive window), ${number(rows).toLocaleString("en-US")} rows`,
        value: number(rate),
        unit: "rows/s",
        baseline: { name: `sequential client (${how.replace(/, [\d.]+ s$/, "")})`, value: number(baseline) },
        ratioLabel: "× the sequential client",
        target: `≥ ${times}× the sequential client`,
        met: met === "met",
        note: `${seconds} s`,
      });
      continue;
    }
    const throttle = THROTTLE.exec(line);
    if (throttle) {
      const [, allowed, reached, , how, target, met] = throttle;
      // The first throttle keeps the id the report requires; others are told apart by their rate.
      const defaults = how.startsWith("the defaults");
      const id = defaults
        ? `bulk.throttle.defaults.r${allowed}`
        : figures.some((f) => f.id === "bulk.throttle")
        ? `bulk.throttle.r${allowed}`
        : "bulk.throttle";
      figures.push({
        id,
        section: "bulk",
        name: `bulk import${defaults ? " with its defaults" : ""} under a ${allowed} req/s throttle ` +
          `(429 beyond), sustained ${defaults ? "request rate (lookups and writes)" : "write rate"}`,
        value: number(reached),
        unit: "req/s",
        baseline: { name: "allowed rate R", value: number(allowed) },
        ratioLabel: "% of the allowed rate",
        note: how,
        ...(target ? { target, met: met === "met" } : {}),
      });
      continue;
    }
    const bounded = BOUNDED_MEMORY.exec(line);
    if (bounded) {
      const [, rows, flags, peak, target, rest] = bounded;
      figures.push({
        id: "bulk.memory.bounded",
        section: "bulk",
        name: `bulk import peak resident memory, ${rows} rows, with ${flags}`,
        value: number(peak),
        unit: "MB",
        target: `< ${target} MB`,
        met: number(peak) < number(target),
        note: rest,
        // In the summary beside the default run: it is how the released binaries run.
        detail: false,
      });
      continue;
    }
    const memory = MEMORY.exec(line);
    if (memory) {
      const [, rows, peak, target, baseline, baselineRows, , rest] = memory;
      figures.push({
        id: "bulk.memory",
        section: "bulk",
        name: `bulk import peak resident memory, ${rows} rows`,
        value: number(peak),
        unit: "MB",
        baseline: { name: `the same command on ${baselineRows} rows`, value: number(baseline) },
        ratioLabel: "× the baseline",
        target: `< ${target} MB`,
        met: number(peak) < number(target),
        note: rest.replace(/^;\s*/, ""),
      });
    }
  }
  return figures;
}
