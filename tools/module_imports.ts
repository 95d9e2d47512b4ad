/**
 * The relative imports of a TypeScript module, read from its text: static, type-only, re-exported, bare
 * and dynamic ones, with examples in comments left out. The layering check and the test sets read them.
 *
 * @example
 * ```ts
 * import { importedSpecifiers, resolvedPath } from "./module_imports.ts";
 * const specifiers = importedSpecifiers('import { a } from "../core/errors.ts";\n');
 * resolvedPath("lib/http/client.ts", specifiers[0]); // "lib/core/errors.ts"
 * ```
 *
 * @module
 */

/** Lines of code without comments: JSDoc examples and notes do not count as imports. */
export function codeLines(source: string): string {
  return source.split("\n").filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)).join("\n");
}

const STATIC_IMPORT =
  /^(?:import|export)\s+(?:type\s+)?(?:\{[^}]*\}|\*\s+as\s+\w+|\w+(?:\s*,\s*\{[^}]*\})?|\*)\s+from\s+["']([^"']+)["']/gm;
const BARE_IMPORT = /^import\s+["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The relative specifiers a module imports, statically, for types, or dynamically. */
export function importedSpecifiers(source: string): string[] {
  const code = codeLines(source);
  const found: string[] = [];
  for (const pattern of [STATIC_IMPORT, BARE_IMPORT, DYNAMIC_IMPORT]) {
    for (const match of code.matchAll(pattern)) {
      if (match[1].startsWith(".")) found.push(match[1]);
    }
  }
  return found;
}

/** `specifier` imported by `from` (paths from the project root), as a path from the project root. */
export function resolvedPath(from: string, specifier: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  return parts.join("/");
}
