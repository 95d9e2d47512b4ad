/**
 * Which nodes of a lineage answer are processes. Lineage relations always join a data set and a process,
 * so the graph is two-coloured from the base; one look at a plain `Process` or `DataSet` node, or else at
 * the base's type and its super types, says which colour the processes are. Shared by get_lineage and the
 * impact and path analysis (`lineage_impact.ts`).
 *
 * @example
 * ```ts
 * import { processGuidsOf } from "./lineage_kinds.ts";
 * const info = {
 *   guidEntityMap: { t1: { guid: "t1", typeName: "azure_sql_table" }, p1: { guid: "p1", typeName: "Process" } },
 *   relations: [{ fromEntityId: "t1", toEntityId: "p1" }],
 * };
 * const processes = await processGuidsOf(info, "t1", () => Promise.resolve(undefined));
 * console.log([...processes]); // ["p1"]
 * ```
 *
 * @module
 */
import type { AtlasLineageInfo } from "./lineage_types.ts";

/** The super types of an entity type, or undefined when the type is unknown. */
export type SuperTypesOf = (typeName: string) => Promise<string[] | undefined>;

/** The process GUIDs among the nodes of `info` reached from `baseGuid`. */
export async function processGuidsOf(
  info: AtlasLineageInfo,
  baseGuid: string,
  superTypesOf: SuperTypesOf,
): Promise<Set<string>> {
  const neighbours = new Map<string, string[]>();
  for (const r of info.relations ?? []) {
    if (!r.fromEntityId || !r.toEntityId) continue;
    neighbours.set(r.fromEntityId, [...(neighbours.get(r.fromEntityId) ?? []), r.toEntityId]);
    neighbours.set(r.toEntityId, [...(neighbours.get(r.toEntityId) ?? []), r.fromEntityId]);
  }
  const colour = new Map<string, boolean>([[baseGuid, true]]);
  const queue = [baseGuid];
  while (queue.length > 0) {
    const guid = queue.shift()!;
    for (const next of neighbours.get(guid) ?? []) {
      if (!colour.has(next)) {
        colour.set(next, !colour.get(guid));
        queue.push(next);
      }
    }
  }
  const types = info.guidEntityMap ?? {};
  const anchor = [...colour.keys()].find((g) =>
    types[g]?.typeName === "Process" || types[g]?.typeName === "DataSet"
  );
  const baseIsProcess = anchor !== undefined
    ? (types[anchor]?.typeName === "Process") === colour.get(anchor)
    : await isProcessType(superTypesOf, String(types[baseGuid]?.typeName ?? ""));
  return new Set([...colour].filter(([, sameAsBase]) => sameAsBase === baseIsProcess).map(([guid]) => guid));
}

/** Walks the type's super types until Process (true) or DataSet or the root (false). */
async function isProcessType(superTypesOf: SuperTypesOf, typeName: string): Promise<boolean> {
  const seen = new Set<string>();
  let level = [typeName];
  while (level.length > 0) {
    if (level.includes("Process")) return true;
    const next: string[] = [];
    for (const name of level) {
      if (name === "" || name === "DataSet" || seen.has(name)) continue;
      seen.add(name);
      next.push(...(await superTypesOf(name) ?? []));
    }
    level = next;
  }
  return false;
}
