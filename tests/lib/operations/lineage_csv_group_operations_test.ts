/**
 * The `lineage_csv` group in process against the seeded emulator: `process` and `validate` with their
 * positional file, `generate_sample` (given GUIDs, or placeholders that pass an offline check and import
 * once replaced; bad GUIDs; confined and unwritable output), `templates`, and every lineage template's
 * own sample importing cleanly.
 */
import assert from "node:assert/strict";
import { parseOperationArgs } from "../../../cli/args.ts";
import { readCsvTextSync } from "../../../lib/csv/reader.ts";
import { LINEAGE_TEMPLATES } from "../../../lib/templates/csv/lineage_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { confinedFileAccess } from "../../../lib/files/file_access.ts";
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
    "process_type",
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

/** A cycle in the lineage a file's rows draw (source → target), as the data sets on it; undefined if none. */
function findCycle(edges: Array<[string, string]>): string[] | undefined {
  const next = new Map<string, Set<string>>();
  for (const [source, target] of edges) {
    if (!next.has(source)) next.set(source, new Set());
    next.get(source)!.add(target);
  }
  // Depth-first search: a node met again while still on the path closes a cycle.
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const target of next.get(node) ?? []) {
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of next.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

Deno.test("the cycle finder finds cycles (the check below can fail)", () => {
  assert.deepEqual(findCycle([["a", "b"], ["b", "c"], ["c", "a"]]), ["a", "b", "c", "a"]);
  assert.deepEqual(findCycle([["a", "b"], ["b", "a"]]), ["a", "b", "a"]);
  assert.equal(findCycle([["a", "b"], ["a", "c"], ["b", "c"]]), undefined);
});

Deno.test("lineage_csv generate_sample: the lineage of a sample has no cycle, however many rows and GUIDs", async () => {
  await withLineageSetup(async ({ dir, run }) => {
    const cases: Array<{ template: string; numSamples: number; entityGuids?: string[] }> = [
      // More processes than placeholders (at most 100): the pairs are used again, never backwards.
      { template: "lineage-table", numSamples: 250 },
      { template: "lineage-basic", numSamples: 5_000 },
      { template: "lineage-column", numSamples: 40 },
      // Two or three data sets of the user's and more processes than they make a chain of.
      { template: "lineage-basic", numSamples: 5, entityGuids: [`${ORDERS},${MONTHLY_REVENUE}`] },
      {
        template: "lineage-table",
        numSamples: 7,
        entityGuids: [`${ORDERS},${MONTHLY_REVENUE}`, CUSTOMER_360],
      },
      { template: "lineage-column-sample", numSamples: 30, entityGuids: DATA_SETS },
    ];
    for (const { template, numSamples, entityGuids } of cases) {
      const output = `${dir}/${template}-${numSamples}.csv`;
      await run(generateLineageSample, { outputFile: output, numSamples, template, entityGuids });
      const text = await Deno.readTextFile(output);
      const [header, ...rows] = [...readCsvTextSync(text, output)].map((row) => row.cells);
      const [source, target] = ["source_entity_guid", "target_entity_guid"].map((name) =>
        header.indexOf(name)
      );
      const edges = rows.map((cells): [string, string] => [cells[source], cells[target]]);
      assert.equal(edges.length, numSamples);
      const what = `${template}, ${numSamples} rows, ${entityGuids ? "given GUIDs" : "placeholders"}`;
      assert.ok(edges.every(([from, to]) => from !== to), `${what}: a process from a data set to itself`);
      const cycle = findCycle(edges);
      assert.equal(cycle, undefined, `${what}: the lineage has a cycle ${cycle?.join(" → ")}`);
      // Every data set given is used.
      if (entityGuids) {
        const used = new Set(edges.flat());
        for (const guid of entityGuids.flatMap((g) => g.split(","))) {
          assert.ok(used.has(guid.toLowerCase()), guid);
        }
      }
    }
  });
});

Deno.test("every lineage template's own sample (templates show, templates write) has no cycle either", () => {
  for (const template of LINEAGE_TEMPLATES) {
    const [source, target] = ["source_entity_guid", "target_entity_guid"].map((name) =>
      template.columns.findIndex((column) => column.name === name)
    );
    const edges = template.sample.map((row): [string, string] => [row[source], row[target]]);
    assert.equal(findCycle(edges), undefined, template.name);
  }
});
