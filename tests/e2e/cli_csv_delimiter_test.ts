/**
 * CSV imports of files separated by semicolons, tabs or pipes, end to end as a real subprocess against the
 * emulator: the separator is detected from the header (or given with --delimiter) and the rows land in the
 * catalog as those of a comma file would; a header missing a required column is refused naming it, before
 * anything is sent; a file the service reads itself is refused when not comma-separated; one row is "1 row".
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { UnifiedCatalogClient } from "../../lib/catalog/unified_api.ts";
import { type ProcessResult, runGovcat } from "../support/govcat_process.ts";

interface Setup {
  emulator: RunningEmulator;
  catalog: CatalogClient;
  unified: UnifiedCatalogClient;
  /** Runs `govcat …args`; `json` is its stdout parsed, when it is JSON. */
  // deno-lint-ignore no-explicit-any
  govcat(...args: string[]): Promise<ProcessResult & { json: any }>;
  /** Writes `rows` with `separator` between cells and CRLF line ends; returns the path. */
  file(name: string, separator: string, rows: string[][]): Promise<string>;
}

async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const env = {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
  };
  const config = loadConfig(env);
  const dir = await Deno.makeTempDir({ prefix: "govcat-delimiter-e2e-" });
  try {
    await test({
      emulator,
      catalog: CatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      unified: UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      govcat: async (...args) => {
        const result = await runGovcat(args, env);
        let json: unknown;
        try {
          json = result.stdout === "" ? undefined : JSON.parse(result.stdout);
        } catch {
          json = undefined;
        }
        return { ...result, json };
      },
      file: async (name, separator, rows) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, rows.map((row) => row.join(separator)).join("\r\n") + "\r\n");
        return path;
      },
    });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a semicolon file validates and imports: the entities land with the cells of their rows", async () => {
  await withSetup(async ({ emulator, catalog, govcat, file }) => {
    const path = await file("entities.csv", ";", [
      ["typeName", "qualifiedName", "displayName", "description"],
      ["DataSet", "ds://semi/orders", "Orders", '"Orders; one row per order, with totals"'],
      ["DataSet", "ds://semi/customers", "Customers", "Customers, deduplicated"],
    ]);
    const validated = await govcat("validate", "csv", `--csv-file=${path}`);
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    assert.deepEqual([validated.json.template, validated.json.delimiter], [
      "entity-bulk-import",
      "semicolon",
    ]);

    const imported = await govcat("entity", "bulk-import", `--csv-file=${path}`);
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    assert.deepEqual([imported.json.rows, imported.json.created, imported.json.failed], [2, 2, 0]);
    assert.equal(emulator.entityCount(), 2);
    const orders = await catalog.entity.getByUniqueAttribute("DataSet", "ds://semi/orders");
    assert.equal(orders.entity?.attributes?.description, "Orders; one row per order, with totals");
    const customers = await catalog.entity.getByUniqueAttribute("DataSet", "ds://semi/customers");
    assert.equal(customers.entity?.attributes?.description, "Customers, deduplicated");
  });
});

Deno.test("a tab file validates and imports: unified catalog terms land in their domain", async () => {
  await withSetup(async ({ unified, govcat, file }) => {
    const domain = await unified.domains.create({ name: "Finance", type: "FunctionalUnit" });
    const path = await file("terms.tsv", "\t", [
      ["name", "description", "status", "acronym"],
      ["Revenue", "Money in, before costs", "Draft", "REV;RV"],
      ["Margin", "Revenue minus costs", "Draft", ""],
    ]);
    const validated = await govcat("validate", "csv", `--csv-file=${path}`, "--template=uc-term-bulk");
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);
    assert.equal(validated.json.delimiter, "tab");

    const imported = await govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${path}`,
      `--domain-id=${domain.id}`,
    );
    assert.equal(imported.code, 0, imported.stdout + imported.stderr);
    assert.deepEqual([imported.json.rows, imported.json.created], [2, 2]);
    const terms = [];
    for await (const term of unified.terms.list({ domainId: domain.id })) terms.push(term);
    const revenue = terms.find((term) => term.name === "Revenue");
    assert.equal(revenue?.description, "Money in, before costs");
    assert.deepEqual(revenue?.acronyms, ["REV", "RV"]);
    assert.ok(terms.some((term) => term.name === "Margin"));
  });
});

Deno.test("--delimiter on an import: a pipe file of term assignments lands; the wrong one is refused, saying how it read", async () => {
  await withSetup(async ({ emulator, catalog, govcat, file }) => {
    const glossary = await catalog.glossary.create({ name: "Pipes" });
    const term = await catalog.glossary.createTerm({
      name: "Customer",
      anchor: { glossaryGuid: glossary.guid },
    });
    const entity = await catalog.entity.createOrUpdate({
      entity: { typeName: "DataSet", attributes: { qualifiedName: "ds://pipe/1", name: "one" } },
    });
    const guid = Object.values(entity.guidAssignments ?? {})[0] as string;
    const path = await file("assign.csv", "|", [["term_guid", "entity_guid"], [term.guid!, guid]]);

    const before = emulator.faults.stats().total;
    const wrong = await govcat("glossary", "assign_terms", `--csv-file=${path}`, "--delimiter=semicolon");
    assert.equal(wrong.code, 2);
    assert.match(
      wrong.stderr,
      /assign\.csv:1: the header is one column "term_guid\|entity_guid": the file seems to use '\|' to separate fields, but it was read with semicolons; give --delimiter=pipe/,
    );
    assert.equal(emulator.faults.stats().total, before, "nothing sent");

    const assigned = await govcat("glossary", "assign_terms", `--csv-file=${path}`, "--delimiter=pipe");
    assert.equal(assigned.code, 0, assigned.stdout + assigned.stderr);
    assert.equal(assigned.json.created, 1);
    const entities = await catalog.glossary.getTermAssignedEntities(term.guid!);
    assert.deepEqual(entities.map((e) => e.guid), [guid]);
  });
});

Deno.test("an import whose header misses a required column names it, before anything is sent", async () => {
  await withSetup(async ({ emulator, govcat, file }) => {
    const path = await file("tables.csv", ";", [
      ["name", "typeName", "description"],
      ["orders", "azure_sql_table", "Orders"],
    ]);
    const refused = await govcat("entity", "bulk-import", `--csv-file=${path}`);
    assert.equal(refused.code, 2);
    assert.equal(refused.stdout, "");
    assert.match(
      refused.stderr,
      /tables\.csv:1: the header \(name, typeName, description\) matches none of the templates .*\. The closest is entity-table, which needs the column qualifiedName\. The header was read with semicolons \(;\) between fields, detected from the header\./,
    );
    // Named, the template's check says the same, with the line.
    const named = await govcat("entity", "bulk-import", `--csv-file=${path}`, "--template=entity-table");
    assert.equal(named.code, 2);
    assert.match(named.stderr, /tables\.csv:1: the header has no qualifiedName column, which is required/);
    assert.equal(emulator.faults.stats().total, 0);
  });
});

Deno.test("the glossary's own import reads commas only: a semicolon file is refused with why, before anything is sent", async () => {
  await withSetup(async ({ emulator, catalog, govcat, file }) => {
    const glossary = await catalog.glossary.create({ name: "Service" });
    const path = await file("terms.csv", ";", [["name", "description"], ["Revenue", "Money in"]]);
    const before = emulator.faults.stats().total;
    const refused = await govcat(
      "glossary",
      "import-terms",
      `--csv-file=${path}`,
      `--glossary-guid=${glossary.guid}`,
    );
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /terms\.csv:1: the file has semicolons \(;\) between fields, detected from the header, but it goes to the service's own import as it is .*, which reads commas only: save it with commas between fields/,
    );
    assert.equal(emulator.faults.stats().total, before);
  });
});

Deno.test("one row is one row: the import's summary line on stderr", async () => {
  await withSetup(async ({ govcat, file }) => {
    const path = await file("one.csv", ",", [["typeName", "qualifiedName"], ["DataSet", "ds://one/1"]]);
    const imported = await govcat("entity", "bulk-import", `--csv-file=${path}`);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(
      imported.stderr,
      /entity\.bulk-import: 1 row, 1 created, 0 updated, 0 skipped, 0 rejected in /,
    );
    assert.doesNotMatch(imported.stderr, /(?<![\d.])1 rows\b/, "a rate such as 91 rows/s is not a count");
  });
});
