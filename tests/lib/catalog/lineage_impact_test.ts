/**
 * The impact and path analysis over hand-written lineage answers: hops from a data set and from a
 * process, the depth bound, cycles, both directions, the width cut, and the shortest directed path.
 */
import assert from "node:assert/strict";
import {
  byNearest,
  nodeSummary,
  pathBetween,
  reachedFrom,
  widthCutCount,
} from "../../../lib/catalog/lineage_impact.ts";
import type { AtlasLineageInfo } from "../../../lib/catalog/lineage_types.ts";

/** A lineage answer holding only these edges. */
function relations(...edges: Array<[string, string]>): AtlasLineageInfo {
  return { relations: edges.map(([fromEntityId, toEntityId]) => ({ fromEntityId, toEntityId })) };
}

/** a → p1 → b → p2 → c, with p1 also writing d. */
const CHAIN = relations(["a", "p1"], ["p1", "b"], ["p1", "d"], ["b", "p2"], ["p2", "c"]);
const PROCESSES = new Set(["p1", "p2", "p3"]);

Deno.test("reachedFrom: hops count processes, from a data set and from a process", () => {
  assert.deepEqual(
    Object.fromEntries(reachedFrom(CHAIN, "a", "OUTPUT", PROCESSES, 3)),
    { p1: 1, b: 1, d: 1, p2: 2, c: 2 },
  );
  assert.deepEqual(
    Object.fromEntries(reachedFrom(CHAIN, "p1", "OUTPUT", PROCESSES, 3)),
    { b: 1, d: 1, p2: 2, c: 2 },
    "a process is its own first hop",
  );
  assert.deepEqual(Object.fromEntries(reachedFrom(CHAIN, "c", "INPUT", PROCESSES, 3)), {
    p2: 1,
    b: 1,
    p1: 2,
    a: 2,
  });
});

Deno.test("reachedFrom: the depth bound, the shortest distance, and cycles", () => {
  assert.deepEqual(Object.fromEntries(reachedFrom(CHAIN, "a", "OUTPUT", PROCESSES, 1)), {
    p1: 1,
    b: 1,
    d: 1,
  });
  const shortcut = relations(
    ...CHAIN.relations!.map((r) => [r.fromEntityId!, r.toEntityId!] as [string, string]),
    [
      "a",
      "p3",
    ],
    ["p3", "c"],
  );
  assert.equal(reachedFrom(shortcut, "a", "OUTPUT", PROCESSES, 3).get("c"), 1, "the nearer way counts");
  const cycle = relations(["a", "p1"], ["p1", "b"], ["b", "p2"], ["p2", "a"]);
  assert.deepEqual(
    Object.fromEntries(reachedFrom(cycle, "a", "OUTPUT", PROCESSES, 10)),
    { p1: 1, b: 1, p2: 2 },
    "the base is never reached again",
  );
});

Deno.test("widthCutCount: expanded nodes whose full neighbour count exceeds the answer's", () => {
  const info: AtlasLineageInfo = {
    ...CHAIN,
    widthCounts: { OUTPUT: { a: 1, p1: 2, b: 3, d: 0, p2: 1, c: 5 } },
  };
  const reached = reachedFrom(info, "a", "OUTPUT", PROCESSES, 2);
  // b has 3 consumers and the answer holds 1; c is at the depth, so its 5 were never asked for.
  assert.equal(widthCutCount(info, "a", "OUTPUT", PROCESSES, reached, 2), 1);
  assert.equal(widthCutCount(CHAIN, "a", "OUTPUT", PROCESSES, reached, 2), 0, "no counts, no cut");
});

Deno.test("pathBetween: the shortest chain along the edges, none against them", () => {
  assert.deepEqual(pathBetween(CHAIN, "a", "c"), ["a", "p1", "b", "p2", "c"]);
  assert.equal(pathBetween(CHAIN, "c", "a"), undefined);
  assert.equal(pathBetween(CHAIN, "b", "d"), undefined, "siblings are not a path");
  assert.equal(pathBetween(CHAIN, "a", "z"), undefined);
});

Deno.test("nodeSummary and byNearest: names from the header, nearest first then by name", () => {
  const named = nodeSummary("g1", {
    typeName: "azure_sql_table",
    displayText: "shown",
    attributes: { qualifiedName: "mssql://t", name: "" },
  }, 2);
  assert.deepEqual(named, {
    guid: "g1",
    typeName: "azure_sql_table",
    name: "shown",
    qualifiedName: "mssql://t",
    hops: 2,
  });
  assert.deepEqual(nodeSummary("g2", undefined, 1), {
    guid: "g2",
    typeName: "",
    name: undefined,
    qualifiedName: undefined,
    hops: 1,
  });
  const sorted = [
    { guid: "x", typeName: "t", name: "b", hops: 2 },
    { guid: "y", typeName: "t", name: "a", hops: 2 },
    { guid: "z", typeName: "t", name: "z", hops: 1 },
  ].sort(byNearest);
  assert.deepEqual(sorted.map((n) => n.guid), ["z", "y", "x"]);
});
