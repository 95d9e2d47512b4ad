/**
 * The indexed lineage graph (lib/emulator/lineage/graph.ts, reading through references.ts beside it)
 * answers exactly as the full scan it replaced (tests/support/lineage_full_scan.ts) on random small catalogs:
 * processes and data sets written, rewritten, soft-deleted and purged in random order; ends named by guid,
 * by placeholder guid and unique attributes, by unique attributes under a super type, in attributes and
 * relationship attributes, one or many; relationship instances added and removed; and the index made
 * before the writes (kept by its triggers) or after them (filled from the stored entities). Every entity is
 * asked for in every direction at several depths and widths, with and without parents, and for its next
 * page; the answers must match to the byte.
 */
import assert from "node:assert/strict";
import type { AreaDependencies } from "../../../../lib/emulator/area.ts";
import type { AtlasEntity } from "../../../../lib/emulator/entity/model.ts";
import { lineageInfo, type LineageQuery, nextPageInfo } from "../../../../lib/emulator/lineage/answer.ts";
import { LineageGraph } from "../../../../lib/emulator/lineage/graph.ts";
import { LineageReferences } from "../../../../lib/emulator/lineage/references.ts";
import { type AtlasRelationship, RelationshipStore } from "../../../../lib/emulator/relationship/store.ts";
import { EntityStore } from "../../../../lib/emulator/store.ts";
import { createTypeSystem } from "../../../../lib/emulator/types/system.ts";
import { FullScanLineageGraph } from "../../../support/lineage_full_scan.ts";
import { fc, propertyRuns } from "../../../support/property.ts";

const DATASETS = ["d0", "d1", "d2", "d3"];
const PROCESSES = ["p0", "p1", "p2"];
const GUIDS = [...DATASETS, ...PROCESSES];
const NAMES = ["ds://a", "ds://b", "ds://c", "ds://d", "ds://e"];
const TYPES = ["DataSet", "azure_sql_table", "Process", "adf_copy_activity"];
const rarely = fc.nat(4).map((n) => n === 0);

const reference = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ guid: fc.constantFrom(...DATASETS), typeName: fc.constantFrom(...TYPES) }),
  },
  fc.record({ guid: fc.constantFrom(...PROCESSES, "missing"), typeName: fc.constantFrom(...TYPES) }),
  fc.record({
    guid: fc.constant("-12"),
    typeName: fc.constantFrom(...TYPES),
    uniqueAttributes: fc.record({ qualifiedName: fc.constantFrom(...NAMES) }),
  }),
  {
    weight: 2,
    arbitrary: fc.record({
      typeName: fc.constantFrom(...TYPES),
      uniqueAttributes: fc.record({ qualifiedName: fc.constantFrom(...NAMES) }),
    }),
  },
  fc.constantFrom("junk", null),
);
// An end list as a process may hold it: absent, one object id, or several.
const ends = fc.oneof(fc.constant(undefined), reference, fc.array(reference, { maxLength: 3 }));

const datasetWrite = fc.record({
  kind: fc.constant("entity" as const),
  guid: fc.constantFrom(...DATASETS),
  typeName: fc.constantFrom("DataSet", "azure_sql_table"),
  qualifiedName: fc.constantFrom(...NAMES),
  deleted: rarely,
  attributes: fc.constant({}),
  relationshipAttributes: fc.record({ parent: ends }),
});
const processWrite = fc.record({
  kind: fc.constant("entity" as const),
  guid: fc.constantFrom(...PROCESSES),
  typeName: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("Process", "adf_copy_activity") },
    fc.constant("DataSet"),
  ),
  qualifiedName: fc.constantFrom("process://x", "process://y", "process://z"),
  deleted: rarely,
  attributes: fc.record({ inputs: ends, outputs: ends }),
  relationshipAttributes: fc.record({ inputs: ends, outputs: ends }),
});
const relationshipWrite = fc.record({
  kind: fc.constant("relationship" as const),
  guid: fc.constantFrom("r0", "r1", "r2", "r3"),
  typeName: fc.constantFrom("dataset_process_inputs", "process_dataset_outputs", "process_parent"),
  end1: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PROCESSES) }, fc.constantFrom(...DATASETS)),
  end2: fc.constantFrom(...GUIDS),
  deleted: rarely,
});
const purge = fc.record({ kind: fc.constant("purge" as const), guid: fc.constantFrom(...GUIDS) });
const unrelate = fc.record({
  kind: fc.constant("unrelate" as const),
  guid: fc.constantFrom("r0", "r1", "r2", "r3"),
});
const writes = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: datasetWrite },
    { weight: 4, arbitrary: processWrite },
    { weight: 2, arbitrary: relationshipWrite },
    purge,
    unrelate,
  ),
  { minLength: 10, maxLength: 30 },
);

type Write = typeof writes extends fc.Arbitrary<Array<infer W>> ? W : never;

function apply(store: EntityStore, relationships: RelationshipStore, write: Write): void {
  const stamps = { createTime: 0, updateTime: 0, createdBy: "test", updatedBy: "test", version: 0 };
  if (write.kind === "purge") {
    store.delete(write.guid);
  } else if (write.kind === "unrelate") {
    relationships.delete(write.guid);
  } else if (write.kind === "relationship") {
    const relationship: AtlasRelationship = {
      guid: write.guid,
      typeName: write.typeName,
      end1: { guid: write.end1, typeName: "Process" },
      end2: { guid: write.end2, typeName: "DataSet" },
      attributes: {},
      label: `r:${write.typeName}`,
      status: write.deleted ? "DELETED" : "ACTIVE",
      ...stamps,
    };
    relationships.put(relationship);
  } else {
    const entity = {
      guid: write.guid,
      typeName: write.typeName,
      attributes: {
        qualifiedName: write.qualifiedName,
        name: write.guid,
        ...withoutUndefined(write.attributes),
      },
      relationshipAttributes: withoutUndefined(write.relationshipAttributes),
      status: write.deleted ? "DELETED" : "ACTIVE",
      lastModifiedTS: "1",
      ...stamps,
    } as AtlasEntity;
    try {
      store.put(entity);
    } catch (error) {
      // Another ACTIVE entity has this type and qualified name (the service's 409): nothing is written.
      if ((error as { status?: number }).status !== 409) throw error;
    }
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

const QUERIES: LineageQuery[] = (["BOTH", "INPUT", "OUTPUT"] as const).flatMap((direction) =>
  [0, 1, 2, 3].flatMap((depth) =>
    [1, 10, Number.POSITIVE_INFINITY].map((width) => ({
      direction,
      depth,
      width,
      includeParent: depth === 2,
    }))
  )
);

function assertSameAnswers(deps: AreaDependencies): void {
  const isA = (typeName: string, superType: string) => deps.types.isA(typeName, superType);
  for (const guid of GUIDS) {
    const base = deps.store.get(guid);
    if (!base) continue;
    for (const query of QUERIES) {
      const expected: string = JSON.stringify(
        lineageInfo(FullScanLineageGraph.build(deps), base, isA, query),
      );
      const actual: string = JSON.stringify(lineageInfo(LineageGraph.open(deps), base, isA, query));
      assert.equal(actual, expected, `${guid} ${JSON.stringify(query)}`);
    }
    for (const page of [{ offset: 0 }, { offset: 1, limit: 1 }]) {
      for (const direction of ["BOTH", "INPUT", "OUTPUT"] as const) {
        const query = { direction, ...page };
        const expected: string = JSON.stringify(
          nextPageInfo(FullScanLineageGraph.build(deps), base, isA, query),
        );
        const actual: string = JSON.stringify(nextPageInfo(LineageGraph.open(deps), base, isA, query));
        assert.equal(actual, expected, `next page of ${guid} ${JSON.stringify(query)}`);
      }
    }
  }
}

Deno.test("lineage graph: the indexed graph answers as the full scan did, whatever was written and when the index was made", () => {
  fc.assert(
    fc.property(writes, fc.nat(), (sequence, indexAt) => {
      const store = EntityStore.open();
      try {
        const deps: AreaDependencies = {
          store,
          types: createTypeSystem(store.database, () => 0),
          now: () => 0,
        };
        const relationships = new RelationshipStore(store.database);
        const made = indexAt % (sequence.length + 1);
        sequence.forEach((write, position) => {
          if (position === made) LineageReferences.for(store.database);
          apply(store, relationships, write);
        });
        assertSameAnswers(deps);
      } finally {
        store.close();
      }
    }),
    propertyRuns(150),
  );
});
