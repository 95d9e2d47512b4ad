/**
 * `collections import` on the bulk engine, against the seeded emulator (root `emulator` with `sales`,
 * `finance` and `marketing`): parents written before children whatever the file order, rows that match
 * skipped, a refused row (and its children) in the reject file with the service's answer while the rest
 * is written, dry runs, problems of the file and of the catalog with file:line:column, and the samples.
 */
import assert from "node:assert/strict";
import { collections, collectionsExport } from "../../../lib/templates/csv/collections_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { parentsFirst } from "../../../lib/imports/collections_import.ts";
import { type ImportSetup, readCsvRecords, withImportSetup } from "../../support/import_setup.ts";

async function parentOf(setup: ImportSetup, name: string): Promise<string | undefined> {
  return (await setup.catalog.collections.get(name)).parentCollection?.referenceName;
}

Deno.test("parentsFirst orders rows level by level of the file's hierarchy, in file order within a level", () => {
  const unit = (name: string, parent?: string) => ({ item: { line: 0, name, key: name, parent } });
  const ordered = parentsFirst([
    unit("c", "b"),
    unit("x", "finance"),
    unit("b", "a"),
    unit("a"),
    unit("d", "a"),
  ]);
  assert.deepEqual(ordered.map((u) => u.item.name), ["x", "a", "b", "d", "c"]);
});

Deno.test("collections import: children before parents, skipped when unchanged, idempotent", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await setup.file("collections.csv", [
      "collection_name,friendly_name,description,parent_collection",
      'emea-de,Germany,"Sales, Germany",emea',
      'emea,EMEA,"=HYPERLINK(""http://evil"")",intl',
      "intl,International,'@SUM(A1),sales",
      "finance,,,",
      "marketing,Marketing and brand,,",
    ]);
    const run = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.equal(run.code, 0, run.stderr);
    const s = run.json;
    assert.deepEqual([s.rows, s.created, s.updated, s.skipped, s.rejected], [5, 3, 1, 1, 0]);
    assert.deepEqual((await setup.catalog.collections.path("emea-de")).parentNameChain, [
      "emulator",
      "sales",
      "intl",
      "emea",
    ]);
    assert.equal(
      (await setup.catalog.collections.get("intl")).description,
      "@SUM(A1)",
      "the guard is taken off",
    );
    assert.equal((await setup.catalog.collections.get("marketing")).friendlyName, "Marketing and brand");

    const writes = setup.writes();
    const again = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.deepEqual([again.json.created, again.json.updated, again.json.skipped], [0, 0, 5]);
    assert.equal(setup.writes(), writes, "a second import writes nothing");
  });
});

Deno.test("collections import: a refused row and its children are rejected with the answer; the rest is written", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await setup.file("more.csv", [
      "collection_name,parent_collection",
      "more-b,more-a",
      "more-a,finance",
      "other,sales",
    ]);
    setup.emulator.faults.script([{ status: 409, method: "PUT", path: "/more-a" }]);
    const run = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual([run.json.created, run.json.rejected], [1, 2]);
    const rejects = await readCsvRecords(run.json.errorsFile);
    assert.deepEqual(rejects.map((r) => [r.collection_name, r.source_line]), [["more-b", "2"], [
      "more-a",
      "3",
    ]]);
    assert.match(rejects.find((r) => r.collection_name === "more-a")!.import_error, /^409 /);
    assert.match(
      rejects.find((r) => r.collection_name === "more-b")!.import_error,
      /^400 InvalidParentCollection/,
    );
    assert.equal(await parentOf(setup, "other"), "sales");

    // The earlier run's reject file is replaced only with consent (file_consent.ts).
    const refused = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--errors-file: .*more\.rejected\.csv already exists; nothing was written/);
    const retry = await setup.govcat("collections", "import", `--csv-file=${csv}`, "--overwrite");
    assert.equal(retry.code, 0, retry.stderr);
    assert.deepEqual([retry.json.created, retry.json.skipped], [2, 1]);
    assert.equal(await parentOf(setup, "more-b"), "more-a");
  });
});

Deno.test("collections import --dry-run plans every row and writes nothing", async () => {
  await withImportSetup({}, async (setup) => {
    const csv = await setup.file("plan.csv", [
      "collection_name,friendly_name,parent_collection",
      "child,Child,new-one",
      "new-one,New,sales",
      "finance,Finance,",
      "marketing,Brand,",
    ]);
    const writes = setup.writes();
    const dry = await setup.govcat("collections", "import", `--csv-file=${csv}`, "--dry-run");
    assert.equal(dry.code, 0, dry.stderr);
    assert.deepEqual([dry.json.wouldCreate, dry.json.wouldUpdate, dry.json.wouldSkip], [2, 1, 1]);
    assert.deepEqual(
      dry.json.preview.map((p: { action: string; collection_name: string }) => [p.collection_name, p.action]),
      [
        ["child", "create"],
        ["new-one", "create"],
        ["finance", "skip"],
        ["marketing", "update"],
      ],
    );
    assert.equal(setup.writes(), writes);
  });
});

Deno.test("collections import: problems of the file, then of the catalog, by file:line:column; nothing written", async () => {
  await withImportSetup({}, async (setup) => {
    const cases: Array<[string, string[], RegExp[]]> = [
      ["rows.csv", [
        "collection_name,friendly_name,parent_colection",
        "ab,,",
        "ok-one,One,",
        "OK-ONE,Again,",
        ",Nameless,",
        "too,many,cells,here",
      ], [
        /rows\.csv:1:3: column parent_colection: not a column of template collections\. Did you mean "parent_collection"\?/,
        /rows\.csv:2:1: column collection_name: "ab" is not a valid collection name/,
        /rows\.csv:4:1: column collection_name: .*is also on line 3/,
        /rows\.csv:5:1: column collection_name: a value is required/,
        /rows\.csv:6: the row has 4 fields but the header has 3/,
      ]],
      ["cycle.csv", [
        "collection_name,parent_collection",
        "loop-a,loop-b",
        "loop-b,loop-c",
        "loop-c,loop-a",
        "self,self",
      ], [
        /cycle\.csv:2:2: column parent_collection: collections form a cycle: loop-a -> loop-b -> loop-c -> loop-a/,
        /cycle\.csv:5:2: column parent_collection: collection "self" cannot be its own parent/,
      ]],
      ["parents.csv", [
        "collection_name,friendly_name,parent_collection",
        "lost,Lost,no-such-parent",
        "emulator,,sales",
        "dup,Finance,",
        "fine,Fine,finance",
      ], [
        /parents\.csv:2:3: column parent_collection: "no-such-parent" is neither a row of the file nor a collection/,
        /parents\.csv:3:3: column parent_collection: "emulator" is the root collection/,
      ]],
      ["clash.csv", ["collection_name,friendly_name", "dup,Finance"], [
        /clash\.csv:2:2: column friendly_name: friendly name "Finance" is also used by "finance" under "emulator"/,
      ]],
      ["no-name.csv", ["friendly_name", "x"], [/no-name\.csv:1: the header has no collection_name column/]],
    ];
    for (const [name, lines, patterns] of cases) {
      const run = await setup.govcat("collections", "import", `--csv-file=${await setup.file(name, lines)}`);
      assert.equal(run.code, 2, `${name}: ${run.stderr}`);
      assert.match(
        run.stderr,
        new RegExp(`${name.replace(".", "\\.")} has \\d+ problems?; nothing was sent`),
      );
      for (const pattern of patterns) assert.match(run.stderr, pattern, name);
    }
    const headerOnly = await setup.govcat(
      "collections",
      "import",
      `--csv-file=${await setup.file("h.csv", ["collection_name"])}`,
    );
    assert.equal(headerOnly.code, 2);
    assert.match(headerOnly.stderr, /h\.csv has a header but no rows to import/);
    assert.equal(setup.writes(), 0, "nothing was written");
  });
});

Deno.test("collections import: both templates' samples import cleanly into the seeded catalog", async () => {
  await withImportSetup({}, async (setup) => {
    for (const template of [collections, collectionsExport]) {
      const csv = await setup.file(`${template.name}.csv`, sampleCsvLines(template).join("\n"));
      const run = await setup.govcat("collections", "import", `--csv-file=${csv}`);
      assert.equal(run.code, 0, `${template.name}: ${run.stderr}`);
      assert.equal(run.json.template, template.name, "the template is detected from the header");
      assert.equal(run.json.rejected, 0);
      assert.equal(run.json.rows, template.sample.length);
    }
    assert.equal(await parentOf(setup, "finance-payables"), "finance");
  });
});
