/**
 * The `lineage_csv` group in process against the seeded emulator: `process` and `validate` with their
 * positional file, `generate_sample` (given GUIDs, or placeholders that pass an offline check and import
 * once replaced; bad GUIDs; confined and unwritable output), `templates`, and every lineage template's
 * own sample importing cleanly.
 */
import assert from "node:assert/strict";
import { parseOperationArgs } from "../../../cli/args.ts";
import { LINEAGE_TEMPLATES } from "../../../lib/csv/templates/lineage_templates.ts";
import { sampleCsvLines } from "../../../lib/csv/templates/mod.ts";
import { confinedFileAccess } from "../../../lib/file_access.ts";
import {
  generateLineageSample,
  LINEAGE_CSV_OPERATIONS,
  listLineageTemplates,
  processLineageCsv,
  validateLineageCsvFile,
} from "../../../lib/operations/lineage_csv_group_operations.ts";
import { LINEAGE_OPERATIONS } from "../../../lib/operations/lineage_operations.ts";
import { OperationRegistry } from "../../../lib/operations/registry.ts";
import {
  CUSTOMER_360,
  CUSTOMERS,
  INVOICES,
  MONTHLY_REVENUE,
  ORDERS,
  rejection,
  withLineageSetup,
} from "./lineage_csv_harness.ts";

const DATA_SETS = [ORDERS, MONTHLY_REVENUE, CUSTOMERS, CUSTOMER_360, INVOICES];

Deno.test("lineage_csv operations register beside lineage and take their file as a positional", () => {
  const registry = new OperationRegistry().register(...LINEAGE_OPERATIONS, ...LINEAGE_CSV_OPERATIONS);
  assert.deepEqual(
    registry.inGroup("lineage_csv").map((op) => op.command).sort(),
    ["generate_sample", "process", "templates", "validate"],
  );
  const { input } = parseOperationArgs(processLineageCsv, [
    "lineage.csv",
    "--batch-size=5",
    "--validate-entities=false",
    "--progress",
    "--dry-run",
  ]);
  assert.deepEqual(input, {
    csvFile: "lineage.csv",
    batchSize: 5,
    validateEntities: false,
    progress: true,
    dryRun: true,
  });
  assert.equal(parseOperationArgs(processLineageCsv, ["x.csv"]).input.validateEntities, true);
  const sample = parseOperationArgs(generateLineageSample, [
    "out.csv",
    "--num-samples=3",
    "--template=lineage-basic",
  ]);
  assert.deepEqual(sample.input, { outputFile: "out.csv", numSamples: 3, template: "lineage-basic" });
});

Deno.test("lineage_csv generate_sample --entity-guids: every template's sample validates and imports", async () => {
  await withLineageSetup(async ({ emulator, dir, run }) => {
    for (const template of LINEAGE_TEMPLATES) {
      const output = `${dir}/${template.name}.csv`;
      const written = await run(generateLineageSample, {
        outputFile: output,
        numSamples: 7,
        template: template.name,
        entityGuids: [`${ORDERS},${MONTHLY_REVENUE}`, CUSTOMER_360],
      });
      const columnLevel = template.name.includes("column");
      assert.equal(written.rows, 7);
      assert.equal(written.processes, columnLevel ? 3 : 7);
      assert.equal(written.entityGuids, "given");
      assert.equal(written.note, undefined);
      const lines = (await Deno.readTextFile(output)).trim().split("\r\n");
      assert.equal(lines.length, 8, "a header and 7 rows");
      assert.equal(lines[0], template.columns.map((c) => c.name).join(","));

      const valid = await run(validateLineageCsvFile, { csvFile: output, template: template.name });
      assert.equal(valid.rows, 7);
      assert.equal(valid.processes, written.processes);
      assert.equal(valid.entitiesChecked, 3);

      const count = emulator.entityCount();
      const imported = await run(processLineageCsv, { csvFile: output, template: template.name });
      assert.equal(imported.operation, "lineage_csv.process");
      assert.equal(imported.failed, 0, JSON.stringify(imported));
      assert.equal(imported.created + imported.updated, 7);
      assert.ok(emulator.entityCount() <= count + written.processes);
      const again = await run(processLineageCsv, { csvFile: output });
      assert.equal(again.created, 0, `${template.name}: importing again creates nothing`);
    }
  });
});

Deno.test("lineage_csv generate_sample without GUIDs: placeholders to replace, then a clean import", async () => {
  await withLineageSetup(async ({ emulator, dir, run }) => {
    const output = `${dir}/sample.csv`;
    const written = await run(generateLineageSample, { outputFile: output, numSamples: 4 });
    assert.equal(written.template, "lineage-table");
    assert.equal(written.entityGuids, "placeholders");
    assert.match(written.note, /random placeholders: replace them/);

    emulator.faults.reset();
    const offline = await run(validateLineageCsvFile, { csvFile: output, offline: true });
    assert.equal(offline.valid, true);
    assert.equal(emulator.faults.stats().total, 0);
    const online = await rejection(() => run(validateLineageCsvFile, { csvFile: output }));
    assert.equal(online.exitCode, 2);
    assert.match(
      online.message,
      /sample\.csv:2:1: column source_entity_guid: [0-9a-f-]{36} not found \(404\)/,
    );

    // Replace each placeholder by a seeded data set, in order of first appearance.
    let text = await Deno.readTextFile(output);
    const placeholders = [
      ...new Set(text.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g)),
    ];
    assert.equal(placeholders.length, 5, "four processes chain through five GUIDs");
    placeholders.forEach((guid, i) => text = text.replaceAll(guid, DATA_SETS[i]));
    await Deno.writeTextFile(output, text);
    const imported = await run(processLineageCsv, { csvFile: output });
    assert.equal(imported.created, 4);
    assert.equal(imported.failed, 0);
  });
});

Deno.test("lineage_csv generate_sample: bad GUIDs and unwritable or confined outputs are refused", async () => {
  await withLineageSetup(async ({ ctx, dir, run }) => {
    const notGuid = await rejection(() =>
      run(generateLineageSample, { outputFile: `${dir}/x.csv`, entityGuids: ["nope", ORDERS] })
    );
    assert.equal(notGuid.exitCode, 2);
    assert.match(notGuid.message, /--entity-guids: "nope" is not a GUID/);
    const one = await rejection(() =>
      run(generateLineageSample, { outputFile: `${dir}/x.csv`, entityGuids: [ORDERS, ORDERS.toUpperCase()] })
    );
    assert.match(one.message, /at least two different GUIDs/);

    const unwritable = await rejection(() =>
      run(generateLineageSample, { outputFile: `${dir}/no/such/dir/x.csv` })
    );
    assert.equal(unwritable.exitCode, 2);
    assert.match(unwritable.message, /<output_file>: cannot write/);

    const confined = { ...ctx, files: confinedFileAccess(`${dir}`) };
    const outside = await rejection(() =>
      generateLineageSample.run(
        confined,
        generateLineageSample.input.parse({ outputFile: "/tmp/../etc/x.csv" }),
      )
    );
    assert.equal(outside.exitCode, 2);
    assert.match(outside.message, /<output_file>: .* is outside the directory/);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written, no temporary file left");
  });
});

Deno.test("lineage_csv templates lists the four lineage templates with their columns", async () => {
  const listed = await listLineageTemplates.run(undefined as never, {});
  const templates = (listed as { templates: Array<Record<string, unknown>> }).templates;
  assert.deepEqual(templates.map((t) => t.name), [
    "lineage-table",
    "lineage-column",
    "lineage-basic",
    "lineage-column-sample",
  ]);
  const column = templates[1] as {
    columns: Array<{ name: string; required?: boolean; headerRequired?: boolean }>;
  };
  assert.deepEqual(column.columns.map((c) => c.name), [
    "source_entity_guid",
    "target_entity_guid",
    "relationship_type",
    "process_name",
    "description",
    "confidence_score",
    "owner",
    "metadata",
    "source_column",
    "target_column",
  ]);
  assert.deepEqual(column.columns[0], {
    ...column.columns[0],
    required: true,
    headerRequired: true,
  });
  const sourceColumn = column.columns.find((c) => c.name === "source_column")!;
  assert.equal(sourceColumn.required, undefined, "a column file may hold table-level rows");
  assert.equal(sourceColumn.headerRequired, true);
});

Deno.test("every lineage template's own sample validates and imports cleanly into the seeded emulator", async () => {
  await withLineageSetup(async ({ dir, run }) => {
    for (const template of LINEAGE_TEMPLATES) {
      const path = `${dir}/${template.name}-own.csv`;
      await Deno.writeTextFile(path, sampleCsvLines(template).join("\r\n") + "\r\n");
      const valid = await run(validateLineageCsvFile, { csvFile: path, template: template.name });
      assert.equal(valid.rows, template.sample.length);
      const imported = await run(processLineageCsv, { csvFile: path, template: template.name });
      assert.equal(imported.failed, 0, `${template.name}: ${JSON.stringify(imported)}`);
    }
  });
});
