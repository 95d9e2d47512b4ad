/**
 * Which lineage nodes are processes: read off a plain Process or DataSet node when there is one, else off
 * the base's type and its super types (looked up only then).
 */
import assert from "node:assert/strict";
import { processGuidsOf } from "../../../lib/catalog/lineage_kinds.ts";
import type { AtlasLineageInfo } from "../../../lib/catalog/lineage_types.ts";

function graph(types: Record<string, string>): AtlasLineageInfo {
  return {
    guidEntityMap: Object.fromEntries(
      Object.entries(types).map(([guid, typeName]) => [guid, { guid, typeName }]),
    ),
    relations: [
      { fromEntityId: "t1", toEntityId: "j1" },
      { fromEntityId: "j1", toEntityId: "t2" },
      { fromEntityId: "t2", toEntityId: "j2" },
    ],
  };
}

Deno.test("processGuidsOf: a plain Process node decides, no type is looked up", async () => {
  const looked: string[] = [];
  const info = graph({ t1: "azure_sql_table", j1: "Process", t2: "azure_sql_table", j2: "etl_job" });
  const processes = await processGuidsOf(info, "t2", (name) => {
    looked.push(name);
    return Promise.resolve(undefined);
  });
  assert.deepEqual([...processes].sort(), ["j1", "j2"]);
  assert.deepEqual(looked, []);
});

Deno.test("processGuidsOf: custom types only, the base's super types decide", async () => {
  const info = graph({ t1: "sql_table", j1: "etl_job", t2: "sql_table", j2: "etl_job" });
  const superTypes: Record<string, string[]> = { etl_job: ["pipeline_step"], pipeline_step: ["Process"] };
  const fromJob = await processGuidsOf(info, "j1", (name) => Promise.resolve(superTypes[name]));
  assert.deepEqual([...fromJob].sort(), ["j1", "j2"]);
  const fromTable = await processGuidsOf(
    info,
    "t1",
    (name) => Promise.resolve(superTypes[name] ?? ["DataSet"]),
  );
  assert.deepEqual([...fromTable].sort(), ["j1", "j2"], "a data set base: the other colour");
  const unknown = await processGuidsOf(info, "j1", () => Promise.resolve(undefined));
  assert.deepEqual([...unknown].sort(), ["t1", "t2"], "an unknown type is taken for a data set");
});
