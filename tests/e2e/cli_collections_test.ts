/**
 * The `collections` commands, run the way a user runs them: govcat as a subprocess over real
 * HTTP against the emulator. Refusals of the service exit 1 with its status and a hint; bad input exits 2
 * before anything is sent, which the emulator's request counters prove. CSV import and export round-trip
 * the hierarchy and guard cells against CSV injection. The `domain` commands are in
 * `cli_collections_domain_test.ts`.
 */
import assert from "node:assert/strict";
import { parseCsv } from "../../lib/deps/csv.ts";
import { assertRefusedLocally, type CliSetupOptions, withCliSetup } from "../support/cli_harness.ts";

const SETUP: CliSetupOptions = { seed: true, prefix: "govcat-e2e-collections-" };

/** The seed's collections, in the order they were made (fixtures/emulator/seed.json). */
const SEEDED_COLLECTIONS = [
  "emulator",
  "sales",
  "finance",
  "marketing",
  "sales-insights",
  "data-engineering",
  "data-platform",
];

async function readCsv(path: string): Promise<Record<string, string>[]> {
  const text = await Deno.readTextFile(path);
  return await new Promise((resolve, reject) =>
    parseCsv(
      text,
      { columns: true },
      (error, records) => error ? reject(error) : resolve(records as Record<string, string>[]),
    )
  );
}

Deno.test("collections create, get, list, path, children and delete", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const created = await setup.govcat(
      "collections",
      "create",
      "--collection-name=sales-eu",
      "--friendly-name=Sales EU",
    );
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.json.name, "sales-eu");
    assert.equal(created.json.parentCollection.referenceName, "emulator", "the root is the default parent");

    const exists = await setup.govcat(
      "collections",
      "create",
      "--collection-name=sales-eu",
      "--parent-collection=sales",
    );
    assert.equal(exists.code, 2, "an existing collection is not changed without --if-exists=update");
    assert.match(exists.stderr, /exists already \(under emulator\); nothing was changed/);
    const moved = await setup.govcat(
      "collections",
      "create",
      "--collection-name=sales-eu",
      "--parent-collection=sales",
      "--description=European sales",
      "--if-exists=update",
      "--confirm",
    );
    assert.equal(moved.json.parentCollection.referenceName, "sales");
    assert.equal(moved.json.friendlyName, "Sales EU", "options left out keep their values");
    const again = await setup.govcat(
      "collections",
      "create",
      "--collection-name=sales-eu",
      "--description=EU",
      "--if-exists=update",
      "--confirm",
    );
    assert.equal(again.json.parentCollection.referenceName, "sales", "no --parent-collection, no move");

    const payload = await setup.file(
      "germany.json",
      JSON.stringify({
        friendlyName: "Germany",
        description: "DE",
        parentCollection: { referenceName: "sales-eu" },
      }),
    );
    const fromFile = await setup.govcat(
      "collections",
      "create",
      "--collection-name=sales-eu-de",
      `--payload-file=${payload}`,
      "--description=Germany (options win)",
    );
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(fromFile.json.friendlyName, "Germany");
    assert.equal(fromFile.json.description, "Germany (options win)");
    assert.equal(fromFile.json.parentCollection.referenceName, "sales-eu");

    const read = await setup.govcat("collections", "get", "--collection-name=SALES-EU");
    assert.equal(read.json.description, "EU");
    const list = await setup.govcat("collections", "list");
    assert.equal(list.json.count, 9);
    assert.deepEqual(
      list.json.value.map((c: { name: string }) => c.name),
      [...SEEDED_COLLECTIONS, "sales-eu", "sales-eu-de"],
    );
    const table = await setup.govcatText("collections", "list", "--output=table");
    assert.match(table.stdout, /sales-eu-de\s+Germany/);

    const path = await setup.govcat("collections", "path", "--collection-name=sales-eu-de");
    assert.deepEqual(path.json, {
      collectionName: "sales-eu-de",
      parentNameChain: ["emulator", "sales", "sales-eu"],
      parentFriendlyNameChain: ["govcat catalog emulator", "Sales", "Sales EU"],
      path: "emulator/sales/sales-eu/sales-eu-de",
      friendlyPath: "govcat catalog emulator / Sales / Sales EU / Germany",
    });
    const children = await setup.govcat("collections", "children", "--collection-name=sales-eu");
    assert.deepEqual(children.json, {
      collectionName: "sales-eu",
      count: 1,
      value: [{ name: "sales-eu-de", friendlyName: "Germany" }],
    });

    const refused = await setup.govcat("collections", "delete", "--confirm", "--collection-name=sales-eu");
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /status: 409 CollectionHasChildCollections/);
    assert.match(refused.stderr, /hint: .*govcat collections children/);
    const deleted = await setup.govcat("collections", "delete", "--confirm", "--collection-name=sales-eu-de");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json, { collectionName: "sales-eu-de", deleted: true });
  });
});

Deno.test("collections commands report the service's refusals and bad input", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const missing = await setup.govcat("collections", "get", "--collection-name=nowhere");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /status: 404 CollectionNotFound/);
    assert.match(missing.stderr, /hint: .*govcat collections list/);

    const assets = await setup.govcat("collections", "delete", "--confirm", "--collection-name=sales");
    assert.equal(assets.code, 1);
    assert.match(assets.stderr, /status: 409 CollectionHasAssets/);
    assert.match(assets.stderr, /move-to-collection/);
    const root = await setup.govcat("collections", "delete", "--confirm", "--collection-name=emulator");
    assert.equal(root.code, 1);
    assert.match(root.stderr, /status: 400 RootCollectionNotDeletable/);
    assert.match(root.stderr, /hint: The root collection/);
    const parent = await setup.govcat(
      "collections",
      "create",
      "--collection-name=orphan",
      "--parent-collection=nope",
    );
    assert.equal(parent.code, 1);
    assert.match(parent.stderr, /status: 400 InvalidParentCollection/);

    await assertRefusedLocally(setup, /not a valid name: .*letters, digits and hyphens/, [
      "collections",
      "create",
      "--collection-name=bad_name",
    ]);
    await assertRefusedLocally(setup, /missing required option --collection-name/, ["collections", "get"]);
    await assertRefusedLocally(setup, /file not found/, [
      "collections",
      "create",
      "--collection-name=abc",
      `--payload-file=${setup.dir}/none.json`,
    ]);
    const wrongShape = await setup.file("wrong.json", '["not", "a", "collection"]');
    await assertRefusedLocally(setup, /wrong shape: expected a collection/, [
      "collections",
      "create",
      "--collection-name=abc",
      `--payload-file=${wrongShape}`,
    ]);
    const otherName = await setup.file("other.json", '{"name": "different"}');
    await assertRefusedLocally(setup, /describes collection "different"/, [
      "collections",
      "create",
      "--collection-name=abc",
      `--payload-file=${otherName}`,
    ]);
    const unwritable = await setup.govcat(
      "collections",
      "export",
      `--output-file=${setup.dir}/no/such/dir/x.csv`,
    );
    assert.equal(unwritable.code, 2);
    assert.match(unwritable.stderr, /--output-file: cannot write/);
  });
});

Deno.test("collections import creates parents first, is idempotent, and exports round-trip", async () => {
  await withCliSetup(SETUP, async (setup) => {
    // Children before parents; a formula-looking description; an existing collection left as it is.
    const csv = await setup.file(
      "collections.csv",
      [
        "collection_name,friendly_name,description,parent_collection",
        'emea-de,Germany,"Sales, Germany",emea',
        'emea,EMEA,"=HYPERLINK(""http://evil"")",intl',
        "intl,International,@SUM(A1),sales",
        "finance,,,",
      ].join("\n"),
    );
    const imported = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.equal(imported.code, 0, imported.stderr);
    assert.deepEqual(
      [imported.json.rows, imported.json.created, imported.json.skipped, imported.json.rejected],
      [4, 3, 1, 0],
      "three new collections, parents first; finance left as it is",
    );
    const path = await setup.client.collections.path("emea-de");
    assert.deepEqual(path.parentNameChain, ["emulator", "sales", "intl", "emea"]);

    const puts = setup.requests("PUT");
    const again = await setup.govcat("collections", "import", `--csv-file=${csv}`);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual([again.json.created, again.json.updated, again.json.skipped], [0, 0, 4]);
    assert.equal(setup.requests("PUT"), puts, "a second import writes nothing");

    // The service refuses the caller midway (403): the import stops, keeps its checkpoint, and --resume
    // finishes the rest without writing again what was written.
    const more = await setup.file(
      "more.csv",
      "collection_name,parent_collection\nmore-b,more-a\nmore-a,intl\n",
    );
    setup.emulator.faults.script([{ status: 403, method: "PUT", path: "more-b" }]);
    const refused = await setup.govcat("collections", "import", `--csv-file=${more}`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /the catalog refused the import: .*0 of 2 rows done, 2 left for --resume/s);
    assert.match(refused.stderr, /hint: Run the same command again with --resume/);
    const resumed = await setup.govcat("collections", "import", `--csv-file=${more}`, "--resume");
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual([resumed.json.resumed, resumed.json.created, resumed.json.recovered], [true, 1, 1]);
    await setup.client.collections.delete("more-b");
    await setup.client.collections.delete("more-a");

    const plain = `${setup.dir}/plain.csv`;
    const base = await setup.govcat("collections", "export", `--output-file=${plain}`);
    assert.equal(base.code, 0, base.stderr);
    assert.deepEqual(base.json.columns, ["collection_name", "friendly_name"]);
    assert.equal(base.json.rows, 10);

    const full = `${setup.dir}/full.csv`;
    const exported = await setup.govcat(
      "collections",
      "export",
      `--output-file=${full}`,
      "--include-hierarchy",
      "--include-metadata",
    );
    assert.equal(exported.code, 0, exported.stderr);
    const rows = await readCsv(full);
    assert.deepEqual(
      rows.map((r) => r.collection_name),
      [
        "emulator",
        "sales",
        "intl",
        "emea",
        "emea-de",
        "finance",
        "marketing",
        "data-platform",
        "sales-insights",
        "data-engineering",
      ],
      "hierarchy order: every collection after its parent",
    );
    const emea = rows.find((r) => r.collection_name === "emea")!;
    assert.equal(emea.parent_collection, "intl");
    assert.equal(emea.path, "emulator/sales/intl/emea");
    assert.equal(emea.description, '\'=HYPERLINK("http://evil")', "formula cells are guarded");
    assert.equal(rows.find((r) => r.collection_name === "intl")!.description, "'@SUM(A1)");
    assert.equal(emea.provisioning_state, "Succeeded");
    assert.match(emea.created_at, /^\d{4}-\d{2}-\d{2}T/);
    assert.equal(rows[0].parent_collection, "", "the root has no parent");

    // The full export imports into a fresh catalog and rebuilds the same tree, unguarded.
    await withCliSetup({ prefix: SETUP.prefix }, async (fresh) => {
      const restored = await fresh.govcat("collections", "import", `--csv-file=${full}`);
      assert.equal(restored.code, 0, restored.stderr);
      assert.equal(restored.json.template, "collections-export");
      assert.deepEqual(
        [restored.json.created, restored.json.updated, restored.json.skipped],
        [9, 0, 1],
        "every collection but the root, whose description was empty in both",
      );
      const copy = await fresh.client.collections.get("emea");
      assert.equal(copy.description, '=HYPERLINK("http://evil")');
      assert.equal(copy.parentCollection?.referenceName, "intl");
      assert.deepEqual((await fresh.client.collections.path("emea-de")).parentNameChain, [
        "emulator",
        "sales",
        "intl",
        "emea",
      ]);
    });
  });
});

Deno.test("a bad CSV exits 2 naming file:line:column and sends nothing", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const cases: Array<[string, string, RegExp[]]> = [
      ["syntax.csv", 'collection_name\n"unclosed\n', [/syntax\.csv:2:1: unbalanced quote/]],
      ["empty.csv", "", [/empty\.csv:1: the file is empty/]],
      ["header-only.csv", "collection_name\n", [/header-only\.csv has a header but no rows to import/]],
      ["no-name.csv", "friendly_name\nx\n", [/no-name\.csv:1: the header has no collection_name column/]],
      [
        "rows.csv",
        [
          "collection_name,friendly_name,parent_colection",
          "ab,,",
          "ok-one,One,",
          "OK-ONE,Again,",
          ",Nameless,",
          "too,many,cells,here",
        ].join("\n"),
        [
          /rows\.csv:1:3: column parent_colection: not a column of template collections\. Did you mean "parent_collection"\?/,
          /rows\.csv:2:1: column collection_name: "ab" is not a valid collection name/,
          /rows\.csv:4:1: column collection_name: "OK-ONE" is also on line 3/,
          /rows\.csv:5:1: column collection_name: a value is required/,
          /rows\.csv:6: the row has 4 fields but the header has 3/,
        ],
      ],
      [
        "cycle.csv",
        "collection_name,parent_collection\nloop-a,loop-b\nloop-b,loop-c\nloop-c,loop-a\nself,self\n",
        [
          /cycle\.csv:2:2: column parent_collection: collections form a cycle: loop-a -> loop-b -> loop-c -> loop-a/,
          /cycle\.csv:5:2: .*own parent/,
        ],
      ],
    ];
    for (const [name, content, patterns] of cases) {
      const file = await setup.file(name, content);
      const result = await assertRefusedLocally(setup, patterns[0], [
        "collections",
        "import",
        `--csv-file=${file}`,
      ]);
      for (const pattern of patterns) assert.match(result.stderr, pattern, name);
    }

    // Problems only the catalog can reveal: read with GETs, nothing written.
    const catalogChecks = await setup.file(
      "parents.csv",
      [
        "collection_name,friendly_name,parent_collection",
        "lost,Lost,no-such-parent",
        "emulator,,sales",
        "fine,Fine,finance",
      ].join("\n"),
    );
    await setup.client.collections.createOrUpdate("sub-sales", {
      parentCollection: { referenceName: "sales" },
    });
    const puts = setup.requests("PUT");
    const refused = await setup.govcat("collections", "import", `--csv-file=${catalogChecks}`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /parents\.csv:2:3: column parent_collection: "no-such-parent" is neither a row of the file/,
    );
    assert.match(
      refused.stderr,
      /parents\.csv:3:3: column parent_collection: "emulator" is the root collection/,
    );
    assert.doesNotMatch(refused.stderr, /parents\.csv:4/);
    assert.equal(setup.requests("PUT"), puts, "nothing was written");

    // sales under sub-sales, which the catalog keeps under sales.
    const cycleThroughCatalog = await setup.file(
      "catalog-cycle.csv",
      "collection_name,parent_collection\nsales,sub-sales\n",
    );
    const cycle = await setup.govcat("collections", "import", `--csv-file=${cycleThroughCatalog}`);
    assert.equal(cycle.code, 2);
    assert.match(
      cycle.stderr,
      /catalog-cycle\.csv:2:2: column parent_collection: collections form a cycle: sales -> sub-sales -> sales/,
    );
    const clash = await setup.file("clash.csv", "collection_name,friendly_name\ndup,Finance\n");
    const clashed = await setup.govcat("collections", "import", `--csv-file=${clash}`);
    assert.equal(clashed.code, 2);
    assert.match(
      clashed.stderr,
      /clash\.csv:2:2: column friendly_name: friendly name "Finance" is also used by "finance" under "emulator"/,
    );
    assert.equal(setup.requests("PUT"), puts, "still nothing written");
  });
});
