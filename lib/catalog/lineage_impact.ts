/**
 * Impact and path analysis over one lineage answer (`AtlasLineageInfo`), without further calls: what is
 * reached downstream (or upstream) of an entity and how many hops away, and the shortest path of data sets
 * and processes from one entity to another.
 *
 * A hop is one process, as in the lineage call's `depth`: from a data set, the processes that read it and
 * the data sets they write are 1 hop away; from a process, the data sets it writes are 1 hop away (the
 * process itself is the first hop). So an entity's hops is the number of processes on the shortest path to
 * it, the base counted when it is a process.
 *
 * @example
 * ```ts
 * import { pathBetween, reachedFrom } from "./lineage_impact.ts";
 * const info = { relations: [{ fromEntityId: "t1", toEntityId: "p1" }, { fromEntityId: "p1", toEntityId: "t2" }] };
 * const processes = new Set(["p1"]);
 * console.log(reachedFrom(info, "t1", "OUTPUT", processes, 3)); // Map { "p1" => 1, "t2" => 1 }
 * console.log(pathBetween(info, "t1", "t2")); // ["t1", "p1", "t2"]
 * ```
 *
 * @module
 */
import type { AtlasLineageInfo } from "./lineage_types.ts";
import type { AtlasEntityHeader } from "./atlas_model.ts";

/** Which way impact is followed: OUTPUT is downstream (what reads it), INPUT upstream (what feeds it). */
export type ImpactDirection = "INPUT" | "OUTPUT";

/** One entity reached by the analysis. */
export interface LineageNodeSummary {
  guid: string;
  typeName: string;
  name?: string;
  qualifiedName?: string;
  /** Processes on the shortest path from the base to it (see the module documentation). */
  hops: number;
}

/** Each entity reached from `baseGuid` in `direction` within `depth` hops, with its hops; the base is left out. */
export function reachedFrom(
  info: AtlasLineageInfo,
  baseGuid: string,
  direction: ImpactDirection,
  processes: ReadonlySet<string>,
  depth: number,
): Map<string, number> {
  const next = adjacency(info, direction === "OUTPUT");
  const hops = new Map<string, number>([[baseGuid, processes.has(baseGuid) ? 1 : 0]]);
  const queue = [baseGuid];
  while (queue.length > 0) {
    const guid = queue.shift()!;
    for (const neighbour of next.get(guid) ?? []) {
      if (hops.has(neighbour)) continue;
      const distance = hops.get(guid)! + (processes.has(neighbour) ? 1 : 0);
      if (distance > depth) continue;
      hops.set(neighbour, distance);
      queue.push(neighbour);
    }
  }
  hops.delete(baseGuid);
  return hops;
}

/**
 * How many reached nodes had more neighbours in `direction` than the answer holds (the lineage call's
 * width cut them), among those the walk expanded: data sets short of the depth, and every process.
 */
export function widthCutCount(
  info: AtlasLineageInfo,
  baseGuid: string,
  direction: ImpactDirection,
  processes: ReadonlySet<string>,
  reached: ReadonlyMap<string, number>,
  depth: number,
): number {
  const counts = info.widthCounts?.[direction] ?? {};
  const next = adjacency(info, direction === "OUTPUT");
  const expanded = [
    baseGuid,
    ...[...reached].filter(([guid, hops]) => processes.has(guid) || hops < depth).map(([guid]) => guid),
  ];
  return expanded.filter((guid) => {
    const full = counts[guid];
    return typeof full === "number" && full > (next.get(guid)?.length ?? 0);
  }).length;
}

/** The shortest chain of GUIDs from `fromGuid` to `toGuid` following the edges' direction, if any. */
export function pathBetween(info: AtlasLineageInfo, fromGuid: string, toGuid: string): string[] | undefined {
  const next = adjacency(info, true);
  const previous = new Map<string, string | undefined>([[fromGuid, undefined]]);
  const queue = [fromGuid];
  while (queue.length > 0) {
    const guid = queue.shift()!;
    if (guid === toGuid) {
      const path: string[] = [];
      for (let at: string | undefined = guid; at !== undefined; at = previous.get(at)) path.unshift(at);
      return path;
    }
    for (const neighbour of next.get(guid) ?? []) {
      if (previous.has(neighbour)) continue;
      previous.set(neighbour, guid);
      queue.push(neighbour);
    }
  }
  return undefined;
}

/** The entity's summary from its header in the answer (type and names empty when the answer lacks it). */
export function nodeSummary(
  guid: string,
  header: AtlasEntityHeader | undefined,
  hops: number,
): LineageNodeSummary {
  const attributes = header?.attributes ?? {};
  const text = (value: unknown) => typeof value === "string" && value !== "" ? value : undefined;
  return {
    guid,
    typeName: String(header?.typeName ?? ""),
    name: text(attributes.name) ?? text(header?.displayText),
    qualifiedName: text(attributes.qualifiedName),
    hops,
  };
}

/** Nearest first, then by name, so a cut keeps what is closest and the order is stable. */
export function byNearest(a: LineageNodeSummary, b: LineageNodeSummary): number {
  return a.hops - b.hops || (a.name ?? "").localeCompare(b.name ?? "") || a.guid.localeCompare(b.guid);
}

/** Neighbours along the edges (`forward`) or against them, each listed once. */
function adjacency(info: AtlasLineageInfo, forward: boolean): Map<string, string[]> {
  const next = new Map<string, Set<string>>();
  for (const r of info.relations ?? []) {
    if (!r.fromEntityId || !r.toEntityId) continue;
    const [from, to] = forward ? [r.fromEntityId, r.toEntityId] : [r.toEntityId, r.fromEntityId];
    next.set(from, (next.get(from) ?? new Set()).add(to));
  }
  return new Map([...next].map(([guid, set]) => [guid, [...set]]));
}
