/**
 * Which assets carry a business metadata definition, and removing it from all of them:
 * `types business-metadata-assets` and `types business-metadata-unassign`, the work behind the MCP tools
 * uc_cleanup_metadata_definition and uc_delete_metadata_definition.
 *
 * The catalog has no "assigned to" query, so the assets are found with search: one filter per attribute,
 * built from the attribute's type so it matches any value, then every hit is confirmed by reading the
 * entity. The search index trails writes by seconds on the service, so a definition assigned a moment ago
 * may not be found yet.
 *
 * @module
 */
import type { AtlasAttributeDef, AtlasBusinessMetadataDef } from "../catalog/types_definitions.ts";
import type { SearchFilter } from "../catalog/atlas_model.ts";
import { z } from "../deps/zod.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { pageSignature } from "../http/paging_guard.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ } from "./types.ts";

/** Assets examined at most by one call; more are reported as `truncated`. */
export const MAX_ASSETS_SCANNED = 5000;

/** One asset carrying the definition's group, with the group's values on it. */
export interface AssignedAsset {
  guid: string;
  typeName?: string;
  name?: string;
  qualifiedName?: string;
  values: Record<string, unknown>;
}

/** The assets found, and whether more may exist than were examined. */
export interface Assignments {
  definition: string;
  assets: AssignedAsset[];
  truncated: boolean;
}

async function readDefinition(ctx: OperationContext, name: string): Promise<AtlasBusinessMetadataDef> {
  try {
    return await ctx.catalog().types.get(
      "businessmetadata",
      { name },
      ctx.signal,
    ) as AtlasBusinessMetadataDef;
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new UsageError(
        `No business metadata definition is named "${name}".`,
        "uc_list_custom_metadata_defs (or `govcat types list --type=BUSINESS_METADATA`) lists the definitions.",
      );
    }
    throw error;
  }
}

/** A filter clause that matches any value of the attribute, using the operators the contract allows. */
function anyValueClause(bmName: string, attribute: AtlasAttributeDef): SearchFilter[] {
  const attributeName = `${bmName}.${attribute.name}`;
  const typeName = String(attribute.typeName ?? "string").toLowerCase();
  if (["int", "long", "float", "double", "short", "byte", "biginteger", "bigdecimal"].includes(typeName)) {
    return [
      { attributeName, operator: "ge", attributeValue: 0 },
      { attributeName, operator: "lt", attributeValue: 0 },
    ];
  }
  if (typeName === "boolean") {
    return [
      { attributeName, operator: "eq", attributeValue: true },
      { attributeName, operator: "eq", attributeValue: false },
    ];
  }
  if (typeName === "date") {
    return [
      { attributeName, operator: "timerange", attributeValue: "LAST_365D" },
      { attributeName, operator: "timerange", attributeValue: "MORE_THAN_365D" },
    ];
  }
  return [{ attributeName, operator: "prefix", attributeValue: "" }];
}

/** The assets that carry the definition named `name`, confirmed by reading each one. */
async function findAssignments(ctx: OperationContext, name: string): Promise<Assignments> {
  const definition = await readDefinition(ctx, name);
  const catalog = ctx.catalog();
  const clauses = (definition.attributeDefs ?? []).flatMap((a) => anyValueClause(name, a));
  if (clauses.length === 0) return { definition: name, assets: [], truncated: false };
  const candidates = new Set<string>();
  let continuationToken: string | undefined;
  let truncated = false;
  // A catalog that repeats a token would keep this loop going for ever at flat memory (the same hits add
  // nothing to `candidates`): the guard stops it at once, and bounds pages and time.
  const guard = catalog.http.pagingGuard(`the search for assets carrying ${name}`);
  do {
    guard.beforePage(continuationToken);
    const page = await catalog.search.query({
      keywords: "*",
      limit: 1000,
      filter: { or: clauses },
      continuationToken,
    }, ctx.signal);
    const hits = Array.isArray(page?.value) ? page.value : [];
    guard.afterPage(hits.length, pageSignature(hits, (hit) => hit.id));
    for (const hit of hits) if (typeof hit.id === "string") candidates.add(hit.id);
    continuationToken = page?.continuationToken ?? undefined;
    if (candidates.size >= MAX_ASSETS_SCANNED) truncated = continuationToken !== undefined;
  } while (continuationToken && candidates.size < MAX_ASSETS_SCANNED);

  const assets: AssignedAsset[] = [];
  const guids = [...candidates];
  for (let start = 0; start < guids.length; start += 100) {
    const page = await catalog.entity.getMany(guids.slice(start, start + 100), {
      minExtInfo: true,
      signal: ctx.signal,
    });
    for (const entity of page.entities ?? []) {
      const values = entity.businessAttributes?.[name];
      if (!entity.guid || entity.status === "DELETED" || !values || Object.keys(values).length === 0) {
        continue;
      }
      const text = (value: unknown) => typeof value === "string" ? value : undefined;
      assets.push({
        guid: entity.guid,
        typeName: entity.typeName,
        name: text(entity.attributes?.name),
        qualifiedName: text(entity.attributes?.qualifiedName),
        values,
      });
    }
  }
  return { definition: name, assets, truncated };
}

const definitionName = z.string().min(1).describe("Name of the business metadata definition");

export const businessMetadataAssets = defineOperation({
  id: "types.business-metadata-assets",
  group: "types",
  command: "business-metadata-assets",
  aliases: ["businessMetadataAssets"],
  summary: "The assets that carry a business metadata definition, with its values on each",
  description: "Found with search (one filter per attribute, matching any value) and confirmed by reading " +
    `each asset; at most ${MAX_ASSETS_SCANNED} are examined (truncated says more may exist). The search ` +
    "index trails writes by seconds, so a definition assigned a moment ago may not be found yet.",
  input: z.object({ name: definitionName }),
  annotations: READ,
  run: (ctx, input) => findAssignments(ctx, input.name),
});

export const unassignBusinessMetadata = defineOperation({
  id: "types.business-metadata-unassign",
  group: "types",
  command: "business-metadata-unassign",
  aliases: ["businessMetadataUnassign"],
  summary: "Remove a business metadata definition's group from every asset that carries it",
  description: "Finds the assets as business-metadata-assets does and removes the group (all its values) " +
    "from each; an asset that fails is listed with the reason and the others go on. The definition " +
    "itself stays (types delete removes it once no asset carries it).",
  input: z.object({ name: definitionName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const found = await findAssignments(ctx, input.name);
    const removedFrom: string[] = [];
    const failed: Array<{ guid: string; error: string }> = [];
    for (const asset of found.assets) {
      try {
        await ctx.catalog().entity.removeBusinessMetadata(
          asset.guid,
          { [input.name]: asset.values },
          ctx.signal,
        );
        removedFrom.push(asset.guid);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        failed.push({ guid: asset.guid, error: error instanceof Error ? error.message : String(error) });
      }
    }
    return { ...found, removedFrom, failed };
  },
});

export const BUSINESS_METADATA_ASSIGNMENT_OPERATIONS: Operation[] = [
  businessMetadataAssets,
  unassignBusinessMetadata,
];
