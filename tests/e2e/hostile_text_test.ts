/**
 * Hostile text: CSV injection through `collections export` (friendly names and descriptions that start
 * with `=`, `+`, `-`, `@`, a tab or a carriage return are written with a leading `'`, and importing the
 * export gives back the original text, as the collections-export template promises), and Unicode edge
 * cases — lone surrogates, bidirectional overrides, zero-width joiners, emoji, NFC against NFD, very long
 * strings — in search queries (accepted as text, nothing changed), entity names (kept code unit for code
 * unit) and CSV cells (the checker's messages show invisible characters as escapes).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { readCsvFile } from "../../lib/csv/reader.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { runGovcat } from "../support/govcat_process.ts";
import {
  assertUnchanged,
  callTool,
  cli,
  type HostileCase,
  runCases,
  snapshot,
  withHostileSetup,
} from "../support/hostile.ts";

/** What a spreadsheet would run as a formula at the start of a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Collections whose friendly names and descriptions a spreadsheet would execute, and two that look guarded. */
const HOSTILE_COLLECTIONS: Array<{ name: string; friendlyName: string; description: string }> = [
  { name: "inj-eq", friendlyName: '=HYPERLINK("http://evil.test","open")', description: "=1+1" },
  { name: "inj-plus", friendlyName: "+SUM(1,2)", description: "+cmd|' /C calc'!A0" },
  { name: "inj-minus", friendlyName: "-2+3", description: "-" },
  { name: "inj-at", friendlyName: "@SUM(A1:A9)", description: "@" },
  { name: "inj-tab", friendlyName: "\tTabbed", description: "\t=tab then formula" },
  { name: "inj-cr", friendlyName: "\rReturned", description: "\r\n=after a line break" },
  { name: "inj-quoted", friendlyName: "'=already quoted", description: "''+quoted twice" },
  { name: "inj-plain", friendlyName: "Plain 'text' = fine", description: "'" },
];

async function readRows(path: string): Promise<Array<Record<string, string>>> {
  const rows: string[][] = [];
  for await (const row of readCsvFile(path, { unguard: false })) rows.push(row.cells);
  const [header, ...data] = rows;
  return data.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i]])));
}

/** Every cell of an exported file: none may start like a formula. */
async function assertNeutralised(path: string) {
  for await (const row of readCsvFile(path, { unguard: false })) {
    for (const cell of row.cells) {
      assert.ok(
        !FORMULA_START.test(cell),
        `${path}:${row.line}: cell ${JSON.stringify(cell)} is not neutralised`,
      );
    }
  }
}

Deno.test("collections export neutralises formula cells; importing the export gives back the original text", async () => {
  await withHostileSetup(async (setup) => {
    for (const c of HOSTILE_COLLECTIONS) {
      await setup.h.catalog.collections.createOrUpdate(c.name, {
        friendlyName: c.friendlyName,
        description: c.description,
        parentCollection: { referenceName: "emulator" },
      });
    }

    // The command line, as a subprocess.
    const file = join(setup.root, "collections.csv");
    const exported = await runGovcat(
      ["collections", "export", `--output-file=${file}`, "--include-hierarchy", "--include-metadata"],
      setup.env,
    );
    assert.equal(exported.code, 0, exported.stderr);
    await assertNeutralised(file);
    const rows = await readRows(file);
    for (const c of HOSTILE_COLLECTIONS) {
      const row = rows.find((r) => r.collection_name === c.name);
      assert.ok(row, c.name);
      const guarded = (text: string) => (/^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text);
      assert.equal(row.friendly_name, guarded(c.friendlyName), `${c.name} friendly name`);
      assert.equal(row.description, guarded(c.description), `${c.name} description`);
    }

    // The tool server writes the same guarded file.
    const viaTool = await callTool(setup, "invoke_operation", {
      operation: "collections.export",
      arguments: { outputFile: "tool.csv", includeHierarchy: true, includeMetadata: true },
    });
    assert.equal(viaTool.isError, false, viaTool.text);
    await assertNeutralised(join(setup.root, "tool.csv"));
    assert.deepEqual(await readRows(join(setup.root, "tool.csv")), rows);

    // Imported into an empty catalog, every value is the original again, guard removed.
    const fresh = await startEmulator({ seed: false });
    try {
      const env = { ...setup.env, CATALOG_ENDPOINT: fresh.url };
      const imported = await runGovcat(["collections", "import", `--csv-file=${file}`], env);
      assert.equal(imported.code, 0, imported.stderr);
      assert.equal(JSON.parse(imported.stdout).template, "collections-export");
      const copies = await CatalogClient.fromConfig(loadConfig(env)).collections.listAll();
      for (const c of HOSTILE_COLLECTIONS) {
        const copy = copies.find((x) => x.name === c.name);
        // The reader takes the guard off before the import trims each cell, as it trims any cell: a value
        // that starts with a tab or line break comes back without that white space.
        assert.equal(copy?.friendlyName, c.friendlyName.trim(), `${c.name} friendly name round trip`);
        assert.equal(copy?.description, c.description.trim(), `${c.name} description round trip`);
      }
    } finally {
      await fresh.close();
    }
  });
});

const UNICODE_TEXTS: Array<[string, string]> = [
  ["a lone high surrogate", "data\uD800set"],
  ["a lone low surrogate", "\uDC00orders"],
  ["a right-to-left override", "invoice\u202Efdp.exe"],
  ["isolates and marks", "\u2066cust\u2069omers\u200F"],
  ["zero-width joiners and an emoji family", "👩\u200D👩\u200D👧 sales"],
  ["zero-width space and BOM", "cust\u200Bomers\uFEFF"],
  ["NFD letters", "Cafe\u0301 Cre\u0300me"],
  ["astral characters", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u{10FFFF}"],
  ["a NUL", "customers\0"],
  ["100,000 characters", "q".repeat(100_000)],
];

Deno.test("Unicode edge cases in search queries are searched as text and change nothing", async (t) => {
  const cases: HostileCase[] = UNICODE_TEXTS.flatMap(([name, text]): HostileCase[] => [
    {
      name: `search_entities: ${name}`,
      send: { via: "tool", tool: "search_entities", args: { query: text, limit: 5 } },
      expect: { isError: false, message: /"count":\d+/ },
    },
    {
      name: `search query: ${name}`,
      send: { via: "runCli", argv: ["search", "query", `--keywords=${text}`, "--limit=5"] },
      expect: { exit: 0, message: /"@search\.count"|"value"|"count"/ },
    },
  ]);
  await withHostileSetup((setup) => runCases(t, setup, cases));
});

Deno.test("entity names keep every code unit: NFC and NFD stay distinct, nothing is normalised", async () => {
  await withHostileSetup(async (setup) => {
    const names = [...UNICODE_TEXTS.filter(([what]) => what !== "a NUL").map(([, text]) => text), "Café"];
    const guids = new Map<string, string>();
    for (const [i, name] of names.entries()) {
      const created = await callTool(setup, "create_entity", {
        type_name: "DataSet",
        qualified_name: `unicode://names/${i}/${name.slice(0, 40)}`,
        name,
      });
      assert.equal(created.isError, false, created.text);
      guids.set(name, String(created.json.guid));
    }
    assert.notEqual(guids.get("Café"), guids.get("Cafe\u0301 Cre\u0300me"));
    for (const [name, guid] of guids) {
      const read = await callTool(setup, "get_entity", { guid, view: "full" });
      const entity = (read.json as { entity: { attributes: { name: string } } }).entity;
      assert.equal(
        entity.attributes.name,
        name,
        `${JSON.stringify(name.slice(0, 40))} read back by the tool`,
      );
      const shown = await cli(setup, ["entity", "get", `--guid=${guid}`]);
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(JSON.parse(shown.stdout).entity.attributes.name, name, "read back by the command line");
    }
  });
});

/** Characters a terminal hides or uses to reorder text; a message must never carry them raw. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;

Deno.test("the CSV checker shows invisible and reordering characters as escapes, and sends nothing", async () => {
  await withHostileSetup(async (setup) => {
    const csv = [
      "collection_name,friendly_name,evil\u202Ecol",
      "ab\u202Ecd,Reversed,",
      "\u200Bzw,Zero width,",
      "x\u2066y\u2069,Isolated,",
      "ok-name,\u200D,",
    ].join("\n") + "\n";
    await Deno.writeTextFile(join(setup.root, "hostile.csv"), csv);
    const before = await snapshot(setup);

    const viaCli = await cli(setup, [
      "collections",
      "import",
      `--csv-file=${join(setup.root, "hostile.csv")}`,
    ]);
    assert.equal(viaCli.code, 2, viaCli.stderr);
    const viaTool = await callTool(setup, "invoke_operation", {
      operation: "collections.import",
      arguments: { csvFile: "hostile.csv" },
    });
    assert.equal(viaTool.isError, true);
    const toolMessage = String(viaTool.json.message);

    for (const [where, message] of [["command line", viaCli.stderr], ["tool", toolMessage]]) {
      assert.ok(!INVISIBLE.test(message), `${where}: raw invisible characters in\n${message}`);
      assert.match(message, /hostile\.csv:1:3: column evil\\u202Ecol: /, where);
      assert.match(
        message,
        /hostile\.csv:2:1: column collection_name: "ab\\u202Ecd" is not a valid collection name/,
      );
      assert.match(
        message,
        /hostile\.csv:3:1: column collection_name: "\\u200Bzw" is not a valid collection name/,
      );
      assert.match(message, /"x\\u2066y\\u2069" is not a valid collection name/);
    }
    await assertUnchanged(setup, before, "a refused CSV");
  });
});
