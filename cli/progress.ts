/**
 * Progress of long commands on stderr. On a terminal: one line redrawn in place (`\r`, then clear to the
 * end of the line) at most ten times a second, with the phase, a bar, done/total, a moving rate, the time
 * left and the error count; cleared when the job finishes. The line's layout is sized from the total, not
 * from the numbers of the moment: the numbers are padded to the total's width, a rate or time not known
 * yet holds its place, and the bar's width follows from the widest the numbers can get, so neither the
 * bar nor the fields after it move as the numbers grow. Not on a terminal (CI logs, a service): a plain
 * line (rows done, rate, time left) every {@link LOG_INTERVAL_MS} once a job has run that long, as azcopy
 * logs its progress, so a long import does not look hung while a short one stays quiet; `--progress`
 * asks for a plain line every five seconds from the start. No colours: nothing here depends on NO_COLOR or on the terminal's palette.
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
import type { ProgressReport, ProgressSink } from "../lib/core/progress.ts";
import { counted } from "../lib/core/plural.ts";

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
/** Least milliseconds between plain progress lines off a terminal without `--progress`, and before the first. */
export const LOG_INTERVAL_MS = 15_000;
/** The rate is measured over this window, so it follows changes in speed. */
const RATE_WINDOW_MS = 5_000;
const CLEAR_LINE = "\r\x1b[K";

/** The progress sink of a command run from the command line. */
export function createTerminalProgress(options: TerminalProgressOptions): TerminalProgress {
  const mode = options.mode ?? "auto";
  const now = options.now ?? (() => performance.now());
  const columns = Math.max(20, options.columns ?? 80);
  const style = mode === "never" ? "none" : options.isTerminal ? "line" : "plain";
  // Off a terminal without --progress: the first line only once the job has run a log interval.
  const plainInterval = mode === "always" ? PLAIN_INTERVAL_MS : LOG_INTERVAL_MS;
  let started: number | undefined;
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
        started ??= t;
        if (mode !== "always" && t - started < plainInterval) return;
        if (t - lastWrite < plainInterval) return;
        options.write(plainLine(report, rate.perSecond()) + "\n");
      }
      lastWrite = t;
    },
    finish() {
      clear();
      started = undefined;
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

/** Width of the time left on the terminal line, always as hours, minutes and seconds: `0:12:30`. */
const ETA_WIDTH = 7;
const FIELD_GAP = "  ";

/**
 * The terminal line, cut to `width`: `importing [####....]  40/100   12 rows/s  ETA 0:00:05  0 errors`. With
 * a total, done is padded to the total's width, the rate to that width too (`-` until it is known) and
 * the time left is h:mm:ss (`-:--:--` until known); the bar takes what the widest such line leaves, so its
 * width, and the place of every field, stays the same from one update to the next.
 */
export function progressLine(report: ProgressReport, perSecond: number | undefined, width: number): string {
  if (report.total === undefined) {
    const parts = [
      counted(report.done, "row"),
      ...(perSecond === undefined ? [] : [`${formatRate(perSecond)} rows/s`]),
      counted(report.errors, "error"),
    ];
    return cut(`${report.phase} ${parts.join(FIELD_GAP)}`, width);
  }
  const total = String(report.total);
  const done = `${String(report.done).padStart(total.length)}/${total}`;
  const errors = counted(report.errors, "error");
  // Room for the rate: the total's width, from 9.9 up to five digits (faster is rare, and runs on).
  const rateWidth = Math.min(5, Math.max(3, total.length));
  const eta = timeLeft(report, perSecond, clockTime) ?? "-:--:--";
  const rateAndEta = [
    `${(perSecond === undefined ? "-" : formatRate(perSecond)).padStart(rateWidth)} rows/s`,
    `ETA ${eta.padStart(ETA_WIDTH)}`,
  ];
  // The widest tails the total allows (every row done, every row an error), whatever the numbers now.
  const widestShort = 2 * total.length + 1 + FIELD_GAP.length + `${total} errors`.length;
  const widestFull = widestShort + rateWidth + " rows/s".length + "ETA ".length + ETA_WIDTH +
    2 * FIELD_GAP.length;
  // The bar takes what is left, within reason. On a narrower terminal the rate and time left go first,
  // then the bar: each choice depends on the width and the total only, so it holds for the whole run.
  const room = width - report.phase.length - 2;
  const full = Math.min(30, room - widestFull);
  if (report.total > 0 && full >= 10) {
    return cut(
      `${report.phase} ${bar(report.done / report.total, full)} ${
        [done, ...rateAndEta, errors].join(FIELD_GAP)
      }`,
      width,
    );
  }
  const short = Math.min(30, room - widestShort);
  if (report.total > 0 && short >= 10) {
    return cut(
      `${report.phase} ${bar(report.done / report.total, short)} ${[done, errors].join(FIELD_GAP)}`,
      width,
    );
  }
  return cut(`${report.phase} ${[done, ...rateAndEta, errors].join(FIELD_GAP)}`, width);
}

function cut(line: string, width: number): string {
  return line.length > width ? line.slice(0, width) : line;
}

/** A line for logs: `importing: 40/100 rows (40%), 12 rows/s, ETA 0:05, 0 errors`; `1 row`, `1 error`. */
export function plainLine(report: ProgressReport, perSecond: number | undefined): string {
  // With a total, the noun goes with it: `0/1 row`, as in "0 of 1 row".
  const count = report.total === undefined
    ? counted(report.done, "row")
    : `${report.done}/${counted(report.total, "row")} (${percent(report.done, report.total)}%)`;
  const parts = [
    count,
    ...(perSecond === undefined ? [] : [`${formatRate(perSecond)} rows/s`]),
    ...etaPart(report, perSecond),
    counted(report.errors, "error"),
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

/** The time left at the rate of the moment (`0:05`); undefined without a total or a rate above zero. */
function timeLeft(
  report: ProgressReport,
  perSecond: number | undefined,
  format = formatDuration,
): string | undefined {
  if (report.total === undefined || perSecond === undefined || perSecond <= 0) return undefined;
  return format(Math.max(0, report.total - report.done) / perSecond);
}

function etaPart(report: ProgressReport, perSecond: number | undefined): string[] {
  const left = timeLeft(report, perSecond);
  return left === undefined ? [] : [`ETA ${left}`];
}

function formatRate(perSecond: number): string {
  return perSecond >= 10 ? String(Math.round(perSecond)) : perSecond.toFixed(1);
}

/** `0:00:05`, `0:12:30`, `1:02:03`: always hours, minutes and seconds, so the width holds below ten hours. */
function clockTime(seconds: number): string {
  const duration = formatDuration(seconds);
  return duration.length < ETA_WIDTH ? `0:${duration.padStart(5, "0")}` : duration;
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
