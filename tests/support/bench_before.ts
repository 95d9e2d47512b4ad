/**
 * "Before" figures for BENCHMARKS.md: the benches of today run against the code of an earlier commit, so
 * the report can show what a change bought. `deno task bench:before COMMIT FILE…` checks COMMIT out in a
 * temporary worktree, copies in each named bench and every support file the old tree lacks, runs them
 * there with `deno bench`, and writes the figures to `tests/support/bench_before.json` (adding to the
 * figures there when they are of the same commit). The report
 * generator (`bench_report.ts`) then shows each of those figures next to its value in the current run.
 *
 * The two runs happen at different times, so values are compared through their ratios to the baseline each
 * run measured itself; the report shows both.
 *
 * @module
 */
import { dirname } from "node:path";
import { type BenchFigure, figureRatio, formatQuantity, formatRatio, tableCell } from "./bench_figures.ts";
import { exists } from "./file_exists.ts";

/** Figures measured against an earlier commit. */
export interface BeforeFigures {
  /** The commit the figures are for (short hash). */
  commit: string;
  /** When they were measured (ISO date and time). */
  measured: string;
  /** The bench files that ran. */
  files: string[];
  figures: BenchFigure[];
}

const ROOT = new URL("../../", import.meta.url).pathname;

/** Where `deno task bench:before` writes and the report reads. */
export const BEFORE_FILE = `${ROOT}tests/support/bench_before.json`;

/** The figures of the last `deno task bench:before`, or undefined when there are none. */
export async function readBefore(path = BEFORE_FILE): Promise<BeforeFigures | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as BeforeFigures;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

function measured(figure: BenchFigure | undefined): string {
  if (!figure) return "not measured";
  const ratio = figureRatio(figure);
  const value = formatQuantity(figure.value, figure.unit);
  return ratio === undefined ? value : `${value} (${formatRatio(ratio, figure.ratioLabel)})`;
}

/** The "Before and after" section: one row per figure measured before, with its value now. */
export function beforeAfterSection(before: BeforeFigures, now: readonly BenchFigure[]): string[] {
  const current = new Map(now.map((figure) => [figure.id, figure]));
  const out = [
    "## Before and after",
    "",
    `The same benches run against commit ${before.commit} (${before.measured.slice(0, 10)}, ` +
    "`deno task bench:before`, see How to run) and in this run. Runs at different times are compared " +
    "through each one's ratio to the baseline it measured itself.",
    "",
    "| Figure | Before | Now | Target | Met now |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const old of before.figures.filter((figure) => !figure.detail)) {
    const figure = current.get(old.id);
    const met = !figure?.target ? "—" : figure.met ? "met" : "**not met**";
    out.push(
      `| ${tableCell(old.name)} | ${tableCell(measured(old))} | ${tableCell(measured(figure))} | ` +
        `${tableCell(figure?.target ?? old.target ?? "—")} | ${met} |`,
    );
  }
  return out;
}

async function git(args: string[], cwd = ROOT): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${text.decode(out.stderr).trim()}`);
  return text.decode(out.stdout).trim();
}

/** Copies the benches, and the support files the old tree lacks, into the old tree. */
async function copyBenches(files: readonly string[], tree: string): Promise<void> {
  for (const file of files) {
    // A bench may sit in a folder the old tree lacks (the emulator's benches moved into area folders).
    await Deno.mkdir(dirname(`${tree}/${file}`), { recursive: true });
    await Deno.copyFile(`${ROOT}${file}`, `${tree}/${file}`);
  }
  for await (const entry of Deno.readDir(`${ROOT}tests/support`)) {
    const target = `${tree}/tests/support/${entry.name}`;
    if (entry.isFile && !await exists(target)) {
      await Deno.copyFile(`${ROOT}tests/support/${entry.name}`, target);
    }
  }
}

async function runOld(tree: string, file: string, figuresFile: string): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "bench",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-read",
      "--allow-write",
      "--allow-run",
      file,
    ],
    cwd: tree,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", GOVCAT_BENCH_FIGURES: figuresFile },
    stdout: "inherit",
    stderr: "inherit",
  });
  return (await child.output()).success;
}

async function main(args: string[]): Promise<number> {
  const [commitArg, ...files] = args;
  if (!commitArg || files.length === 0) {
    console.error("usage: deno task bench:before COMMIT BENCH_FILE…  (e.g. 2efc6a8 tests/e2e/x_bench.ts)");
    return 2;
  }
  const commit = await git(["rev-parse", "--short", `${commitArg}^{commit}`]);
  const tree = await Deno.makeTempDir({ prefix: "govcat-bench-before-" });
  const figuresFile = `${tree}.figures.jsonl`;
  await git(["worktree", "add", "--detach", tree, commit]);
  let ok = true;
  try {
    await copyBenches(files, tree);
    for (const file of files) ok = await runOld(tree, file, figuresFile) && ok;
  } finally {
    await git(["worktree", "remove", "--force", tree]);
  }
  const text = await Deno.readTextFile(figuresFile).catch(() => "");
  await Deno.remove(figuresFile).catch(() => undefined);
  const measuredNow: BenchFigure[] = text.split("\n").filter((line) => line.trim()).map((line) =>
    JSON.parse(line)
  );
  // Another run against the same commit adds to what is there: the benches can be run one at a time.
  const earlier = await readBefore();
  const kept = earlier?.commit === commit
    ? earlier.figures.filter((figure) => !measuredNow.some((now) => now.id === figure.id))
    : [];
  const before: BeforeFigures = {
    commit,
    measured: new Date().toISOString(),
    files: [...new Set([...(earlier?.commit === commit ? earlier.files : []), ...files])],
    figures: [...kept, ...measuredNow],
  };
  const figures = before.figures;
  await Deno.writeTextFile(BEFORE_FILE, JSON.stringify(before, null, 2) + "\n");
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", BEFORE_FILE], cwd: ROOT }).output();
  console.log(`wrote ${BEFORE_FILE}: ${figures.length} figures of ${commit}${ok ? "" : " (a bench failed)"}`);
  return ok ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
