/**
 * The command line's progress display, driven by a fake clock with everything it writes collected: the
 * redrawn terminal line and its throttle, its layout that stays put as the numbers grow, the plain lines
 * of `--progress` off a terminal, the log lines of long jobs otherwise, the moving rate and the time left, and `1 row`.
 */
import assert from "node:assert/strict";
import {
  createTerminalProgress,
  formatDuration,
  LOG_INTERVAL_MS,
  PLAIN_INTERVAL_MS,
  plainLine,
  progressLine,
  REDRAW_INTERVAL_MS,
  type TerminalProgressOptions,
} from "../../cli/progress.ts";

function setup(options: Partial<TerminalProgressOptions> = {}) {
  const writes: string[] = [];
  const clock = { t: 0 };
  const progress = createTerminalProgress({
    write: (text) => writes.push(text),
    isTerminal: true,
    now: () => clock.t,
    ...options,
  });
  return { writes, clock, progress };
}

/** What a redraw shows, without the carriage return and the clear-to-end escape. */
function shown(write: string): string {
  assert.ok(write.startsWith("\r"), JSON.stringify(write));
  assert.ok(write.endsWith("\x1b[K"), JSON.stringify(write));
  return write.slice(1, -3);
}

Deno.test("on a terminal: one line redrawn at most ten times a second, cleared on finish", () => {
  const { writes, clock, progress } = setup({ columns: 100 });
  // A report every 10 ms for two seconds, 100 rows a second.
  for (let i = 0; i <= 200; i++) {
    clock.t = i * 10;
    progress.update({ phase: "importing", done: i, total: 400, errors: i >= 150 ? 2 : 0 });
  }
  assert.ok(writes.length <= 21 && writes.length >= 19, `${writes.length} redraws in 2 s`);
  for (const write of writes) assert.ok(!write.includes("\n"), "the line is redrawn, never scrolled");
  const last = shown(writes.at(-1)!);
  assert.match(last, /^importing \[#{14}\.{14}\] 200\/400 {2}100 rows\/s {2}ETA 0:00:02 {2}2 errors$/);
  assert.ok(last.length <= 99, "shorter than the terminal is wide");
  assert.equal(shown(writes[0]), `importing [${".".repeat(28)}]   0/400    - rows/s  ETA -:--:--  0 errors`);

  progress.finish();
  assert.equal(writes.at(-1), "\r\x1b[K", "finish clears the line");
  const count = writes.length;
  progress.finish();
  assert.equal(writes.length, count, "a second finish writes nothing");
});

Deno.test("on a terminal: a new phase is drawn at once; clear() steps aside for other output", () => {
  const { writes, clock, progress } = setup();
  progress.update({ phase: "validating", done: 10, total: 10, errors: 0 });
  clock.t = REDRAW_INTERVAL_MS / 2;
  progress.update({ phase: "importing", done: 0, total: 10, errors: 0 });
  assert.equal(writes.length, 2);
  assert.match(shown(writes[1]), /^importing /);
  progress.clear();
  assert.equal(writes.at(-1), "\r\x1b[K");
  progress.clear();
  assert.equal(writes.length, 3, "nothing to clear twice");
  clock.t += 1;
  progress.update({ phase: "importing", done: 1, total: 10, errors: 0 });
  assert.equal(writes.length, 4, "redrawn at once after being cleared");
  progress.finish();
  assert.equal(writes.length, 5);
});

Deno.test("the line fits narrow terminals: the rate and time left go first, then the bar, then the text is cut", () => {
  const report = { phase: "importing", done: 1234, total: 5000, errors: 3 };
  const wide = progressLine(report, 250, 119);
  assert.equal(
    wide,
    `importing [${"#".repeat(7)}${".".repeat(21)}] 1234/5000   250 rows/s  ETA 0:00:16  3 errors`,
  );
  const narrow = progressLine(report, 250, 60);
  assert.equal(narrow, `importing [${"#".repeat(6)}${".".repeat(19)}] 1234/5000  3 errors`);
  assert.equal(progressLine(report, 250, 40), "importing 1234/5000   250 rows/s  ETA 0:");
  assert.equal(progressLine(report, 250, 30), "importing 1234/5000   250 rows");
  assert.equal(
    progressLine({ phase: "reading", done: 42, errors: 1 }, 2.5, 79),
    "reading 42 rows  2.5 rows/s  1 error",
    "no total: no bar and no time left",
  );
});

Deno.test("not a terminal: a plain line every log interval once a job has run that long", () => {
  const { writes, clock, progress } = setup({ isTerminal: false });
  // A short job says nothing: its summary is enough.
  const report = (i: number) => ({ phase: "importing", done: i * 10, total: 10_000, errors: 0 });
  for (let i = 0; i < 140; i++, clock.t += 100) progress.update(report(i));
  assert.deepEqual(writes, []);
  // A long one (CI logs, a service) shows it is alive: rows, rate and time left, every LOG_INTERVAL_MS.
  for (let i = 140; i <= 460; i++, clock.t += 100) progress.update(report(i));
  assert.equal(LOG_INTERVAL_MS, 15_000);
  assert.equal(writes.length, 3, writes.join(""));
  assert.match(writes[0], /^importing: 1500\/10000 rows \(15%\), 100 rows\/s, ETA 1:25, 0 errors\n$/);
  assert.match(writes[2], /^importing: 4500\/10000 rows/);
  progress.finish();
  // The next job starts quiet again.
  clock.t += 60_000;
  progress.update({ phase: "importing", done: 1, errors: 0 });
  assert.equal(writes.length, 3);
});

Deno.test("never with mode never", () => {
  for (
    const options of [{ isTerminal: false, mode: "never" as const }, {
      isTerminal: true,
      mode: "never" as const,
    }]
  ) {
    const { writes, clock, progress } = setup(options);
    for (let i = 0; i < 100; i++, clock.t += 1000) {
      progress.update({ phase: "importing", done: i, errors: 0 });
    }
    progress.clear();
    progress.finish();
    assert.deepEqual(writes, [], JSON.stringify(options));
  }
});

Deno.test("--progress off a terminal: a plain line at most every five seconds", () => {
  const { writes, clock, progress } = setup({ isTerminal: false, mode: "always" });
  // Twelve seconds, a report every 100 ms, 50 rows a second.
  for (let i = 0; i <= 120; i++) {
    clock.t = i * 100;
    progress.update({ phase: "importing", done: i * 5, total: 1000, errors: 0 });
  }
  assert.deepEqual(writes, [
    "importing: 0/1000 rows (0%), 0 errors\n",
    "importing: 250/1000 rows (25%), 50 rows/s, ETA 0:15, 0 errors\n",
    "importing: 500/1000 rows (50%), 50 rows/s, ETA 0:10, 0 errors\n",
  ]);
  assert.equal(PLAIN_INTERVAL_MS, 5000);
  progress.finish();
  assert.equal(writes.length, 3, "plain lines need no clearing");
});

Deno.test("the rate follows the recent speed, not the average since the start", () => {
  const { writes, clock, progress } = setup({ isTerminal: false, mode: "always" });
  let done = 0;
  // Ten seconds at 100 rows/s, then twenty at 10 rows/s.
  for (let step = 1; step <= 300; step++) {
    clock.t = step * 100;
    done += step <= 100 ? 10 : 1;
    progress.update({ phase: "importing", done, total: 5000, errors: 0 });
  }
  const rates = writes.map((line) => Number(/, ([\d.]+) rows\/s/.exec(line)?.[1]));
  assert.equal(rates.at(-1), 10, writes.at(-1));
  assert.ok(rates.some((r) => r === 100), "the early lines show the early speed");
  assert.equal(
    plainLine({ phase: "x", done: 0, total: 0, errors: 0 }, undefined),
    "x: 0/0 rows (100%), 0 errors",
  );
});

Deno.test("durations read as m:ss or h:mm:ss", () => {
  assert.equal(formatDuration(0), "0:00");
  assert.equal(formatDuration(4.2), "0:05");
  assert.equal(formatDuration(750), "12:30");
  assert.equal(formatDuration(3723), "1:02:03");
});

Deno.test("a job's summary line is written on terminals and in plain mode, not with mode never", () => {
  for (
    const [isTerminal, mode, expected] of [
      [true, "auto", true],
      [false, "auto", true],
      [false, "never", false],
    ] as const
  ) {
    const written: string[] = [];
    const progress = createTerminalProgress({ write: (t) => written.push(t), isTerminal, mode });
    progress.summary?.("entity.bulk-import: 3 rows, 3 created");
    assert.equal(written.includes("entity.bulk-import: 3 rows, 3 created\n"), expected);
  }
});

/** Where each field of a drawn line starts: the bar's brackets, the slash of done/total, the rate, ETA. */
function columnsOf(line: string) {
  return {
    barStart: line.indexOf("["),
    barEnd: line.indexOf("]"),
    slash: line.indexOf("/"),
    rate: line.indexOf(" rows/s"),
    eta: line.indexOf("ETA"),
    errors: line.search(/\d+ errors?$/),
  };
}

/**
 * An import of `total` rows drawn on a terminal `columns` wide: the rate unknown at first, then slow
 * (under 10 rows a second, shown with a decimal), then fast, errors from none to many; every redraw.
 */
function importDrawn(total: number, columns: number): string[] {
  const { writes, clock, progress } = setup({ columns });
  let done = 0;
  for (let step = 0; done < total; step++) {
    clock.t = step * 100;
    done = Math.min(total, done + (step < 40 ? 0.5 : step < 80 ? 5 : 50));
    const errors = done < total * 0.3 ? 0 : done < total * 0.5 ? 1 : Math.floor(done / 10);
    progress.update({ phase: "importing", done: Math.floor(done), total, errors });
  }
  return writes.map(shown);
}

Deno.test("on a terminal: the layout stays put as the numbers grow; the line never exceeds the width", () => {
  for (const total of [100, 1000, 123_456]) {
    const lines = importDrawn(total, 80);
    assert.ok(lines.length > 20, `${lines.length} redraws`);
    // The numbers really do grow from one digit to the total's, and the rate and time left show up.
    assert.match(lines[0], / 0\/\d+ +- rows\/s {2}ETA -:--:-- {2}0 errors$/);
    for (
      const [pattern, what] of [
        [/ \d\.\d rows\/s/, "a slow rate, with a decimal"],
        [/ \d{2,} rows\/s/, "a fast one"],
        [/ETA \d:\d\d:\d\d/, "a time left"],
        [/ 1 error$/, "one error"],
        [/ \d{2,} errors$/, "many errors"],
      ] as const
    ) assert.ok(lines.some((line) => pattern.test(line)), `${total}: ${what}`);
    assert.match(lines.at(-1)!, new RegExp(` ${total}/${total} `));
    const first = columnsOf(lines[0]);
    assert.ok(first.barStart > 0 && first.barEnd > first.barStart + 10, lines[0]);
    for (const line of lines) {
      assert.ok(line.length <= 79, `${line.length} columns: ${line}`);
      const at = columnsOf(line);
      assert.deepEqual(at, first, `a field moved:\n${lines[0]}\n${line}`);
    }
  }
});

Deno.test("on a narrow terminal: the bar is left out from the start, not dropped as the numbers grow", () => {
  for (const columns of [40, 60, 72]) {
    const lines = importDrawn(5000, columns);
    const withBar = lines.filter((line) => line.includes("["));
    assert.ok(
      withBar.length === 0 || withBar.length === lines.length,
      `${columns}: ${withBar.length}/${lines.length}`,
    );
    const slashes = new Set(lines.map((line) => line.indexOf("/")));
    assert.equal(slashes.size, 1, `${columns}: done/total stays put`);
    for (const line of lines) assert.ok(line.length <= columns - 1, `${columns}: ${line}`);
  }
});

Deno.test("one row is one row, one error one error: terminal and plain lines", () => {
  assert.equal(
    progressLine({ phase: "reading", done: 1, errors: 1 }, undefined, 79),
    "reading 1 row  1 error",
  );
  assert.equal(
    progressLine({ phase: "reading", done: 2, errors: 0 }, 1.5, 79),
    "reading 2 rows  1.5 rows/s  0 errors",
  );
  assert.match(
    progressLine({ phase: "importing", done: 1, total: 1, errors: 1 }, 2, 79),
    / 1\/1 .* 1 error$/,
  );
  assert.equal(plainLine({ phase: "reading", done: 1, errors: 1 }, undefined), "reading: 1 row, 1 error");
  assert.equal(plainLine({ phase: "reading", done: 0, errors: 2 }, undefined), "reading: 0 rows, 2 errors");
  assert.equal(
    plainLine({ phase: "importing", done: 0, total: 1, errors: 0 }, undefined),
    "importing: 0/1 row (0%), 0 errors",
  );
  assert.equal(
    plainLine({ phase: "importing", done: 1, total: 2, errors: 1 }, undefined),
    "importing: 1/2 rows (50%), 1 error",
  );
});
