/**
 * `lineage impact` and `lineage path`: what is affected downstream (or upstream) of an entity, grouped by
 * type and owner, and how data gets from one entity to another. Each asks the catalog for one lineage
 * answer at the needed depth and analyses it (`lib/catalog/lineage_impact.ts`); impact then reads the
 * listed assets in bulk for their owners (`contacts.Owner`, which lineage headers lack), in at most
 * `limit / OWNER_LOOKUP_BATCH` calls.
 *
 * Processes are the edges of impact, not affected assets: impact lists them apart, so a model can say
 * which jobs carry the change, and the path lists them between the data sets they join.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import {
  byNearest,
  type ImpactDirection,
  type LineageNodeSummary,
  nodeSummary,
  pathBetween,
  reachedFrom,
  widthCutCount,
} from "../catalog/lineage_impact.ts";
import { processGuidsOf } from "../catalog/lineage_kinds.ts";
import type { AtlasLineageInfo } from "../catalog/lineage_types.ts";
import type { AtlasEntityHeader } from "../catalog/atlas_model.ts";
import { z } from "../deps/zod.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { guidField } from "./guid_fields.ts";
import { defineOperation, type OperationContext, READ } from "./types.ts";

/** Deepest walk either command asks for; the lineage answer grows with every hop. */
export const MAX_IMPACT_DEPTH = 10;
/** Assets (and, apart, processes) listed at most; the rest are counted and flagged `truncated`. */
export const MAX_IMPACT_LIMIT = 1000;
/** Listed by default. */
export const DEFAULT_IMPACT_LIMIT = 200;
/** Neighbours each node expands in the lineage call, as get_lineage asks. */
const LINEAGE_WIDTH = 100;
/** GUIDs per bulk entity read for owners (the query string stays a few kilobytes). */
export const OWNER_LOOKUP_BATCH = 100;
/** The by-owner group of assets without an owner. */
export const NO_OWNER = "(none)";

const depthField = z.number().int().min(1).max(MAX_IMPACT_DEPTH).default(3).describe(
  `Hops to walk, 1 to ${MAX_IMPACT_DEPTH}; one hop is one process (data set → process → data set)`,
);

/** An affected asset: its place and its owners (contact ids and the `owner` attribute). */
export interface ImpactedAsset extends LineageNodeSummary {
  owners: string[];
}

/** What `lineage impact` answers. */
export interface ImpactReport {
  baseGuid: string;
  direction: ImpactDirection;
  depth: number;
  /** Data sets reached, listed or not. */
  assetCount: number;
  /** Processes reached, listed or not. */
  processCount: number;
  /** Fewer listed than reached, or the lineage call's width left neighbours out. */
  truncated: boolean;
  /** GUIDs of the listed assets by type name. */
  byType: Record<string, string[]>;
  /** GUIDs of the listed assets by owner; {@link NO_OWNER} for those without. */
  byOwner: Record<string, string[]>;
  /** Nearest first. */
  assets: ImpactedAsset[];
  /** The processes the impact travels through, nearest first. */
  processes: LineageNodeSummary[];
}

export const lineageImpact = defineOperation({
  id: "lineage.impact",
  group: "lineage",
  command: "impact",
  summary: "What is affected downstream (or upstream) of an entity, grouped by type and owner",
  description: "Asks for the entity's lineage once and lists every data set reached within --depth " +
    "hops, nearest first, with its hops and owners (contacts.Owner ids and the owner attribute), grouped " +
    "by type and by owner; the processes between them are listed apart. --limit caps each list; " +
    "truncated says when more were reached (assetCount, processCount count them all).",
  input: z.object({
    guid: guidField("GUID of the entity whose impact to analyse"),
    direction: z.enum(["OUTPUT", "INPUT"]).default("OUTPUT").describe(
      "OUTPUT (downstream: what reads it, what breaks if it changes) or INPUT (upstream: what feeds it)",
    ),
    depth: depthField,
    limit: z.number().int().min(1).max(MAX_IMPACT_LIMIT).default(DEFAULT_IMPACT_LIMIT).describe(
      `Assets (and processes) listed at most, 1 to ${MAX_IMPACT_LIMIT}`,
    ),
  }),
  annotations: READ,
  run: async (ctx, input): Promise<ImpactReport> => {
    const catalog = ctx.catalog();
    const info = await catalog.lineage.get(input.guid, {
      direction: input.direction,
      depth: input.depth,
      width: LINEAGE_WIDTH,
      signal: ctx.signal,
    });
    const processes = await processGuidsOf(info, input.guid, superTypesOf(ctx));
    const reached = reachedFrom(info, input.guid, input.direction, processes, input.depth);
    const headers = info.guidEntityMap ?? {};
    const nodes = [...reached].map(([guid, hops]) => nodeSummary(guid, headers[guid], hops)).sort(byNearest);
    const assetNodes = nodes.filter((node) => !processes.has(node.guid));
    const processNodes = nodes.filter((node) => processes.has(node.guid));
    const listed = assetNodes.slice(0, input.limit);
    const owners = await ownersOf(catalog, listed.map((node) => node.guid), headers, ctx.signal);
    const assets = listed.map((node) => ({ ...node, owners: owners.get(node.guid) ?? [] }));
    const widthCut = widthCutCount(info, input.guid, input.direction, processes, reached, input.depth);
    return {
      baseGuid: input.guid,
      direction: input.direction,
      depth: input.depth,
      assetCount: assetNodes.length,
      processCount: processNodes.length,
      truncated: listed.length < assetNodes.length || processNodes.length > input.limit || widthCut > 0,
      byType: groupGuids(assets, (asset) => [asset.typeName]),
      byOwner: groupGuids(assets, (asset) => asset.owners.length > 0 ? asset.owners : [NO_OWNER]),
      assets,
      processes: processNodes.slice(0, input.limit),
    };
  },
});

/** A node of a lineage path. */
export interface PathNode extends LineageNodeSummary {
  kind: "dataset" | "process";
}

/** What `lineage path` answers. */
export interface PathReport {
  /** Where the path was looked for from. */
  guid: string;
  toGuid: string;
  depth: number;
  /** A path exists within depth, in one direction or the other. */
  found: boolean;
  /** Data flows from toGuid to guid: the path starts at toGuid. */
  reversed: boolean;
  /** In the order data flows; empty when none was found. */
  path: PathNode[];
}

export const lineagePath = defineOperation({
  id: "lineage.path",
  group: "lineage",
  command: "path",
  summary: "The shortest lineage path from one entity to another: the data sets and processes between",
  description: "Asks for --guid's lineage both ways once, to --depth hops, and answers the shortest " +
    "chain of data sets and processes from it to --to-guid in the order data flows (reversed: true when " +
    "data flows from --to-guid to --guid), or found: false when none is within --depth.",
  input: z.object({
    guid: guidField("GUID of the entity the path starts at"),
    toGuid: guidField("GUID of the entity the path ends at"),
    depth: depthField,
  }),
  annotations: READ,
  run: async (ctx, input): Promise<PathReport> => {
    if (input.guid.toLowerCase() === input.toGuid.toLowerCase()) {
      throw new UsageError(
        "lineage path: --guid and --to-guid name the same entity; there is no path to find.",
        "Give two different entities, e.g. a source table and a report built from it.",
      );
    }
    const catalog = ctx.catalog();
    const info = await catalog.lineage.get(input.guid, {
      direction: "BOTH",
      depth: input.depth,
      width: LINEAGE_WIDTH,
      signal: ctx.signal,
    });
    const forward = pathBetween(info, input.guid, input.toGuid);
    const backward = forward ? undefined : pathBetween(info, input.toGuid, input.guid);
    const guids = forward ?? backward;
    const answer = { guid: input.guid, toGuid: input.toGuid, depth: input.depth };
    if (!guids) {
      // Not in the answer may mean no such entity: say which, rather than "no path".
      await catalog.entity.getHeader(input.toGuid, ctx.signal);
      return { ...answer, found: false, reversed: false, path: [] };
    }
    const processes = await processGuidsOf(info, input.guid, superTypesOf(ctx));
    return { ...answer, found: true, reversed: !forward, path: pathNodes(info, guids, processes) };
  },
});

function pathNodes(info: AtlasLineageInfo, guids: string[], processes: ReadonlySet<string>): PathNode[] {
  let hops = 0;
  return guids.map((guid) => {
    const isProcess = processes.has(guid);
    if (isProcess) hops++;
    return {
      ...nodeSummary(guid, info.guidEntityMap?.[guid], hops),
      kind: isProcess ? "process" : "dataset",
    };
  });
}

/** A type's super types through the catalog; undefined for a type it does not know. */
function superTypesOf(ctx: OperationContext) {
  return async (name: string): Promise<string[] | undefined> => {
    try {
      return (await ctx.catalog().types.get("entity", { name }, ctx.signal)).superTypes ?? [];
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
}

/**
 * Each asset's owners: the ids of its `contacts.Owner` (read in bulk, as lineage headers do not carry
 * contacts) and its `owner` attribute when set, each once.
 */
async function ownersOf(
  catalog: CatalogClient,
  guids: string[],
  headers: Record<string, AtlasEntityHeader>,
  signal?: AbortSignal,
): Promise<Map<string, string[]>> {
  const owners = new Map<string, Set<string>>(guids.map((guid) => [guid, new Set()]));
  for (let start = 0; start < guids.length; start += OWNER_LOOKUP_BATCH) {
    const batch = guids.slice(start, start + OWNER_LOOKUP_BATCH);
    const entities = await catalog.entity.getMany(batch, {
      minExtInfo: true,
      ignoreRelationships: true,
      signal,
    })
      .then((answer) => answer.entities ?? [])
      // One deleted since the lineage answer fails the batch; its assets keep their owner attribute only.
      .catch((error) => {
        if (error instanceof NotFoundError) return [];
        throw error;
      });
    for (const entity of entities) {
      for (const contact of entity.contacts?.Owner ?? []) {
        if (entity.guid && contact.id) owners.get(entity.guid)?.add(contact.id);
      }
    }
  }
  for (const guid of guids) {
    const attribute = headers[guid]?.attributes?.owner;
    if (typeof attribute === "string" && attribute.trim() !== "") owners.get(guid)!.add(attribute.trim());
  }
  return new Map([...owners].map(([guid, set]) => [guid, [...set]]));
}

function groupGuids<T extends { guid: string }>(
  items: T[],
  keys: (item: T) => string[],
): Record<string, string[]> {
  // A Map, then entries: keys are catalog text, and "__proto__" must stay an ordinary key.
  const groups = new Map<string, string[]>();
  for (const item of items) {
    for (const key of keys(item)) groups.set(key, [...(groups.get(key) ?? []), item.guid]);
  }
  return Object.fromEntries(groups);
}
