/**
 * Reads the structure of a `deno bundle` (esbuild) output that is not minified, for the rewrites of
 * `lazy_builtins.ts` and `cold_scope.ts`: the section each module's code sits in (after its `// path`
 * header), the `init_x()` and `require_x()` functions that evaluate modules on first use, the dynamic
 * import sites that call them, and which modules a module's evaluation reaches.
 *
 * A module imported through `import()` anywhere becomes, with everything it imports, a lazy module:
 * `var init_x = __esm({ "path"() { …its top-level code… } })`, its functions hoisted beside it. CommonJS
 * packages become `var require_x = __commonJS({ "path"(exports, module) { … } })`. A module's code runs
 * only once its `init_x()` (or `require_x()`) has been called, and it calls the inits of its own imports
 * first, so those calls are the module graph.
 *
 * @module
 */

/** One module's code: from its `// path` header line to the next header. */
export interface Section {
  /** The source path esbuild prints in the header (`cli/run.ts`, `../../root/.cache/deno/npm/…`). */
  path: string;
  start: number;
  end: number;
}

/** A dynamic import of a lazy module: `Promise.resolve().then(() => (init_x(), x_exports))`. */
export interface DynamicSite {
  init: string;
  exports: string;
  start: number;
  end: number;
  /** Where the promise the site starts from (`Promise.resolve()`) ends; it starts at `start`. */
  promiseEnd: number;
}

/** The lazy modules of a bundle. */
export interface Wrappers {
  /** `init_x` → path, for ES modules. */
  inits: Map<string, string>;
  /** `require_x` → path, for CommonJS modules. */
  requires: Map<string, string>;
  /** Path → offset of the first line of an ES module's init body. */
  initBodies: Map<string, number>;
}

const HEADER = /^\/\/ ([^\s@][^\n]*)$/gm;
const ESM_WRAPPER = /^var (init_[\w$]+) = __esm\(\{\n {2}("(?:[^"\\\n]|\\.)*")\(\) \{\n/gm;
const CJS_WRAPPER = /^var (require_[\w$]+) = __commonJS\(\{\n {2}("(?:[^"\\\n]|\\.)*")\(/gm;
/** esbuild's dynamic import of a lazy module, possibly with `Promise.resolve()` already replaced. */
const DYNAMIC_SITE = /([\w$.]+\([^()]*\))\.then\(\(\) => \((init_[\w$]+)\(\), ([\w$]+)\)\)/g;
const MODULE_CALL = /\b((?:init|require)_[\w$]+)\(\)/g;

/** The sections of `code`, in order; code before the first header (esbuild's runtime) is in none. */
export function sections(code: string): Section[] {
  const found: Section[] = [];
  for (const match of code.matchAll(HEADER)) {
    if (found.length > 0) found[found.length - 1].end = match.index;
    found.push({ path: match[1], start: match.index, end: code.length });
  }
  return found;
}

/** The section holding `offset`, if any. */
export function sectionAt(list: Section[], offset: number): Section | undefined {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (list[middle].end <= offset) low = middle + 1;
    else if (list[middle].start > offset) high = middle - 1;
    else return list[middle];
  }
  return undefined;
}

/** The `__esm` and `__commonJS` wrappers of `code`. */
export function wrappers(code: string): Wrappers {
  const inits = new Map<string, string>();
  const initBodies = new Map<string, number>();
  for (const match of code.matchAll(ESM_WRAPPER)) {
    const path = JSON.parse(match[2]) as string;
    inits.set(match[1], path);
    initBodies.set(path, match.index + match[0].length);
  }
  const requires = new Map<string, string>();
  for (const match of code.matchAll(CJS_WRAPPER)) requires.set(match[1], JSON.parse(match[2]) as string);
  return { inits, requires, initBodies };
}

/** The dynamic imports of lazy modules in `code` (from `offset`). */
export function dynamicSites(code: string, offset = 0): DynamicSite[] {
  return [...code.matchAll(DYNAMIC_SITE)].map((match) => ({
    init: match[2],
    exports: match[3],
    start: offset + match.index,
    end: offset + match.index + match[0].length,
    promiseEnd: offset + match.index + match[1].length,
  }));
}

/** Module calls (`init_x()`, `require_x()`) of a stretch of code, leaving out its dynamic imports. */
export function moduleCalls(text: string): string[] {
  return [...text.replace(DYNAMIC_SITE, "").matchAll(MODULE_CALL)].map((match) => match[1]);
}

/**
 * The paths of the modules that evaluating `roots` (init or require names) evaluates, the roots'
 * included: what their code calls, and so on, not counting what they load with `import()`.
 */
export function reachedModules(code: string, list: Section[], found: Wrappers, roots: string[]): Set<string> {
  const byPath = new Map(list.map((section) => [section.path, section]));
  const reached = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const path = found.inits.get(name) ?? found.requires.get(name);
    if (path === undefined || reached.has(path)) continue;
    const section = byPath.get(path);
    if (!section) continue;
    reached.add(path);
    queue.push(...moduleCalls(code.slice(section.start, section.end)));
  }
  return reached;
}

/** A change of `code`: the text between two offsets of the original replaced. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Applies edits that do not overlap (offsets into the original); insertions at one offset keep their order. */
export function applyEdits(code: string, edits: Edit[]): string {
  const sorted = edits.map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index)
    .map(({ edit }) => edit);
  const parts: string[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error(`bundle rewrite: overlapping edits at offset ${edit.start}`);
    parts.push(code.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(code.slice(at));
  return parts.join("");
}
