/**
 * Builds govcat's single-file bundle, `dist/govcat.js`, run with `deno run dist/govcat.js …` anywhere with
 * nothing else around it. Run by `deno task bundle`:
 *
 * ```sh
 * deno task bundle                       # dist/govcat.js
 * deno task bundle --output=/tmp/g.js
 * deno task bundle --no-minify           # the rewritten code, readable
 * ```
 *
 * `deno bundle`'s output is rewritten so it starts as fast as `deno run main.ts` (lazy `node:` built-ins,
 * a deferred entry, a cold scope), then minified with names kept and ASCII only.
 *
 * Design: docs/design/fast-start.md
 *
 * @module
 */
import { deferEntry } from "./bundle_entry.ts";
import { coldScope, type ColdScopeReport } from "./cold_scope.ts";
import { lazyBuiltins, type LazyBuiltinsReport } from "./lazy_builtins.ts";

/** Where `deno task bundle` writes. */
export const DEFAULT_OUTPUT = "dist/govcat.js";

/** The `deno bundle` arguments of the first pass: the plain bundle of `entry`, written to `output`. */
export function bundleArgs(output: string, entry = "main.ts"): string[] {
  return ["bundle", "--quiet", "--platform=deno", `--output=${output}`, entry];
}

/**
 * The `deno bundle` arguments of the second pass, which minifies the rewritten bundle `input`. Bare
 * specifiers the first pass left as dynamic imports (optional peers of npm packages, such as `kerberos`)
 * stay external, as they were.
 */
export function minifyArgs(input: string, output: string, externals: string[] = []): string[] {
  return [
    "bundle",
    "--quiet",
    "--platform=deno",
    "--no-config",
    "--minify",
    "--keep-names",
    ...externals.map((name) => `--external=${name}`),
    `--output=${output}`,
    input,
  ];
}

/** The bare specifiers of literal dynamic imports (`import("kerberos")`), which the first pass kept. */
export function bareDynamicImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/\bimport\("([^"]+)"\)/g)) {
    const specifier = match[1];
    if (!/^(?:\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier)) found.add(specifier);
  }
  return [...found].sort();
}

/** What a build did. */
export interface BundleReport {
  builtins: LazyBuiltinsReport;
  scope: ColdScopeReport;
  /** Size of the written file, in bytes. */
  bytes: number;
}

/** Options of {@link buildBundle}. */
export interface BuildOptions {
  /** The repository root, where `entry` is; the current directory when absent. */
  cwd?: string;
  entry?: string;
  /** The modules the fast start evaluates, kept out of the cold scope (default: `HOT_ROOTS`). */
  hotRoots?: string[];
  /** Skips the second pass (for looking at the rewritten code). */
  minify?: boolean;
}

/**
 * Bundles `main.ts` into `output` (an absolute path, or relative to `cwd`) for a fast start; throws with
 * deno's message when a pass fails, or when the output is not what a lazy start needs.
 */
export async function buildBundle(output: string, options: BuildOptions = {}): Promise<BundleReport> {
  const target = resolve(output, options.cwd);
  const slash = target.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(target.slice(0, slash), { recursive: true });
  const work = await Deno.makeTempDir({ prefix: "govcat-bundle-build-" });
  try {
    const raw = `${work}/raw.js`;
    await denoBundle(bundleArgs(raw, options.entry), options.cwd);
    const builtins = lazyBuiltins(await Deno.readTextFile(raw));
    const split = coldScope(deferEntry(builtins.code, options.entry), {
      entry: options.entry,
      roots: options.hotRoots,
    });
    if (options.minify === false) await Deno.writeTextFile(target, asciiOnly(split.code));
    else {
      const input = `${work}/rewritten.js`;
      const minified = `${work}/minified.js`;
      await Deno.writeTextFile(input, split.code);
      await denoBundle(minifyArgs(input, minified, bareDynamicImports(split.code)), work);
      await Deno.writeTextFile(target, asciiOnly(await Deno.readTextFile(minified)));
    }
    checkLazyStart(await Deno.readTextFile(target));
    return { builtins: builtins.report, scope: split.report, bytes: (await Deno.stat(target)).size };
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/**
 * `code` with every character outside ASCII written as a `\uXXXX` escape. A source with a single such
 * character is handed to V8 as a two-byte string, which makes loading govcat's 2 MB about 5 ms slower.
 * The escape means the same character in a string, a template, a regular expression, an identifier or a
 * comment; only a tagged template's raw text would differ, and the bundle has none with such characters.
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Throws if `code` imports a built-in statically, which would load it before the first line. */
export function checkLazyStart(code: string): void {
  const found = /\bimport\s*(?:[\w$]+\s*,?\s*)?(?:\*\s*as\s*[\w$]+|\{[^}]*\})?\s*(?:from\s*)?"node:[^"]+"/
    .exec(code);
  if (found) throw new Error(`the bundle still imports a built-in statically: ${found[0]}`);
}

async function denoBundle(args: string[], cwd?: string): Promise<void> {
  const result = await new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "inherit",
    stderr: "piped",
  })
    .output();
  if (!result.success) {
    throw new Error(`deno ${args.join(" ")} failed:\n${new TextDecoder().decode(result.stderr).trim()}`);
  }
}

function resolve(path: string, cwd?: string): string {
  if (path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path)) return path;
  return `${cwd ?? Deno.cwd()}/${path}`;
}

async function main(args: string[]): Promise<number> {
  let output = DEFAULT_OUTPUT;
  let minify = true;
  for (const arg of args) {
    if (arg.startsWith("--output=")) output = arg.slice("--output=".length);
    else if (arg === "--no-minify") minify = false;
    else {
      console.error(
        `unknown argument ${arg}\nusage: deno task bundle [--output=${DEFAULT_OUTPUT}] [--no-minify]`,
      );
      return 2;
    }
  }
  try {
    const report = await buildBundle(output, { minify });
    console.error(
      `wrote ${output} (${Math.round(report.bytes / 1024)} KiB): ${report.builtins.imports} node: imports ` +
        `load on first use; ${report.scope.hot} modules at the top level, ${report.scope.cold} in the cold scope`,
    );
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
