/**
 * The figures a benchmark reports: each one a measured value next to its baseline from the same run, as a
 * ratio, with its target when one is set. A bench prints every figure as one line; when
 * `GOVCAT_BENCH_FIGURES` names a file (set by `tests/support/bench_report.ts`), it also appends the figure
 * there as a JSON line, which the report generator turns into BENCHMARKS.md.
 *
 * Also the small statistics every bench needs (median, percentiles of samples).
 *
 * @example
 * ```ts
 * import { percentile, reportFigure } from "./bench_figures.ts";
 * const samples = [3.1, 2.9, 3.4];
 * reportFigure({
 *   id: "demo.latency",
 *   section: "emulator",
 *   name: "demo latency p50",
 *   value: percentile(samples, 0.5),
 *   unit: "ms",
 *   baseline: { name: "floor", value: 1.2, unit: "ms" },
 * });
 * ```
 *
 * @module
 */

/** The benchmark sections (start-up, tool-call overhead, bulk import, emulator, HTTP, context), in report order. */
export const BENCH_SECTIONS = {
  startup: "1. Start-up",
  "tool-call": "2. Tool-call overhead",
  bulk: "3. Bulk import",
  emulator: "4. Emulator",
  http: "HTTP core",
  context: "Context: tools/list",
} as const;

export type BenchSection = keyof typeof BENCH_SECTIONS;

/** One reported figure. */
export interface BenchFigure {
  /** Stable key, e.g. `startup.stdio`. */
  id: string;
  section: BenchSection;
  /** What was measured, for a reader. */
  name: string;
  value: number;
  /** Unit of `value` (and of the baseline unless it says otherwise): ms, rows/s, MB, errors … */
  unit: string;
  /** The in-run baseline the figure is read against. */
  baseline?: { name: string; value: number; unit?: string };
  /** The figure that counts, when it is a ratio: by default value ÷ baseline. */
  ratio?: number;
  /** How to read the ratio: "× the floor" (default), "of the limit" … */
  ratioLabel?: string;
  /** The target, in words, when one is set. */
  target?: string;
  /** Whether the target is met (absent without a target). */
  met?: boolean;
  /** Anything a reader needs to interpret the figure (sample size, setup). */
  note?: string;
  /** A supporting figure (a breakdown, a variant): in its section, not in the summary table. */
  detail?: boolean;
}

/** Environment variable naming the JSON-lines file figures are appended to. */
export const FIGURES_ENV = "GOVCAT_BENCH_FIGURES";

/** True when `GOVCAT_BENCH_QUICK=1`: smaller samples, for a quick run (the report says so). */
export const QUICK = Deno.env.get("GOVCAT_BENCH_QUICK") === "1";

/** The ratio of a figure, explicit or value ÷ baseline. */
export function figureRatio(figure: BenchFigure): number | undefined {
  if (figure.ratio !== undefined) return figure.ratio;
  if (!figure.baseline || figure.baseline.value === 0) return undefined;
  return figure.value / figure.baseline.value;
}

/** A number for a reader: 3 significant digits below 100, thousands separated above. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toLocaleString("en-US");
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/** `1.23 ms`, `12,345 rows/s`, `0 errors`. */
export function formatQuantity(value: number, unit: string): string {
  return `${formatNumber(value)} ${unit}`;
}

/** The ratio as a reader sees it: `14.2× the floor`, `85% of the limit`. */
export function formatRatio(ratio: number, label = "× the floor"): string {
  return label.startsWith("%") ? `${Math.round(ratio * 100)}${label}` : `${formatNumber(ratio)}${label}`;
}

/** Text as one cell of a Markdown table: its pipes escaped, its line breaks spaces. */
export function tableCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** One line for the console. */
export function figureLine(figure: BenchFigure): string {
  const parts = [`${figure.name}: ${formatQuantity(figure.value, figure.unit)}`];
  if (figure.baseline) {
    parts.push(
      `baseline ${figure.baseline.name} ${
        formatQuantity(figure.baseline.value, figure.baseline.unit ?? figure.unit)
      }`,
    );
  }
  const ratio = figureRatio(figure);
  if (ratio !== undefined) parts.push(formatRatio(ratio, figure.ratioLabel));
  if (figure.target) parts.push(`target ${figure.target}: ${figure.met ? "met" : "NOT met"}`);
  return parts.join("; ");
}

/** Prints the figure and, when the report generator asked for it, appends it to its file. */
export function reportFigure(figure: BenchFigure): void {
  console.log(`figure  ${figureLine(figure)}`);
  const file = Deno.env.get(FIGURES_ENV);
  // Synchronous: benches report from `unload` handlers too, where nothing is awaited.
  if (file) Deno.writeTextFileSync(file, JSON.stringify(figure) + "\n", { append: true });
}

/** The `p` quantile (0..1) of samples, nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = samples.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** The median of samples. */
export function median(samples: readonly number[]): number {
  return percentile(samples, 0.5);
}
