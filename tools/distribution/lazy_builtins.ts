/**
 * Makes the `node:` built-ins of a `deno bundle` output load when the code that uses them first runs,
 * as they do for `deno run main.ts`, instead of all at once before the bundle's first line. Anything that
 * does not match the shapes esbuild prints fails the build.
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
  sectionAt,
  sections,
  wrappers,
} from "./bundle_sections.ts";

/** One hoisted import statement: `import def, { a as b } from "node:x"` is `node:x` with two bindings. */
export interface BuiltinImport {
  specifier: string;
  /** Local name and what it takes: `default`, `*` (the namespace) or an export's name. */
  bindings: Array<{ local: string; imported: string }>;
}

const IMPORT_LINE = /^import (.+) from "(node:[^"]+)";$/;
const BARE_IMPORT_LINE = /^import "(node:[^"]+)";$/;
const REQUIRE_CALL = /\b__require\("(node:[^"]+)"\)/g;
const CREATE_REQUIRE_IMPORT =
  'import { createRequire as __deno_internal_createRequire } from "node:module";\n';
const CREATE_REQUIRE_CALL = "var __require = __deno_internal_createRequire(import.meta.url);\n";

/** Parses the clause of `import CLAUSE from "node:x"` as esbuild prints it; undefined if unusual. */
export function parseImportClause(clause: string): BuiltinImport["bindings"] | undefined {
  const match = /^(?:([\w$]+)(?:, |$))?(?:\* as ([\w$]+)|\{ ([^{}]*) \})?$/.exec(clause);
  if (!match || (!match[1] && !match[2] && match[3] === undefined)) return undefined;
  const bindings: BuiltinImport["bindings"] = [];
  if (match[1]) bindings.push({ local: match[1], imported: "default" });
  if (match[2]) bindings.push({ local: match[2], imported: "*" });
  for (const part of match[3]?.split(", ") ?? []) {
    const named = /^([\w$]+)(?: as ([\w$]+))?$/.exec(part);
    if (!named) return undefined;
    bindings.push({ local: named[2] ?? named[1], imported: named[1] });
  }
  return bindings;
}

/** The runtime the rewritten bundle starts with: the built-in cache, the preload and the sync lookup. */
const PRELUDE = `/* govcat: node built-ins load on first use (tools/distribution/lazy_builtins.ts) */
var __govcat_builtins = new Map();
function __govcat_preload(specifiers) {
  const pending = [];
  for (const specifier of specifiers) {
    if (__govcat_builtins.has(specifier)) continue;
    pending.push(import(specifier).then((namespace) => {
      __govcat_builtins.set(specifier, { namespace, exports: namespace.default });
    }));
  }
  return Promise.all(pending);
}
function __govcat_builtin(specifier) {
  let module = __govcat_builtins.get(specifier);
  if (!module) {
    const exports = globalThis.process.getBuiltinModule(specifier);
    if (exports === undefined) {
      const error = new Error(\`Cannot find module '\${specifier}'\`);
      error.code = "MODULE_NOT_FOUND";
      throw error;
    }
    module = { namespace: exports, exports };
    __govcat_builtins.set(specifier, module);
  }
  return module;
}
var __require = (specifier) => __govcat_builtin(specifier).exports;
`;

/** The `var` bindings of one import statement and the function that assigns them, in its place. */
function binder(name: string, specifier: string, bindings: BuiltinImport["bindings"]): string {
  const declared = bindings.length > 0 ? `var ${bindings.map((b) => b.local).join(", ")};\n` : "";
  const assignments = bindings.map(({ local, imported }) => {
    const value = imported === "*"
      ? "module.namespace"
      : imported === "default"
      ? "module.exports"
      : `module.namespace.${imported}`;
    return `  ${local} = ${value};\n`;
  });
  return `${declared}function ${name}() {\n  const module = __govcat_builtin(${
    JSON.stringify(specifier)
  });\n${assignments.join("")}}`;
}

/** What the rewrite did, for the build's log and its tests. */
export interface LazyBuiltinsReport {
  /** Import statements made lazy. */
  imports: number;
  /** Dynamic-import sites that preload: the init they call, with the built-ins they preload. */
  sites: Array<{ init: string; specifiers: string[] }>;
}

/**
 * Rewrites a `deno bundle --platform=deno` output (not minified) so its `node:` built-ins load lazily;
 * throws when the code does not have the shapes this relies on.
 */
export function lazyBuiltins(code: string): { code: string; report: LazyBuiltinsReport } {
  const list = sections(code);
  const found = wrappers(code);
  // esbuild writes its createRequire prelude when CommonJS code needs `require`; the runtime replaces it.
  const requirePrelude = code.indexOf(CREATE_REQUIRE_IMPORT);
  const requireCall = code.indexOf(CREATE_REQUIRE_CALL);
  if ((requirePrelude < 0) !== (requireCall < 0)) {
    throw new Error("lazy built-ins: esbuild's createRequire prelude has an unexpected shape");
  }
  const runtimeAt = list[0]?.start ?? code.length;
  const edits: Edit[] = requirePrelude < 0 ? [{ start: runtimeAt, end: runtimeAt, text: `${PRELUDE}\n` }] : [
    { start: requirePrelude, end: requirePrelude + CREATE_REQUIRE_IMPORT.length, text: "" },
    { start: requireCall, end: requireCall + CREATE_REQUIRE_CALL.length, text: PRELUDE },
  ];

  // Each import statement becomes a binder, called first thing by the init of the module that holds it.
  const bindersByPath = new Map<string, string[]>();
  const builtinsByPath = new Map<string, string[]>();
  let imports = 0;
  let lineStart = 0;
  for (const line of code.split("\n")) {
    // A line of a template literal may start with "import" too; only those naming a built-in count.
    if (line.startsWith("import ") && line.includes('"node:') && lineStart !== requirePrelude) {
      const match = IMPORT_LINE.exec(line);
      const bare = BARE_IMPORT_LINE.exec(line);
      const bindings = match ? parseImportClause(match[1]) : bare ? [] : undefined;
      const owner = sectionAt(list, lineStart)?.path;
      if (!bindings || owner === undefined || !found.initBodies.has(owner)) {
        throw new Error(
          `lazy built-ins: cannot make this import lazy (in ${owner ?? "the prelude"}): ${line}`,
        );
      }
      const specifier = match ? match[2] : bare![1];
      const name = `__govcat_import_${imports++}`;
      edits.push({ start: lineStart, end: lineStart + line.length, text: binder(name, specifier, bindings) });
      bindersByPath.set(owner, [...bindersByPath.get(owner) ?? [], name]);
      builtinsByPath.set(owner, [...builtinsByPath.get(owner) ?? [], specifier]);
    }
    lineStart += line.length + 1;
  }
  for (const [path, names] of bindersByPath) {
    const at = found.initBodies.get(path)!;
    edits.push({ start: at, end: at, text: `    ${names.map((n) => `${n}();`).join(" ")}\n` });
  }
  for (const section of list) {
    const text = code.slice(section.start, section.end);
    const required = [...text.matchAll(REQUIRE_CALL)].map((m) => m[1]);
    if (required.length > 0) {
      builtinsByPath.set(section.path, [...builtinsByPath.get(section.path) ?? [], ...required]);
    }
  }

  // Each dynamic import first imports the built-ins of every module its init reaches, as import() would.
  const sites: LazyBuiltinsReport["sites"] = [];
  for (const site of dynamicSites(code)) {
    if (code.slice(site.start, site.promiseEnd) !== "Promise.resolve()") continue;
    const wanted = new Set<string>();
    for (const path of reachedModules(code, list, found, [site.init])) {
      for (const specifier of builtinsByPath.get(path) ?? []) wanted.add(specifier);
    }
    const specifiers = [...wanted].sort();
    sites.push({ init: site.init, specifiers });
    edits.push({
      start: site.start,
      end: site.promiseEnd,
      text: `__govcat_preload(${JSON.stringify(specifiers)})`,
    });
  }
  return { code: applyEdits(code, edits), report: { imports, sites } };
}
