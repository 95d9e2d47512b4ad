/**
 * Relationship commands as a user runs them: create from options or a payload file, get with
 * and without extended info, update, delete; refusals exit 1 with the service's status, bad payload files
 * exit 2 before anything is sent.
 */
import assert from "node:assert/strict";
import { assertNotFound, assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

const UNKNOWN_GUID = "00000000-0000-4000-8000-00000000dead";

Deno.test("entity create-relationship, get-relationship, update-relationship and delete-relationship", async () => {
  await withCliSetup({}, async (setup) => {
    const { client, dir, file, govcat } = setup;
    await client.types.create({
      relationshipDefs: [{
        name: "e2e_feeds",
        relationshipCategory: "ASSOCIATION",
        endDef1: { type: "DataSet", name: "feeds", cardinality: "SET" },
        endDef2: { type: "Process", name: "fedBy", cardinality: "SET" },
        attributeDefs: [{ name: "note", typeName: "string", isOptional: true, cardinality: "SINGLE" }],
      }],
    });
    const entities = await client.entity.createOrUpdateMany([
      { typeName: "Process", attributes: { qualifiedName: "process://e2e/load", name: "load" } },
      { typeName: "DataSet", attributes: { qualifiedName: "dataset://e2e/raw", name: "raw" } },
    ]);
    const created = entities.mutatedEntities!.CREATE!;
    const process = created.find((h) => h.typeName === "Process")!.guid!;
    const dataSet = created.find((h) => h.typeName === "DataSet")!.guid!;

    const fromOptions = await govcat(
      "entity",
      "create-relationship",
      "--type-name=dataset_process_inputs",
      `--end1-guid=${process}`,
      `--end2-guid=${dataSet}`,
    );
    assert.equal(fromOptions.code, 0, fromOptions.stderr);
    const guid = fromOptions.json.guid;
    assert.match(guid, /^[0-9a-f-]{36}$/);
    assert.equal(fromOptions.json.typeName, "dataset_process_inputs");

    const fetched = await govcat("entity", "get-relationship", `--guid=${guid}`);
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.equal(fetched.json.relationship.end1.guid, process);
    const extended = await govcat("entity", "getRelationship", `--guid=${guid}`, "--extended-info");
    assert.equal(extended.code, 0, extended.stderr);
    assert.ok(extended.json.referredEntities[dataSet], "extended info has the ends' headers");

    const fromFile = await govcat(
      "entity",
      "createRelationship",
      `--payloadFile=${await file("feeds.json", {
        typeName: "e2e_feeds",
        end1: { guid: dataSet, typeName: "DataSet" },
        end2: { guid: process, typeName: "Process" },
        attributes: { note: "nightly" },
      })}`,
    );
    assert.equal(fromFile.code, 0, fromFile.stderr);
    const feeds = fromFile.json.guid;
    assert.equal(fromFile.json.attributes.note, "nightly");

    const merged = await govcat(
      "entity",
      "update-relationship",
      `--guid=${feeds}`,
      '--attributes={"note":"hourly"}',
    );
    assert.equal(merged.code, 0, merged.stderr);
    assert.equal((await client.relationships.get(feeds)).relationship?.attributes?.note, "hourly");
    const whole = await govcat(
      "entity",
      "updateRelationship",
      `--payloadFile=${await file("update.json", { ...fromFile.json, attributes: { note: "weekly" } })}`,
    );
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal((await client.relationships.get(feeds)).relationship?.attributes?.note, "weekly");

    const deleted = await govcat("entity", "delete-relationship", "--confirm", `--guid=${guid}`);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(deleted.json, { guid, deleted: true });
    const removed = await govcat("entity", "deleteRelationship", "--confirm", `--guid=${feeds}`);
    assert.equal(removed.code, 0, removed.stderr);

    // Errors: the service's 404 exits 1 with a hint; bad input exits 2 and sends nothing.
    for (
      const args of [
        ["get-relationship", `--guid=${UNKNOWN_GUID}`],
        ["delete-relationship", "--confirm", `--guid=${UNKNOWN_GUID}`],
        ["update-relationship", `--guid=${UNKNOWN_GUID}`, '--attributes={"note":"x"}'],
        [
          "create-relationship",
          "--type-name=dataset_process_inputs",
          `--end1-guid=${UNKNOWN_GUID}`,
          `--end2-guid=${dataSet}`,
        ],
      ]
    ) {
      await assertNotFound(setup, ["entity", ...args]);
    }
    const wrongEnds = await govcat(
      "entity",
      "create-relationship",
      "--type-name=dataset_process_inputs",
      `--end1-guid=${dataSet}`,
      `--end2-guid=${process}`,
    );
    assert.equal(wrongEnds.code, 1, "ends of the wrong types are refused by the service");
    assert.match(wrongEnds.stderr, /status: 400/);

    const refusals: Array<[RegExp, string[]]> = [
      [/needs --end1-guid, --end2-guid/, ["create-relationship", "--type-name=dataset_process_inputs"]],
      [/broken\.json is not valid JSON/, [
        "create-relationship",
        `--payloadFile=${await file("broken.json", "{")}`,
      ]],
      [
        /ends\.json has the wrong shape: expected a relationship .*found an end1 that is a string/,
        [
          "create-relationship",
          `--payloadFile=${await file("ends.json", { typeName: "x", end1: "a", end2: {} })}`,
        ],
      ],
      [/list\.json has the wrong shape: .*found an array/, [
        "update-relationship",
        `--payloadFile=${await file("list.json", [])}`,
      ]],
      [/noguid\.json has the wrong shape: .*found no guid/, [
        "update-relationship",
        `--payloadFile=${await file("noguid.json", { typeName: "x" })}`,
      ]],
      [/needs --payloadFile, or --guid with --attributes/, ["update-relationship", `--guid=${feeds}`]],
      [/--payloadFile: file not found: .*nope\.json/, [
        "create-relationship",
        `--payloadFile=${dir}/nope.json`,
      ]],
    ];
    for (const [pattern, args] of refusals) await assertRefusedLocally(setup, pattern, ["entity", ...args]);
  });
});
