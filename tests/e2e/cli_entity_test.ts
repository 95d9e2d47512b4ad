/**
 * The path a user takes: govcat as a subprocess, over real HTTP, against the emulator.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

Deno.test("entity create, get, search and delete round-trip through the emulator", async () => {
  await withCliSetup({}, async ({ govcat, govcatText }) => {
    const qualifiedName = "mssql://e2e-sql.database.windows.net/SalesDb/dbo/QuarterlyRevenue";
    const created = await govcat(
      "entity",
      "create",
      "--type-name=azure_sql_table",
      `--qualified-name=${qualifiedName}`,
      "--name",
      "QuarterlyRevenue",
      "--description=Revenue per quarter and region",
      '--attributes={"owner":"finance-data"}',
    );
    assert.equal(created.code, 0, created.stderr);
    const mutation = created.json;
    const header = mutation.mutatedEntities.CREATE[0];
    const guid: string = header.guid;
    assert.match(guid, /^[0-9a-f-]{36}$/);

    const fetched = await govcat("entity", "get", `--guid=${guid}`);
    assert.equal(fetched.code, 0, fetched.stderr);
    const entity = fetched.json.entity;
    assert.equal(entity.guid, guid);
    assert.equal(entity.typeName, "azure_sql_table");
    assert.equal(entity.attributes.qualifiedName, qualifiedName);
    assert.equal(entity.attributes.name, "QuarterlyRevenue");
    assert.equal(entity.attributes.owner, "finance-data");

    const byName = await govcat(
      "entity",
      "readUniqueAttribute",
      "--typeName",
      "azure_sql_table",
      `--qualifiedName=${qualifiedName}`,
    );
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(byName.json.entity.guid, guid);

    const again = [
      "entity",
      "create",
      "--type-name=azure_sql_table",
      `--qualified-name=${qualifiedName}`,
      "--name=QuarterlyRevenue",
      "--description=Revenue per quarter, region and channel",
    ];
    // An existing entity is not overwritten unless --if-exists=update says so (and is confirmed).
    const refused = await govcat(...again);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /exists already .*nothing was changed/);
    assert.match(refused.stderr, /--if-exists=update/);
    const unconfirmed = await govcat(...again, "--if-exists=update");
    assert.equal(unconfirmed.code, 2, "no terminal to ask: refused without --confirm");
    assert.match(unconfirmed.stderr, /destructive/);
    const updated = await govcat(...again, "--if-exists=update", "--confirm");
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(updated.json.mutatedEntities.UPDATE[0].guid, guid, "same entity updated");

    const search = await govcat("search", "query", "--keywords=QuarterlyRevenue", "--limit=5");
    assert.equal(search.code, 0, search.stderr);
    const hits = search.json;
    assert.ok(hits.value.some((hit: { id: string }) => hit.id === guid), "search finds the new entity");

    const table = await govcatText("search", "query", "--keywords=QuarterlyRevenue", "--output=table");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /QuarterlyRevenue/);

    const deleted = await govcat("entity", "delete", "--confirm", `--guid=${guid}`);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.json.mutatedEntities.DELETE[0].guid, guid);

    // The service soft-deletes: the entity is still readable by guid, marked DELETED.
    const gone = await govcat("entity", "get", `--guid=${guid}`);
    assert.equal(gone.code, 0, gone.stderr);
    assert.equal(gone.json.entity.status, "DELETED");

    const unknown = await govcat("entity", "get", "--guid=00000000-0000-4000-8000-00000000dead");
    assert.equal(unknown.code, 1, "the service refused: exit 1");
    assert.match(unknown.stderr, /error: .*guid/i);
    assert.match(unknown.stderr, /status: 404 ATLAS-404-00-005/);
    assert.match(unknown.stderr, /hint: .*search/);
    assert.equal(unknown.stdout, "");
  });
});

Deno.test("a payload file creates an entity; bad files are named in the error", async () => {
  await withCliSetup({}, async ({ dir, govcat }) => {
    const payload = `${dir}/entity.json`;
    await Deno.writeTextFile(
      payload,
      JSON.stringify({
        entity: {
          typeName: "DataSet",
          attributes: { qualifiedName: "dataset://e2e/payload", name: "payload" },
        },
      }),
    );
    const created = await govcat("entity", "create", `--payload-file=${payload}`);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.json.mutatedEntities.CREATE.length, 1);

    const broken = `${dir}/broken.json`;
    await Deno.writeTextFile(broken, "{not json");
    const bad = await govcat("entity", "create", `--payload-file=${broken}`);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /broken\.json is not valid JSON/);

    const missing = await govcat("entity", "create", `--payload-file=${dir}/nope.json`);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--payload-file: file not found: .*nope\.json/);

    const incomplete = await govcat("entity", "create", "--type-name=DataSet");
    assert.equal(incomplete.code, 2);
    assert.match(incomplete.stderr, /needs --qualified-name, --name/);
  });
});

Deno.test("the CLI rides out injected throttling and logs requests with --verbose", async () => {
  await withCliSetup({ seed: true }, async ({ emulator, govcat }) => {
    emulator.faults.script([{ status: 429, retryAfterMs: 50, path: "/search/query" }, {
      status: 503,
      retryAfterMs: 20,
      path: "/search/query",
    }]);
    const result = await govcat("search", "query", "--keywords=customers", "--verbose");
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.json["@search.count"] >= 1);
    const searches = emulator.faults.stats().log.filter((entry) => entry.path.endsWith("/search/query"));
    assert.deepEqual(searches.map((entry) => entry.status), [429, 503, 200]);
    assert.match(
      result.stderr,
      /debug: POST http:\/\/127\.0\.0\.1:\d+\/datamap\/api\/search\/query\?api-version=2023-09-01 -> 429/,
    );
    assert.match(result.stderr, /-> 200 in \d+ ms \(attempt 3\)/);
  });
});

Deno.test("a retried upsert whose first response was lost creates the entity once", async () => {
  await withCliSetup({}, async ({ emulator, govcat }) => {
    emulator.faults.script([{
      status: 503,
      afterHandling: true,
      path: "/atlas/v2/entity",
      method: "POST",
    }]);
    const created = await govcat(
      "entity",
      "create",
      "--type-name=DataSet",
      "--qualified-name=dataset://e2e/lost-response",
      "--name=lost-response",
    );
    assert.equal(created.code, 0, created.stderr);
    const second = created.json.mutatedEntities;
    assert.ok(second.UPDATE?.length === 1, "the retry found the entity the first attempt had created");
    const search = await govcat("search", "query", "--keywords=lost-response");
    assert.equal(search.json["@search.count"], 1);
  });
});

Deno.test("bulk-import refuses pattern columns that name __proto__ or lack their parts, before sending", async () => {
  await withCliSetup({}, async (setup) => {
    const file = `${setup.dir}/hostile.csv`;
    await Deno.writeTextFile(
      file,
      "typeName,qualifiedName,name,bm.__proto__.polluted,attr.constructor,bm.Governance\n" +
        "DataSet,ds://hostile,hostile,yes,x,y\n",
    );
    const refused = await assertRefusedLocally(setup, /hostile\.csv:1:4: column bm\.__proto__\.polluted/, [
      "entity",
      "bulk-import",
      `--csv-file=${file}`,
    ]);
    assert.match(refused.stderr, /hostile\.csv:1:5: column attr\.constructor: .* cannot name an attribute/);
    assert.match(refused.stderr, /hostile\.csv:1:6: column bm\.Governance: .* bm\.<group>\.<attribute>/);
  });
});

Deno.test("bulk-import leaves existing entities as they are unless --if-exists=update, confirmed", async () => {
  await withCliSetup({}, async ({ govcat, dir }) => {
    const description = async (qualifiedName: string) => {
      const read = await govcat(
        "entity",
        "get-by-unique-attribute",
        "--type-name=DataSet",
        `--qualified-name=${qualifiedName}`,
      );
      assert.equal(read.code, 0, read.stderr);
      return read.json.entity.attributes.description;
    };
    const first = `${dir}/first.csv`;
    await Deno.writeTextFile(
      first,
      "typeName,qualifiedName,displayName,description\nDataSet,ds://bulk/kept,kept,original\n",
    );
    const made = await govcat("entity", "bulk-import", `--csv-file=${first}`);
    assert.equal(made.code, 0, made.stderr);
    assert.equal(made.json.created, 1);

    const second = `${dir}/second.csv`;
    await Deno.writeTextFile(
      second,
      "typeName,qualifiedName,displayName,description\n" +
        "DataSet,ds://bulk/kept,renamed,replaced\nDataSet,ds://bulk/new,new,fresh\nNoSuchType,ds://bulk/odd,odd,x\n",
    );
    const planned = await govcat("entity", "bulk-import", `--csv-file=${second}`, "--dry-run");
    assert.equal(planned.code, 0, planned.stderr);
    assert.deepEqual([planned.json.wouldCreate, planned.json.wouldSkip, planned.json.wouldUpdate], [2, 1, 0]);

    const skipping = await govcat("entity", "bulk-import", `--csv-file=${second}`);
    assert.equal(skipping.code, 1, "a refused row: exit 1");
    const skipped = JSON.parse(skipping.stdout);
    assert.deepEqual(
      [skipped.created, skipped.skipped, skipped.updated, skipped.rejected],
      [1, 1, 0, 1],
      `the existing row is skipped, the unknown type refused alone: ${skipping.stderr}`,
    );
    assert.equal(
      await description("ds://bulk/kept"),
      "original",
      "the default run changed nothing that exists",
    );

    const unconfirmed = await govcat("entity", "bulk-import", `--csv-file=${second}`, "--if-exists=update");
    assert.equal(unconfirmed.code, 2, "no terminal to ask: refused without --confirm");
    assert.match(
      unconfirmed.stderr,
      /entity bulk-import --if-exists=update .* is destructive: .*nothing was sent/,
    );
    const contradictory = await govcat(
      "entity",
      "bulk-import",
      `--csv-file=${second}`,
      "--if-exists=update",
      "--skip-existing",
      "--confirm",
    );
    assert.equal(contradictory.code, 2);
    assert.match(contradictory.stderr, /contradict/);
    assert.equal(await description("ds://bulk/kept"), "original", "neither refused run changed it");

    // The run before left its reject file: replacing it is consented to as well.
    const overwriting = await govcat(
      "entity",
      "bulk-import",
      `--csv-file=${second}`,
      "--if-exists=update",
      "--confirm",
      "--overwrite",
    );
    const overwritten = JSON.parse(overwriting.stdout);
    assert.deepEqual([overwritten.updated, overwritten.rejected], [2, 1], overwriting.stderr);
    assert.equal(await description("ds://bulk/kept"), "replaced");
  });
});

Deno.test("entity create-many, update and update-many: each entity its own result, existing ones left alone", async () => {
  await withCliSetup({}, async ({ govcat }) => {
    const entities = [
      { typeName: "DataSet", qualifiedName: "ds://many/a", name: "a", description: "original" },
      { typeName: "DataSet", qualifiedName: "ds://many/b", name: "b" },
    ];
    // A type the catalog does not know makes it refuse the whole request: sent again one by one, only
    // that entity fails.
    const odd = { typeName: "NoSuchType", qualifiedName: "ds://many/odd", name: "odd" };
    const made = await govcat("entity", "create-many", `--entities=${JSON.stringify([...entities, odd])}`);
    assert.equal(made.code, 1, "an entity failed: exit 1");
    const first = JSON.parse(made.stdout);
    assert.deepEqual(first.results.map((r: { status: string }) => r.status), [
      "created",
      "created",
      "failed",
    ]);
    assert.match(first.results[2].error, /NoSuchType/);
    const [a, b] = first.results.map((r: { guid: string }) => r.guid);

    const again = await govcat(
      "entity",
      "create-many",
      `--entities=${JSON.stringify([{ ...entities[0], description: "replaced" }])}`,
    );
    assert.equal(again.code, 1, `an entity failed: exit 1. ${again.stderr}`);
    const refused = JSON.parse(again.stdout);
    assert.equal(refused.failed, 1);
    assert.match(refused.results[0].error, /exists already; nothing was sent/);

    const description = async (guid: string) =>
      (await govcat("entity", "get", `--guid=${guid}`)).json.entity.attributes.description;
    assert.equal(await description(a), "original");

    const unconfirmed = await govcat("entity", "update", `--guid=${a}`, '--attributes={"description":"new"}');
    assert.equal(
      unconfirmed.code,
      2,
      "overwrites a value: refused without --confirm where nobody can be asked",
    );
    const updated = await govcat(
      "entity",
      "update",
      `--guid=${a}`,
      '--attributes={"description":"new"}',
      "--confirm",
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(await description(a), "new");

    const unknown = "00000000-0000-4000-8000-00000000beef";
    const updates = [{ guid: b, attributes: { description: "bee" } }, { guid: unknown, attributes: {} }];
    const many = await govcat("entity", "update-many", `--updates=${JSON.stringify(updates)}`, "--confirm");
    assert.equal(many.code, 1, `an entity failed: exit 1. ${many.stderr}`);
    const answer = JSON.parse(many.stdout);
    assert.deepEqual([answer.updated, answer.failed], [1, 1]);
    assert.equal(answer.results[1].guid, unknown);
    assert.equal(await description(b), "bee");
  });
});
