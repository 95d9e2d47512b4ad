/**
 * `deno task test:unit` and `deno task test:e2e`: the suite in two parts. A unit test runs inside the test
 * process with no network and no child process; everything else (the emulator over HTTP, MCP clients and
 * servers, subprocesses of `main.ts`, contract checks) is end to end. A test file is end to end when it, or
 * a helper of `tests/` it imports, starts a server, a process or a worker, or imports the emulator. The
 * unit part runs without `--allow-net` and `--allow-run`, so a file put there by mistake fails at once
 * instead of quietly making the fast part slow.
 *
 * @example
 * ```ts
 * import { testSets } from "./test_sets.ts";
 * const { unit, e2e } = await testSets();
 * console.log(unit.length, e2e.length);
 * ```
 *
 * @module
 */
import { importedSpecifiers, resolvedPath } from "./module_imports.ts";
import { projectFiles } from "./project_files.ts";

const ROOT = new URL("../", import.meta.url);

/** What makes a module end to end: a listener, a connection, a process, a worker, the emulator. */
const REACHES_OUT = [
  /\bDeno\.(?:serve|listen|listenTls|connect|connectTls|Command|run)\b/,
  /\bnew Worker\(/,
  /\bfetch\(/,
  /["']node:(?:child_process|net|http|https)["']/,
  /\/lib\/emulator\/(?:mod|server)\.ts["']/,
  /\/cli\/launcher_watch\.ts["']/,
];

/** Folders whose tests are end to end as a whole. */
const E2E_FOLDERS = ["tests/e2e/", "tests/contract/"];

/** Whether `source` (of a module of `tests/`) reaches out itself. */
export function reachesOut(source: string): boolean {
  return REACHES_OUT.some((pattern) => pattern.test(source));
}

/** The modules of `tests/` that `path` imports, as paths from the project root. */
function testImports(path: string, source: string): string[] {
  return importedSpecifiers(source).map((specifier) => resolvedPath(path, specifier))
    .filter((target) => target.startsWith("tests/"));
}

/** Every test file of the suite, split into unit and end-to-end files, each list sorted. */
export async function testSets(): Promise<{ unit: string[]; e2e: string[] }> {
  const verdicts = new Map<string, boolean>();
  const isEndToEnd = async (path: string, seen: Set<string>): Promise<boolean> => {
    const known = verdicts.get(path);
    if (known !== undefined) return known;
    if (seen.has(path)) return false;
    seen.add(path);
    let source: string;
    try {
      source = await Deno.readTextFile(new URL(path, ROOT));
    } catch {
      return false;
    }
    let verdict = reachesOut(source);
    for (const imported of testImports(path, source)) {
      if (verdict) break;
      verdict = await isEndToEnd(imported, seen);
    }
    verdicts.set(path, verdict);
    return verdict;
  };
  const unit: string[] = [];
  const e2e: string[] = [];
  for (const path of await projectFiles("tests", ["_test.ts"])) {
    const whole = E2E_FOLDERS.some((folder) => path.startsWith(folder));
    (whole || await isEndToEnd(path, new Set()) ? e2e : unit).push(path);
  }
  return { unit, e2e };
}

if (import.meta.main) {
  const which = Deno.args[0];
  if (which !== "unit" && which !== "e2e") {
    console.error("usage: deno run -A tools/test_sets.ts unit|e2e [deno test options]");
    Deno.exit(2);
  }
  // Options for `deno test`, after the `--` a task runner may pass on.
  const options = Deno.args.slice(1).filter((arg, i) => !(i === 0 && arg === "--"));
  const sets = await testSets();
  const permissions = which === "unit"
    ? ["--allow-read", "--allow-write", "--allow-env", "--allow-sys"]
    : ["--allow-all"];
  const command = new Deno.Command(Deno.execPath(), {
    args: ["test", "--parallel", ...permissions, ...options, ...sets[which]],
    cwd: ROOT.pathname,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  });
  Deno.exit((await command.output()).code);
}
