/**
 * Progress of long commands on stderr. On a terminal: one line redrawn in place (`\r`, then clear to the
 * end of the line) at most ten times a second, with the phase, a bar, done/total, a moving rate, the time
 * left and the error count; cleared when the job finishes. Not on a terminal: nothing (the command prints
 * its summary itself), unless asked for with `--progress`, which gives a plain line every five seconds at
 * most, for logs. No colours: nothing here depends on NO_COLOR or on the terminal's palette.
 *
 * @example
 * ```ts
 * import { createTerminalProgress } from "./progress.ts";
 * const progress = createTerminalProgress({ write: (text) => console.error(text), isTerminal: false });
 * progress.update({ phase: "importing", done: 10, total: 100, errors: 0 }); // silent: not a terminal
 * progress.finish();
 * ```
 *
 * @module
 */
import type { ProgressReport, ProgressSink } from "../lib/operations/types.ts";

/** How a command's progress shows: `auto` draws on a terminal only, `always` also logs plain lines. */
export type ProgressMode = "auto" | "always" | "never";

export interface TerminalProgressOptions {
  /** Writes to stderr as is: no line end is added. */
  write: (text: string) => void;
  /** Whether stderr is a terminal that understands `\r` and clear-to-end-of-line. */
  isTerminal: boolean;
  /** Terminal width; 80 by default. The line is cut to fit, so it never wraps. */
  columns?: number;
  /** Milliseconds, monotonic; `performance.now` by default. */
  now?: () => number;
  mode?: ProgressMode;
}

/** A progress sink that can step aside for other stderr output. */
export interface TerminalProgress extends ProgressSink {
  /** Clears a drawn line, so other stderr output starts at column 0; the next update draws it again. */
  clear(): void;
}

/** Least milliseconds between redraws of the terminal line. */
export const REDRAW_INTERVAL_MS = 100;
/** Least milliseconds between plain progress lines. */
export const PLAIN_INTERVAL_MS = 5_000;
/** The rate is measured over this window, so it follows changes in speed. */
const RATE_WINDOW_MS = 5_000;
const CLEAR_LINE = "\r\x1b[K";

/** The progress sink of a command run from the command line. */
export function createTerminalProgress(options: TerminalProgressOptions): TerminalProgress {
  const mode = options.mode ?? "auto";
  const now = options.now ?? (() => performance.now());
  const columns = Math.max(20, options.columns ?? 80);
  const style = mode === "never"
    ? "none"
    : options.isTerminal
    ? "line"
    : mode === "always"
    ? "plain"
    : "none";
  const rate = new MovingRate();
  let phase: string | undefined;
  let lastWrite = -Infinity;
  let visible = false;

  const clear = () => {
    if (!visible) return;
    options.write(CLEAR_LINE);
    visible = false;
    lastWrite = -Infinity;
  };

  return {
    update(report) {
      if (style === "none") return;
      const t = now();
      const newPhase = report.phase !== phase;
      if (newPhase) {
        phase = report.phase;
        rate.reset();
      }
      rate.add(t, report.done);
      if (style === "line") {
        if (!newPhase && t - lastWrite < REDRAW_INTERVAL_MS) return;
        options.write("\r" + progressLine(report, rate.perSecond(), columns - 1) + "\x1b[K");
        visible = true;
      } else {
        if (t - lastWrite < PLAIN_INTERVAL_MS) return;
        options.write(plainLine(report, rate.perSecond()) + "\n");
      }
      lastWrite = t;
    },
    finish() {
      clear();
      phase = undefined;
      lastWrite = -Infinity;
      rate.reset();
    },
    summary(line) {
      if (mode === "never") return;
      clear();
      options.write(line + "\n");
    },
    clear,
  };
}

/** The terminal line, cut to `width`: `importing [####....] 40/100  12 rows/s  ETA 0:05  0 errors`. */
export function progressLine(report: ProgressReport, perSecond: number | undefined, width: number): string {
  const parts = [
    report.total === undefined ? `${report.done} rows` : `${report.done}/${report.total}`,
    ...(perSecond === undefined ? [] : [`${formatRate(perSecond)} rows/s`]),
    ...etaPart(report, perSecond),
    errorsText(report.errors),
  ];
  const tail = parts.join("  ");
  let line = `${report.phase} ${tail}`;
  if (report.total !== undefined && report.total > 0) {
    // The bar takes what is left, within reason; on a narrow terminal it goes first.
    const barWidth = Math.min(30, width - line.length - 3);
    if (barWidth >= 10) line = `${report.phase} ${bar(report.done / report.total, barWidth)} ${tail}`;
  }
  return line.length > width ? line.slice(0, width) : line;
}

/** A line for logs: `importing: 40/100 rows (40%), 12 rows/s, ETA 0:05, 0 errors`. */
export function plainLine(report: ProgressReport, perSecond: number | undefined): string {
  const count = report.total === undefined
    ? `${report.done} rows`
    : `${report.done}/${report.total} rows (${percent(report.done, report.total)}%)`;
  const parts = [
    count,
    ...(perSecond === undefined ? [] : [`${formatRate(perSecond)} rows/s`]),
    ...etaPart(report, perSecond),
    errorsText(report.errors),
  ];
  return `${report.phase}: ${parts.join(", ")}`;
}

function bar(fraction: number, width: number): string {
  const inner = width - 2;
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * inner);
  return `[${"#".repeat(filled)}${".".repeat(inner - filled)}]`;
}

function percent(done: number, total: number): number {
  return total > 0 ? Math.floor(Math.min(1, done / total) * 100) : 100;
}

function etaPart(report: ProgressReport, perSecond: number | undefined): string[] {
  if (report.total === undefined || perSecond === undefined || perSecond <= 0) return [];
  const left = Math.max(0, report.total - report.done);
  return [`ETA ${formatDuration(left / perSecond)}`];
}

function errorsText(errors: number): string {
  return errors === 1 ? "1 error" : `${errors} errors`;
}

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/** `0:05`, `12:30`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const total = Math.ceil(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** Rows per second over the last few seconds; `undefined` until there is a span worth measuring. */
class MovingRate {
  #samples: Array<{ t: number; done: number }> = [];

  reset() {
    this.#samples = [];
  }

  add(t: number, done: number) {
    // Samples 100 ms apart at least keep the window small however often a job reports; the last one
    // always holds the latest count.
    const previous = this.#samples.at(-2);
    if (previous && t - previous.t < 100) this.#samples[this.#samples.length - 1] = { t, done };
    else this.#samples.push({ t, done });
    while (this.#samples.length > 2 && t - this.#samples[1].t >= RATE_WINDOW_MS) this.#samples.shift();
  }

  perSecond(): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || last.t - first.t < 500) return undefined;
    return ((last.done - first.done) * 1000) / (last.t - first.t);
  }
}
