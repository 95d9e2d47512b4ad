/**
 * Layers that only point down: every import of `lib/` is checked against the folder table of
 * `tests/support/layering.ts`, so the next upward import fails here, naming the file and what it imports.
 */
import assert from "node:assert/strict";
import {
  ALLOWED_IMPORTS,
  cycleInTable,
  DIRECT_CATALOG_CALLERS,
  directCatalogCalls,
  IMPORT_EXCEPTIONS,
  layeringViolations,
} from "./support/layering.ts";
import { importedSpecifiers, resolvedPath } from "../tools/module_imports.ts";
import { projectFiles } from "../tools/project_files.ts";

const ROOT = new URL("../", import.meta.url);

/** Every TypeScript module under `folder` (a path from the project root), by path, with its source. */
async function modulesUnder(folder: string): Promise<Map<string, string>> {
  const paths = await projectFiles(folder, [".ts"]);
  return new Map(
    await Promise.all(
      paths.map(async (path) => [path, await Deno.readTextFile(new URL(path, ROOT))] as const),
    ),
  );
}

const libModules = await modulesUnder("lib");

Deno.test("no module of lib/ imports a layer above its own", () => {
  const violations = layeringViolations(libModules);
  assert.deepEqual(
    violations.map((v) => `${v.from} imports ${v.to}`),
    [],
    "Each line is an import pointing up or sideways (tests/support/layering.ts lists what each folder may " +
      "import): move the imported code down to a layer both can reach, or the importing code up.",
  );
});

Deno.test("every folder of lib/ has a row in the layering table, and no module sits in lib/ itself", async () => {
  const folders: string[] = [];
  const loose: string[] = [];
  for await (const entry of Deno.readDir(new URL("lib", ROOT))) {
    if (entry.isDirectory) folders.push(`lib/${entry.name}`);
    else if (entry.name.endsWith(".ts")) loose.push(`lib/${entry.name}`);
  }
  assert.deepEqual(
    folders.filter((folder) => !(folder in ALLOWED_IMPORTS)).sort(),
    [],
    "folders without a row",
  );
  assert.deepEqual(
    Object.keys(ALLOWED_IMPORTS).filter((folder) => !folders.includes(folder)),
    [],
    "stale rows",
  );
  assert.deepEqual(loose, [], "modules directly in lib/: give each the folder of its concern");
});

Deno.test("the layering table has no cycle, and each exception names an import that exists", () => {
  assert.equal(cycleInTable(ALLOWED_IMPORTS), undefined);
  for (const exception of IMPORT_EXCEPTIONS) {
    const source = libModules.get(exception.from);
    assert.ok(source, `${exception.from} no longer exists: drop its exception`);
    const targets = importedSpecifiers(source).map((specifier) => resolvedPath(exception.from, specifier));
    assert.ok(targets.includes(exception.to), `${exception.from} no longer imports ${exception.to}`);
  }
});

Deno.test("the front ends reach the catalog through operations, except the modules listed", async () => {
  const frontEnds = new Map([
    ...[...libModules].filter(([path]) => path.startsWith("lib/mcp/")),
    ...await modulesUnder("cli"),
  ]);
  const callers = [...frontEnds].filter(([, source]) => directCatalogCalls(source) > 0).map(([path]) => path);
  assert.deepEqual(
    callers.filter((path) => !(path in DIRECT_CATALOG_CALLERS)),
    [],
    "calls the client itself",
  );
  assert.deepEqual(
    Object.keys(DIRECT_CATALOG_CALLERS).filter((path) => !callers.includes(path)),
    [],
    "listed but no longer calls the client: drop it from DIRECT_CATALOG_CALLERS",
  );
});

Deno.test("the check finds an upward, a sideways and a dynamic import, and ignores examples in comments", () => {
  const violations = layeringViolations(
    new Map([
      ["lib/csv/engine.ts", 'import type { OperationContext } from "../operations/types.ts";\n'],
      ["lib/emulator/server.ts", 'export { parseCsv } from "../csv/reader.ts";\n'],
      ["lib/catalog/client.ts", 'const lazy = await import("../mcp/server.ts");\n'],
      [
        "lib/core/errors.ts",
        ' * import { HttpClient } from "../http/client.ts";\nimport {\n  a,\n} from "./x.ts";\n',
      ],
      ["lib/imports/x.ts", 'import { a } from "../csv/reader.ts";\nimport b from "../catalog/client.ts";\n'],
    ]),
  );
  assert.deepEqual(violations.map((v) => `${v.from} -> ${v.to}`), [
    "lib/csv/engine.ts -> lib/operations/types.ts",
    "lib/emulator/server.ts -> lib/csv/reader.ts",
    "lib/catalog/client.ts -> lib/mcp/server.ts",
  ]);
  assert.deepEqual(cycleInTable({ "lib/a": ["lib/b"], "lib/b": ["lib/c"], "lib/c": ["lib/a"] }), [
    "lib/a",
    "lib/b",
    "lib/c",
    "lib/a",
  ]);
  assert.equal(directCatalogCalls("const x = await ctx.catalog().entity.get(guid);"), 1);
  assert.equal(directCatalogCalls(" * services.catalog().entity.get(guid)"), 0);
});

Deno.test("docs/architecture.md shows the layering table as it is", async () => {
  const page = await Deno.readTextFile(new URL("docs/architecture.md", ROOT));
  const table = page.slice(page.indexOf("<!-- layering:start"), page.indexOf("<!-- layering:end"));
  const shown: Record<string, string[]> = {};
  for (const line of table.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const folder = cells[1]?.match(/^`([^`]+)`$/)?.[1];
    if (!folder) continue;
    shown[folder] = [...(cells[3] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
  }
  assert.deepEqual(
    shown,
    ALLOWED_IMPORTS,
    "docs/architecture.md's table differs from tests/support/layering.ts",
  );
});
