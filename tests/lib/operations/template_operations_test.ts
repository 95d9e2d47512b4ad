/**
 * `govcat templates list|show|write`, run in-process through the CLI: every template listed, CSV shown as
 * raw CSV that passes its template, JSON as its payload, files written whole and never over an existing
 * one without --overwrite, and writes confined by the front end's file access. Then each JSON template,
 * its placeholders filled, is sent with the command its usage names to an emulator on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { type CliIo, runCli } from "../../../cli/run.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { checkCsvText } from "../../../lib/csv/check.ts";
import { CSV_TEMPLATES, csvTemplate, sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { startEmulator } from "../../../lib/emulator/mod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { confinedFileAccess } from "../../../lib/files/file_access.ts";
import { createOperationRegistry, OPERATION_GROUPS } from "../../../lib/operations/mod.ts";
import { OperationRegistry } from "../../../lib/operations/registry.ts";
import {
  findTemplate,
  TEMPLATE_OPERATIONS,
  TEMPLATES_GROUP,
  writeTemplate,
} from "../../../lib/operations/template_operations.ts";
import type { Operation, OperationContext } from "../../../lib/operations/types.ts";
import { VALIDATE_OPERATIONS } from "../../../lib/operations/validate_operations.ts";
import { JSON_TEMPLATES, jsonTemplate } from "../../../lib/templates/json_templates.ts";
import { UnifiedCatalogClient } from "../../../lib/catalog/unified_api.ts";
import { CatalogClient } from "../../../lib/catalog/client.ts";

/**
 * The shipped operations (the commands JSON templates are for) plus the templates and validate groups and
 * their operations, whether or not the shipped registry has them yet.
 */
function templateRegistry(extra: Operation[] = []): OperationRegistry {
  const groups = OPERATION_GROUPS.some((g) => g.name === TEMPLATES_GROUP.name)
    ? OPERATION_GROUPS
    : [...OPERATION_GROUPS, TEMPLATES_GROUP];
  const registry = new OperationRegistry(groups).register(...extra);
  for (const op of [...TEMPLATE_OPERATIONS, ...VALIDATE_OPERATIONS]) {
    if (!registry.get(op.id)) registry.register(op);
  }
  return registry;
}

const registry = templateRegistry(createOperationRegistry().all());

async function run(argv: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await runCli(argv, io, registry);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-templates-" });
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("templates list: every CSV and JSON template with its kind, summary and usage; --kind filters", async () => {
  const all = await run(["templates", "list"]);
  assert.equal(all.code, 0, all.stderr);
  const rows = JSON.parse(all.stdout) as Array<
    { name: string; kind: string; summary: string; usage: string }
  >;
  assert.deepEqual(rows.map((r) => r.name), [...CSV_TEMPLATES, ...JSON_TEMPLATES].map((t) => t.name));
  for (const row of rows) {
    assert.ok(row.summary && row.usage, row.name);
    assert.ok(row.kind === "csv" || row.kind === "json");
  }
  const csv = JSON.parse((await run(["templates", "list", "--kind=csv"])).stdout) as typeof rows;
  assert.deepEqual(csv.map((r) => r.name), CSV_TEMPLATES.map((t) => t.name));
  const json = JSON.parse((await run(["templates", "list", "--kind", "json"])).stdout) as typeof rows;
  assert.ok(json.every((r) => r.kind === "json"));
  // The JSON templates the product promises: terms, glossary terms, entities, column entities, scan source, scan, scan trigger,
  // classification rule, relationship create and update, and the five business metadata sets.
  for (
    const name of [
      "uc-term",
      "glossary-term",
      "entities",
      "column-entities",
      "scan-source",
      "scan",
      "scan-trigger",
      "classification-rule",
      "relationship-create",
      "relationship-update",
      "business-metadata-universal",
      "business-metadata-governance",
      "business-metadata-privacy",
      "business-metadata-quality",
      "business-metadata-data-product",
    ]
  ) assert.ok(json.some((r) => r.name === name), name);
  const bad = await run(["templates", "list", "--kind=xml"]);
  assert.equal(bad.code, 2);
});

Deno.test("templates show: a CSV template prints raw CSV that passes it; a JSON template prints its payload", async () => {
  for (const template of CSV_TEMPLATES) {
    const shown = await run(["templates", "show", template.name]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, sampleCsvLines(template).join("\n"));
    const report = await checkCsvText(shown.stdout + "\n", `${template.name}.csv`, template);
    assert.equal(report.problemCount, 0, template.name);
  }
  const json = await run(["templates", "show", "--name=Relationship-Create"]);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), jsonTemplate("relationship-create")!.payload);

  const unknown = await run(["templates", "show", "lineage-colum"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown template "lineage-colum"\. Did you mean "lineage-column"\?/);
  assert.match(unknown.stderr, /templates list/);
  assert.equal(unknown.stdout, "");
});

Deno.test("templates write: CSV and JSON files, never over an existing file without --overwrite", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/terms.csv`;
    const written = await run(["templates", "write", "uc-term-bulk", `--output-file=${path}`]);
    assert.equal(written.code, 0, written.stderr);
    const summary = JSON.parse(written.stdout);
    assert.equal(summary.kind, "csv");
    assert.equal(summary.outputFile, path);
    const text = await Deno.readTextFile(path);
    assert.equal(summary.bytes, new TextEncoder().encode(text).length);
    assert.equal(text, sampleCsvLines(csvTemplate("uc-term-bulk")!).join("\r\n") + "\r\n");
    assert.equal((await checkCsvText(text, path, csvTemplate("uc-term-bulk")!)).problemCount, 0);

    // The same path again: refused, the file left as it was.
    await Deno.writeTextFile(path, "mine\n");
    const refused = await run(["templates", "write", "glossary-terms", "--output-file", path]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /already exists; nothing was written/);
    assert.match(refused.stderr, /hint: Add --overwrite/);
    assert.equal(await Deno.readTextFile(path), "mine\n");

    const replaced = await run([
      "templates",
      "write",
      "glossary-terms",
      `--output-file=${path}`,
      "--overwrite",
    ]);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(
      await Deno.readTextFile(path),
      sampleCsvLines(csvTemplate("glossary-terms")!).join("\r\n") + "\r\n",
    );

    const jsonPath = `${dir}/term.json`;
    const json = await run(["templates", "write", "glossary-term", `--output-file=${jsonPath}`]);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(jsonPath)), jsonTemplate("glossary-term")!.payload);

    const missingDir = await run([
      "templates",
      "write",
      "scan",
      `--output-file=${dir}/no/such/dir/scan.json`,
    ]);
    assert.equal(missingDir.code, 2);
    assert.match(missingDir.stderr, /--output-file: cannot write/);
    // No temporary file is left behind by any of the runs.
    assert.deepEqual(await entries(dir), ["term.json", "terms.csv"]);
  });
});

Deno.test("templates write asks the front end's file access first, as the MCP server confines paths", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/root`);
    const ctx = { files: confinedFileAccess(`${dir}/root`) } as unknown as OperationContext;
    await assert.rejects(
      writeTemplate.run(ctx, { name: "entity-table", outputFile: "../outside.csv" }),
      (error: unknown) => error instanceof UsageError && /outside the directory/.test(error.message),
    );
    assert.deepEqual(await entries(dir), ["root"]);
    const inside = await writeTemplate.run(ctx, { name: "entity-table", outputFile: "tables.csv" });
    assert.equal((inside as { outputFile: string }).outputFile, "tables.csv");
    assert.deepEqual(await entries(`${dir}/root`), ["tables.csv"]);
  });
});

Deno.test("findTemplate: names in any case; an unknown name is a usage error", () => {
  assert.equal(findTemplate("ENTITY-TABLE").kind, "csv");
  assert.equal(findTemplate("uc-term").kind, "json");
  assert.throws(() => findTemplate("nothing-like-it"), UsageError);
});

/** The payload of a JSON template with its `<placeholders>` replaced. */
function filled(name: string, values: Record<string, string>): unknown {
  let text = JSON.stringify(jsonTemplate(name)!.payload);
  for (const [placeholder, value] of Object.entries(values)) {
    text = text.replaceAll(`<${placeholder}>`, value);
  }
  // `array<string>` is a type name, not a placeholder.
  assert.doesNotMatch(text, /(?<![A-Za-z])<[a-z][a-z0-9-]*>/, `${name}: every placeholder filled`);
  return JSON.parse(text);
}

Deno.test("each JSON template is accepted by the command it names (emulator on 127.0.0.1)", async () => {
  const emulator = await startEmulator({ seed: false });
  const env = {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
  };
  const config = loadConfig(env);
  const catalog = CatalogClient.fromConfig(config, { retryBaseMs: 1 });
  const unified = UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 1 });
  try {
    await withDir(async (dir) => {
      const file = async (name: string, payload: unknown) => {
        const path = `${dir}/${name}.json`;
        await Deno.writeTextFile(path, JSON.stringify(payload));
        return path;
      };
      const govcat = async (...args: string[]) => {
        const result = await run(args, env);
        assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
        return JSON.parse(result.stdout);
      };
      const OWNER = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";

      // Each template's usage names the command used here.
      assert.match(jsonTemplate("uc-term")!.usage, /^govcat uc term create --payload-file/);
      const domain = await unified.domains.create({ name: "Finance", type: "FunctionalUnit" });
      const term = await govcat(
        "uc",
        "term",
        "create",
        `--payload-file=${await file(
          "uc-term",
          filled("uc-term", { "domain-id": domain.id, "owner-object-id": OWNER }),
        )}`,
      );
      assert.equal(term.name, "Customer Lifetime Value");
      assert.deepEqual(term.acronyms, ["CLV"]);

      const glossary = await catalog.glossary.create({ name: "Business", shortDescription: "Terms" });
      const glossaryTerm = await govcat(
        "glossary",
        "create-term",
        `--payload-file=${await file(
          "glossary-term",
          filled("glossary-term", { "glossary-guid": glossary.guid! }),
        )}`,
      );
      assert.equal(glossaryTerm.name, "Customer");
      assert.equal(glossaryTerm.abbreviation, "CUST");

      const entity = await govcat(
        "entity",
        "create",
        `--payload-file=${await file("entity", filled("entity", {}))}`,
      );
      assert.equal(entity.mutatedEntities.CREATE.length, 1);

      // `entities` is the body of the bulk call its usage names.
      const bulk = await catalog.entity.createOrUpdateMany(filled("entities", {}) as never);
      const created = bulk.mutatedEntities!.CREATE!;
      assert.equal(created.length, 3);

      const columns = await govcat(
        "entity",
        "create",
        `--payload-file=${await file("column-entities", filled("column-entities", {}))}`,
      );
      assert.equal(columns.mutatedEntities.CREATE.length, 3, "the table and its two columns");
      const tableGuid = columns.guidAssignments["-1"];
      const table = await catalog.entity.get(tableGuid);
      const tableColumns = table.entity.relationshipAttributes?.columns as Array<{ guid: string }>;
      assert.deepEqual(
        tableColumns.map((c) => c.guid).sort(),
        [columns.guidAssignments["-2"], columns.guidAssignments["-3"]].sort(),
      );

      const process = created.find((header) => header.typeName === "Process")!.guid!;
      await catalog.entity.createOrUpdate({
        typeName: "DataSet",
        attributes: { qualifiedName: "https://contoso.example/datasets/web", name: "web" },
      });
      const relationship = await govcat(
        "entity",
        "create-relationship",
        `--payloadFile=${await file(
          "relationship-create",
          filled("relationship-create", {
            "process-guid": process,
            "data-set-qualified-name": "https://contoso.example/datasets/web",
          }),
        )}`,
      );
      assert.equal(relationship.typeName, "dataset_process_inputs");
      assert.equal(relationship.label, "reads");
      const updated = await govcat(
        "entity",
        "update-relationship",
        `--payloadFile=${await file(
          "relationship-update",
          filled("relationship-update", { "relationship-guid": relationship.guid }),
        )}`,
      );
      assert.equal(updated.label, "reads nightly");

      const values = { "collection-name": "emulator", "server-name": "fin-sql" };
      const source = await govcat(
        "scan",
        "putDataSource",
        "--data-source-name=fin-sql",
        `--payload-file=${await file("scan-source", filled("scan-source", values))}`,
      );
      assert.equal(source.dataSource.kind, "AzureSqlDatabase");
      const scan = await govcat(
        "scan",
        "putScan",
        "--data-source-name=fin-sql",
        "--scan-name=weekly",
        `--payload-file=${await file("scan", filled("scan", { ...values, "database-name": "ledger" }))}`,
      );
      assert.equal(scan.scan.kind, "AzureSqlDatabaseMsi");

      for (const set of ["universal", "governance", "privacy", "quality", "data-product"]) {
        const name = `business-metadata-${set}`;
        assert.match(jsonTemplate(name)!.usage, /^govcat types createTypeDefs/);
        const defs = await govcat(
          "types",
          "createTypeDefs",
          `--payload-file=${await file(name, filled(name, {}))}`,
        );
        assert.equal(defs.businessMetadataDefs.length, 1, name);
      }
    });
  } finally {
    await emulator.close();
  }
});
