/**
 * The emulator's lineage routes over real HTTP: depth and direction as Atlas walks them, width and
 * widthCounts, the next page, the unique-attribute form, deleted entities and column mappings on
 * processes. The answer's shape and the errors are in `shape_test.ts`.
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { API_VERSION, call, CATALOG, DATAMAP, withEmulator } from "../emulator_test_helpers.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

/**
 * raw ─► load ─► staged ─► enrich ─► mart ─► publish ─► report
 *  │                ▲ lookup ─┘
 *  └─► archive_job ─► archive
 * `load` names its ends by guid in attributes, `enrich` by type and qualified name, `publish` in
 * relationship attributes, and `archive_job` has its output as a relationship instance only.
 */
interface Chain {
  raw: string;
  staged: string;
  lookup: string;
  mart: string;
  report: string;
  archive: string;
  load: string;
  enrich: string;
  publish: string;
  archiveJob: string;
}

const COLUMN_MAPPING = JSON.stringify([{
  DatasetMapping: { Source: "ds://staged", Sink: "ds://mart" },
  ColumnMapping: [{ Source: "customer_id", Sink: "CustomerKey" }],
}]);

async function createChain(emulator: RunningEmulator): Promise<Chain> {
  const dataset = (name: string) => ({
    typeName: "DataSet",
    attributes: { qualifiedName: `ds://${name}`, name },
  });
  const names = ["raw", "staged", "lookup", "mart", "report", "archive"];
  const created = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?${API_VERSION}`, {
    entities: names.map(dataset),
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const guidOf = (name: string) =>
    created.body.mutatedEntities.CREATE.find((h: { attributes: { qualifiedName: string } }) =>
      h.attributes.qualifiedName === `ds://${name}`
    ).guid as string;
  const [raw, staged, lookup, mart, report, archive] = names.map(guidOf);
  const byGuid = (guid: string) => ({ guid, typeName: "DataSet" });
  const byName = (name: string) => ({
    typeName: "DataSet",
    uniqueAttributes: { qualifiedName: `ds://${name}` },
  });
  const process = (name: string, extra: Record<string, unknown>) => ({
    typeName: "Process",
    attributes: { qualifiedName: `process://${name}`, name },
    ...extra,
  });
  const processes = await call(emulator, "POST", `${DATAMAP}/atlas/v2/entity/bulk?${API_VERSION}`, {
    entities: [
      process("load", {
        attributes: {
          qualifiedName: "process://load",
          name: "load",
          inputs: [byGuid(raw)],
          outputs: [byGuid(staged)],
        },
      }),
      process("enrich", {
        attributes: {
          qualifiedName: "process://enrich",
          name: "enrich",
          inputs: [byName("staged"), byName("lookup")],
          outputs: [byName("mart")],
          columnMapping: COLUMN_MAPPING,
        },
      }),
      process("publish", { relationshipAttributes: { inputs: [byGuid(mart)], outputs: [byGuid(report)] } }),
      process("archive_job", {
        attributes: { qualifiedName: "process://archive_job", name: "archive_job", inputs: [byGuid(raw)] },
      }),
    ],
  });
  assert.equal(processes.status, 200, JSON.stringify(processes.body));
  const processGuid = (name: string) =>
    processes.body.mutatedEntities.CREATE.find((h: { attributes: { qualifiedName: string } }) =>
      h.attributes.qualifiedName === `process://${name}`
    ).guid as string;
  const archiveJob = processGuid("archive_job");
  const relationship = await call(emulator, "POST", `${DATAMAP}/atlas/v2/relationship?${API_VERSION}`, {
    typeName: "process_dataset_outputs",
    end1: { guid: archiveJob },
    end2: { guid: archive },
  });
  assert.equal(relationship.status, 200, JSON.stringify(relationship.body));
  return {
    raw,
    staged,
    lookup,
    mart,
    report,
    archive,
    load: processGuid("load"),
    enrich: processGuid("enrich"),
    publish: processGuid("publish"),
    archiveJob,
  };
}

async function lineage(emulator: RunningEmulator, guid: string, query: string) {
  return await call(emulator, "GET", `${DATAMAP}/atlas/v2/lineage/${guid}?${query}&${API_VERSION}`);
}

// deno-lint-ignore no-explicit-any
function relationPairs(body: any): string[] {
  return body.relations.map((r: { fromEntityId: string; toEntityId: string }) =>
    `${r.fromEntityId}>${r.toEntityId}`
  )
    .sort();
}

function pairs(...edges: Array<[string, string]>): string[] {
  return edges.map(([from, to]) => `${from}>${to}`).sort();
}

Deno.test("lineage: depth 1, 2 and 3 in each direction, from data sets and processes", async () => {
  await withEmulator({ seed: true }, async (emulator) => {
    const c = await createChain(emulator);

    const upstream = await lineage(emulator, c.staged, "depth=1&direction=INPUT");
    assert.equal(upstream.status, 200, JSON.stringify(upstream.body));
    assert.deepEqual(relationPairs(upstream.body), pairs([c.raw, c.load], [c.load, c.staged]));
    assert.deepEqual(Object.keys(upstream.body.guidEntityMap).sort(), [c.raw, c.load, c.staged].sort());
    assert.equal(upstream.body.lineageDirection, "INPUT");
    assert.deepEqual(Object.keys(upstream.body.widthCounts), ["INPUT"]);

    const downstream = await lineage(emulator, c.staged, "depth=1&direction=OUTPUT");
    assert.deepEqual(relationPairs(downstream.body), pairs([c.staged, c.enrich], [c.enrich, c.mart]));
    assert.ok(!(c.lookup in downstream.body.guidEntityMap), "the other input of enrich is not downstream");

    const two = await lineage(emulator, c.raw, "depth=2&direction=OUTPUT&width=10");
    assert.deepEqual(
      relationPairs(two.body),
      pairs(
        [c.raw, c.load],
        [c.load, c.staged],
        [c.staged, c.enrich],
        [c.enrich, c.mart],
        [c.raw, c.archiveJob],
        [c.archiveJob, c.archive],
      ),
    );

    const both = await lineage(emulator, c.mart, "depth=3&direction=BOTH");
    assert.deepEqual(
      relationPairs(both.body),
      pairs(
        [c.staged, c.enrich],
        [c.lookup, c.enrich],
        [c.enrich, c.mart],
        [c.raw, c.load],
        [c.load, c.staged],
        [c.mart, c.publish],
        [c.publish, c.report],
      ),
    );
    assert.equal(both.body.lineageDepth, 3);
    assert.equal(both.body.widthCounts.INPUT[c.enrich], 2, "enrich has two inputs");
    assert.equal(both.body.widthCounts.OUTPUT[c.mart], 1);

    const fromProcess = await lineage(emulator, c.enrich, "depth=1&direction=BOTH");
    assert.deepEqual(
      relationPairs(fromProcess.body),
      pairs([c.staged, c.enrich], [c.lookup, c.enrich], [c.enrich, c.mart]),
    );
    const processDepth2 = await lineage(emulator, c.enrich, "depth=2&direction=INPUT");
    assert.deepEqual(
      relationPairs(processDepth2.body),
      pairs([c.staged, c.enrich], [c.lookup, c.enrich], [c.raw, c.load], [c.load, c.staged]),
    );

    const defaults = await lineage(emulator, c.report, "direction=INPUT");
    assert.equal(defaults.body.lineageDepth, 3, "depth defaults to 3");
    assert.equal(defaults.body.lineageWidth, 10, "width defaults to 10");
    assert.ok(c.raw in defaults.body.guidEntityMap, "three hops reach raw from report");

    const catalogPrefix = await call(
      emulator,
      "GET",
      `${CATALOG}/atlas/v2/lineage/${c.staged}?direction=INPUT`,
    );
    assert.deepEqual(relationPairs(catalogPrefix.body), relationPairs(upstream.body));
  });
});

Deno.test("lineage: width caps expansion while widthCounts keeps the totals; ids are stable", async () => {
  await withEmulator({}, async (emulator) => {
    const c = await createChain(emulator);
    const narrow = await lineage(emulator, c.enrich, "depth=1&direction=INPUT&width=1");
    assert.equal(narrow.body.relations.length, 1);
    assert.equal(narrow.body.lineageWidth, 1);
    assert.equal(narrow.body.widthCounts.INPUT[c.enrich], 2);

    const unlimited = await lineage(emulator, c.raw, "depth=1&direction=OUTPUT&width=-1");
    assert.equal(unlimited.body.lineageWidth, -1);
    assert.equal(unlimited.body.relations.length, 4);

    const again = await lineage(emulator, c.raw, "depth=1&direction=OUTPUT&width=-1");
    assert.deepEqual(again.body.relations, unlimited.body.relations, "relationship ids do not change");
    const viaInstance = unlimited.body.relations.find((r: { toEntityId: string }) =>
      r.toEntityId === c.archive
    );
    const instance = await call(
      emulator,
      "GET",
      `${DATAMAP}/atlas/v2/relationship/guid/${viaInstance.relationshipId}`,
    );
    assert.equal(instance.status, 200, "an edge from a relationship instance carries that instance's guid");
  });
});

Deno.test("lineage: next page of immediate neighbours with offset and limit", async () => {
  await withEmulator({}, async (emulator) => {
    const c = await createChain(emulator);
    const next = (query: string) =>
      call(emulator, "GET", `${DATAMAP}/lineage/${c.raw}/next?${query}&${API_VERSION}`);
    const first = await next("direction=OUTPUT&offset=0&limit=1");
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.childrenCount, 2);
    assert.equal(first.body.lineageWidth, 1);
    assert.equal(first.body.lineageDepth, 1);
    assert.deepEqual(relationPairs(first.body), pairs([c.raw, c.load], [c.load, c.staged]));
    const second = await next("direction=OUTPUT&offset=1&limit=1");
    assert.deepEqual(relationPairs(second.body), pairs([c.raw, c.archiveJob], [c.archiveJob, c.archive]));
    const past = await next("direction=OUTPUT&offset=2&limit=1");
    assert.deepEqual(past.body.relations, []);
    const all = await next("direction=BOTH");
    assert.equal(all.body.childrenCount, 2, "raw has no producers");
    assert.equal(all.body.relations.length, 4);
    const fromProcess = await call(
      emulator,
      "GET",
      `${DATAMAP}/lineage/${c.enrich}/next?direction=INPUT&limit=5`,
    );
    assert.equal(fromProcess.body.childrenCount, 2);
    const bad = await next("direction=OUTPUT&offset=-1");
    assert.equal(bad.status, 400);
    const unknown = await call(emulator, "GET", `${DATAMAP}/lineage/${UNKNOWN}/next?direction=BOTH`);
    assert.equal(unknown.status, 404);
  });
});

Deno.test("lineage: by type and unique attribute", async () => {
  await withEmulator({}, async (emulator) => {
    const c = await createChain(emulator);
    const path = `${DATAMAP}/atlas/v2/lineage/uniqueAttribute/type`;
    const found = await call(
      emulator,
      "GET",
      `${path}/DataSet?attr:qualifiedName=ds%3A%2F%2Fstaged&depth=1&direction=INPUT`,
    );
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.equal(found.body.baseEntityGuid, c.staged);
    assert.deepEqual(relationPairs(found.body), pairs([c.raw, c.load], [c.load, c.staged]));
    const missing = await call(
      emulator,
      "GET",
      `${path}/DataSet?attr:qualifiedName=ds%3A%2F%2Fnone&direction=BOTH`,
    );
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errorCode, "ATLAS-404-00-009");
    const noName = await call(emulator, "GET", `${path}/DataSet?direction=BOTH`);
    assert.equal(noName.status, 400);
    const noType = await call(emulator, "GET", `${path}/no_such_type?attr:qualifiedName=x&direction=BOTH`);
    assert.equal(noType.status, 404);
  });
});

Deno.test("lineage: deleted processes and data sets drop out of the graph", async () => {
  await withEmulator({}, async (emulator) => {
    const c = await createChain(emulator);
    const removed = await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${c.publish}`);
    assert.equal(removed.status, 200);
    const downstream = await lineage(emulator, c.mart, "depth=3&direction=OUTPUT");
    assert.deepEqual(downstream.body.relations, []);
    assert.deepEqual(Object.keys(downstream.body.guidEntityMap), [c.mart]);
    assert.equal(downstream.body.widthCounts.OUTPUT[c.mart], 0);

    await call(emulator, "DELETE", `${DATAMAP}/atlas/v2/entity/guid/${c.lookup}`);
    const inputs = await lineage(emulator, c.enrich, "depth=1&direction=INPUT");
    assert.deepEqual(relationPairs(inputs.body), pairs([c.staged, c.enrich]));

    const deletedBase = await lineage(emulator, c.publish, "depth=1&direction=BOTH");
    assert.equal(deletedBase.status, 200, "a deleted entity is still answered, alone");
    assert.equal(deletedBase.body.guidEntityMap[c.publish].status, "DELETED");
    assert.deepEqual(deletedBase.body.relations, []);
  });
});

Deno.test("lineage: a process's column mapping is on its header; references are not", async () => {
  await withEmulator({}, async (emulator) => {
    const c = await createChain(emulator);
    const answer = await lineage(emulator, c.mart, "depth=1&direction=INPUT");
    const enrich = answer.body.guidEntityMap[c.enrich];
    assert.equal(enrich.attributes.columnMapping, COLUMN_MAPPING);
    assert.equal(JSON.parse(enrich.attributes.columnMapping)[0].ColumnMapping[0].Sink, "CustomerKey");
    assert.equal(enrich.attributes.inputs, undefined);
    assert.equal(enrich.attributes.outputs, undefined);
    assert.equal(enrich.attributes.qualifiedName, "process://enrich");
  });
});
