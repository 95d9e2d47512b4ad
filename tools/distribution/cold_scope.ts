/**
 * Splits a `deno bundle` output (not minified, after `lazy_builtins.ts` and `bundle_entry.ts`) into the
 * modules the fast start needs and the rest, and moves the rest into one function, the cold scope, that
 * runs the first time a dynamic import needs one of its modules.
 *
 * Design: docs/design/fast-start.md
 *
 * @module
 */
import {
  applyEdits,
  dynamicSites,
  type Edit,
  reachedModules,
  type Section,
  sections,
  wrappers,
} from "./bundle_sections.ts";

/**
 * The modules whose evaluation must not need the cold scope: the stdio fast start of `govcat serve`, and
 * what `govcat --version` prints.
 */
export const HOT_ROOTS = ["cli/serve_fast.ts", "lib/core/version.ts"];

/** What the split did. */
export interface ColdScopeReport {
  /** Modules left at the top level. */
  hot: number;
  /** Modules moved into the cold scope. */
  cold: number;
  /** Modules kept hot because hot code names their init or namespace outside a dynamic import. */
  keptHot: string[];
}

/** esbuild's handles on lazy modules, the only names by which code can reach another lazy module. */
const MODULE_HANDLE = /(?<![\w$.])(?:(?:init|require)_[\w$]+|[\w$]+_exports)\b/g;

type Wrappers = ReturnType<typeof wrappers>;

/**
 * Moves every module that the fast start (`roots`) does not reach into the cold scope. `entry` is the
 * bundle's entry section (`main.ts`), which stays last and hot.
 */
export function coldScope(
  code: string,
  options: { entry?: string; roots?: string[] } = {},
): { code: string; report: ColdScopeReport } {
  const entry = options.entry ?? "main.ts";
  const found = wrappers(code);
  const list = lazySections(code, found, entry);
  const initOf = new Map([...found.inits].map(([name, path]) => [path, name]));
  const rootInits = (options.roots ?? HOT_ROOTS).map((path) => {
    const init = initOf.get(path);
    if (!init) throw new Error(`cold scope: ${path} is not a lazy module of the bundle`);
    return init;
  });
  const hot = reachedModules(code, list, found, rootInits).add(entry);
  const keptHot = keepNamedModulesHot(code, list, found, hot);
  const cold = list.filter((section) => !hot.has(section.path));
  const edits = coldScopeEdits(code, list, hot, cold, initOf);
  return {
    code: applyEdits(code, edits),
    report: { hot: list.length - cold.length, cold: cold.length, keptHot },
  };
}

/** The bundle's module sections, checked: each is a lazy module but the last, which is `entry`. */
function lazySections(code: string, found: Wrappers, entry: string): Section[] {
  const list = sections(code);
  if (list[list.length - 1]?.path !== entry) {
    throw new Error(`cold scope: the bundle does not end with ${entry}`);
  }
  const lazyPaths = new Set([...found.initBodies.keys(), ...found.requires.values()]);
  for (const section of list) {
    // Only the entry runs at load. A module main.ts imported statically would too (and would slow every
    // start); a header-like line that is no module (in a template literal) would split a module's code.
    if (section.path !== entry && !lazyPaths.has(section.path)) {
      throw new Error(
        `cold scope: "// ${section.path}" starts no lazy module; ${entry} must import modules with import()`,
      );
    }
  }
  return list;
}

/** A section's code without its dynamic imports (which are rewritten, so they keep nothing hot). */
function withoutSites(code: string, section: Section): string {
  const text = code.slice(section.start, section.end);
  return dynamicSites(text).reduceRight((t, s) => t.slice(0, s.start) + t.slice(s.end), text);
}

/**
 * A hot module that names a cold module's init or namespace other than in a dynamic import keeps that
 * module hot, with what it reaches: added to `hot`, and returned in the order they were found.
 */
function keepNamedModulesHot(code: string, list: Section[], found: Wrappers, hot: Set<string>): string[] {
  const initOf = new Map([...found.inits].map(([name, path]) => [path, name]));
  const handles = new Map<string, string>();
  for (const [name, path] of [...found.inits, ...found.requires]) handles.set(name, path);
  for (const section of list) {
    const exports = /^var ([\w$]+_exports) = \{\};$/m.exec(code.slice(section.start, section.end));
    if (exports) handles.set(exports[1], section.path);
  }
  const keptHot: string[] = [];
  let pending = [
    code.slice(0, list[0]?.start ?? 0),
    ...list.filter((s) => hot.has(s.path)).map((s) => withoutSites(code, s)),
  ];
  while (pending.length > 0) {
    const named = pending.flatMap((text) => [...text.matchAll(MODULE_HANDLE)].map((m) => handles.get(m[0])));
    pending = [];
    for (const path of named) {
      if (path === undefined || hot.has(path)) continue;
      const init = initOf.get(path) ?? [...found.requires].find(([, p]) => p === path)?.[0];
      for (const reached of reachedModules(code, list, found, init ? [init] : [])) {
        if (hot.has(reached)) continue;
        hot.add(reached);
        keptHot.push(reached);
        pending.push(withoutSites(code, list.find((s) => s.path === reached)!));
      }
    }
  }
  return keptHot;
}

/**
 * The edits that move the `cold` sections into the scope (inserted before the entry, the last section)
 * and point hot code's dynamic imports of cold modules at it.
 */
function coldScopeEdits(
  code: string,
  list: Section[],
  hot: Set<string>,
  cold: Section[],
  initOf: Map<string, string>,
): Edit[] {
  const coldInits = new Set(cold.map((s) => initOf.get(s.path)).filter((name) => name !== undefined));
  const exported = new Set<string>();
  const edits: Edit[] = [];
  for (const section of list.filter((s) => hot.has(s.path))) {
    for (const site of dynamicSites(code.slice(section.start, section.end), section.start)) {
      if (!coldInits.has(site.init)) continue;
      exported.add(site.init).add(site.exports);
      edits.push({
        start: site.promiseEnd,
        end: site.end,
        text: `.then(() => (__govcat_cold().${site.init}(), __govcat_cold().${site.exports}))`,
      });
    }
  }
  for (const section of cold) edits.push({ start: section.start, end: section.end, text: "" });
  const scope = [
    "/* govcat: the modules the fast start does not need (tools/distribution/cold_scope.ts) */",
    "var __govcat_coldScope = {};",
    "__govcat_coldScope.__govcat_cold_scope = function () {",
    ...cold.map((section) => code.slice(section.start, section.end)),
    `return { ${[...exported].sort().map((name) => `${name}: ${name}`).join(", ")} };`,
    "};",
    "var __govcat_coldParts;",
    "function __govcat_cold() {",
    "  return __govcat_coldParts ??= __govcat_coldScope.__govcat_cold_scope();",
    "}",
    "",
  ].join("\n");
  const last = list[list.length - 1];
  edits.push({ start: last.start, end: last.start, text: scope });
  return edits;
}
