/**
 * The layers of `lib/` and the folders each may import, as a table, and the check that finds every import
 * the table does not allow. A folder lists only what it may reach directly; the table itself has no
 * cycle, so no chain of imports can point back up. `docs/architecture.md` draws the same table, and a test
 * holds the two equal.
 *
 * @module
 */
import { codeLines, importedSpecifiers, resolvedPath } from "../../tools/module_imports.ts";

/**
 * What each folder of `lib/` may import, lowest layer first. `cli` and the entry points (`main.ts`,
 * `mod.ts`) sit above everything and may import any of it; nothing in `lib/` imports them.
 */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  "lib/deps": [],
  "lib/generated": [],
  "lib/core": ["lib/deps", "deno.json"],
  "lib/net": ["lib/core"],
  "lib/http": ["lib/core"],
  "lib/files": ["lib/core"],
  "lib/config": ["lib/core", "lib/http"],
  "lib/auth": ["lib/core", "lib/deps", "lib/config"],
  "lib/catalog": ["lib/core", "lib/deps", "lib/http", "lib/config", "lib/auth"],
  "lib/csv": ["lib/core", "lib/deps", "lib/files", "lib/http"],
  "lib/lineage": ["lib/core", "lib/catalog", "lib/csv"],
  "lib/templates": ["lib/core", "lib/catalog", "lib/csv", "lib/lineage"],
  "lib/imports": [
    "lib/core",
    "lib/deps",
    "lib/http",
    "lib/files",
    "lib/catalog",
    "lib/csv",
    "lib/lineage",
    "lib/templates",
  ],
  "lib/operations": [
    "lib/core",
    "lib/deps",
    "lib/http",
    "lib/files",
    "lib/config",
    "lib/catalog",
    "lib/csv",
    "lib/lineage",
    "lib/templates",
    "lib/imports",
  ],
  "lib/mcp": [
    "lib/core",
    "lib/deps",
    "lib/http",
    "lib/files",
    "lib/config",
    "lib/auth",
    "lib/catalog",
    "lib/csv",
    "lib/templates",
    "lib/operations",
    "lib/generated",
  ],
  "lib/emulator": ["lib/core", "lib/deps", "lib/net", "lib/config", "lib/catalog", "fixtures"],
};

/**
 * Single imports the folder table does not allow, each with its reason. Keep this short: an entry here is
 * a place where a module's knowledge sits in the wrong layer.
 */
export const IMPORT_EXCEPTIONS: ReadonlyArray<{ from: string; to: string; why: string }> = [
  {
    from: "lib/config/config.ts",
    to: "lib/mcp/toolsets.ts",
    why: "the configuration checks CATALOG_MCP_TOOLSETS against the toolset names, a table that imports " +
      "only lib/core",
  },
];

/**
 * Modules of the front ends that call the catalog's clients themselves instead of through an operation,
 * each with its reason. Every other module of `lib/mcp` and `cli` reaches the catalog through
 * `lib/operations`.
 */
export const DIRECT_CATALOG_CALLERS: Readonly<Record<string, string>> = {
  "lib/mcp/resources.ts": "resources read one object by URI; no operation adds anything to the read",
  "lib/mcp/completions.ts": "completions list names for a prompt argument, bounded and best effort",
  "lib/mcp/change_descriptions.ts": "reads what a confirmed change will touch, to describe it to the user",
};

/** One import the layering forbids. */
export interface LayeringViolation {
  from: string;
  to: string;
  specifier: string;
}

/** The layer of a path from the project root: `lib/<folder>`, `cli`, `tests`, `tools`, or the path itself. */
export function layerOf(path: string): string {
  const parts = path.split("/");
  if (parts[0] === "lib") return parts.length > 2 ? `lib/${parts[1]}` : "lib/(top)";
  if (parts.length === 1) return path;
  return parts[0];
}

/** Every import of `modules` (path from the project root to source) that the layering does not allow. */
export function layeringViolations(modules: ReadonlyMap<string, string>): LayeringViolation[] {
  const violations: LayeringViolation[] = [];
  for (const [from, source] of modules) {
    const layer = layerOf(from);
    if (!layer.startsWith("lib/")) continue;
    const allowed = ALLOWED_IMPORTS[layer];
    for (const specifier of importedSpecifiers(source)) {
      const to = resolvedPath(from, specifier);
      const target = layerOf(to);
      if (target === layer) continue;
      if (allowed?.includes(target)) continue;
      if (IMPORT_EXCEPTIONS.some((exception) => exception.from === from && exception.to === to)) continue;
      violations.push({ from, to, specifier });
    }
  }
  return violations;
}

/** A cycle in the folder table, as the folders along it, or undefined when there is none. */
export function cycleInTable(table: Readonly<Record<string, readonly string[]>>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (folder: string): string[] | undefined => {
    if (state.get(folder) === "done") return undefined;
    if (state.get(folder) === "open") return [...path.slice(path.indexOf(folder)), folder];
    state.set(folder, "open");
    path.push(folder);
    for (const next of table[folder] ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(folder, "done");
    return undefined;
  };
  for (const folder of Object.keys(table)) {
    const cycle = visit(folder);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Direct calls of a catalog client (`catalog().entity.get(…)`) in a front end's module. */
export function directCatalogCalls(source: string): number {
  return [...codeLines(source).matchAll(/\b(?:catalog|unified|unifiedCatalog)\(\)\s*\.\s*[a-zA-Z]+\s*\./g)]
    .length;
}
