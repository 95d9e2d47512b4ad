/**
 * Business metadata definition tools: list definitions, find and clean up their assignments, delete a
 * definition, and remove one group from one asset.
 *
 * Which assets carry a definition is found with search (the catalog has no "assigned to" query): one
 * filter per attribute, built from the attribute's type so it matches any value, then every hit is
 * confirmed by reading the entity. The search index trails writes by seconds on the service, so a
 * definition assigned a moment ago may not be found yet.
 *
 * @module
 */
import type { AtlasAttributeDef, AtlasBusinessMetadataDef } from "../../catalog/typedef_types.ts";
import type { SearchFilter } from "../../catalog/types.ts";
import { z } from "../../deps/zod.ts";
import { NotFoundError, UsageError } from "../../errors.ts";
import { defineTool, READ_ONLY, REMOVE, type ToolContext } from "../tool.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

/** Assets examined at most by one cleanup; more are reported as `truncated`. */
export const MAX_ASSETS_SCANNED = 5000;

const asset = z.object({
  guid: z.string(),
  type_name: z.string().optional(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  values: z.record(z.string(), z.unknown()).describe("The group's attribute values on this asset"),
});
type Asset = z.infer<typeof asset>;

async function readDefinition(ctx: ToolContext, name: string): Promise<AtlasBusinessMetadataDef> {
  try {
    return await ctx.services.catalog().types.get(
      "businessmetadata",
      { name },
      ctx.signal,
    ) as AtlasBusinessMetadataDef;
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw new UsageError(
        `No business metadata definition is named "${name}".`,
        "uc_list_custom_metadata_defs lists the definitions.",
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

/** The assets that carry the definition's group, confirmed by reading each one. */
async function findAssets(
  ctx: ToolContext,
  definition: AtlasBusinessMetadataDef,
): Promise<{ assets: Asset[]; truncated: boolean }> {
  const catalog = ctx.services.catalog();
  const name = String(definition.name);
  const clauses = (definition.attributeDefs ?? []).flatMap((a) => anyValueClause(name, a));
  if (clauses.length === 0) return { assets: [], truncated: false };
  const candidates = new Set<string>();
  let continuationToken: string | undefined;
  let truncated = false;
  do {
    const page = await catalog.search.query({
      keywords: "*",
      limit: 1000,
      filter: { or: clauses },
      continuationToken,
    }, ctx.signal);
    for (const hit of page.value ?? []) if (typeof hit.id === "string") candidates.add(hit.id);
    continuationToken = page.continuationToken ?? undefined;
    if (candidates.size >= MAX_ASSETS_SCANNED) truncated = continuationToken !== undefined;
  } while (continuationToken && candidates.size < MAX_ASSETS_SCANNED);

  const assets: Asset[] = [];
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
      assets.push({
        guid: entity.guid,
        type_name: entity.typeName,
        name: typeof entity.attributes?.name === "string" ? entity.attributes.name : undefined,
        qualified_name: typeof entity.attributes?.qualifiedName === "string"
          ? entity.attributes.qualifiedName
          : undefined,
        values,
      });
    }
  }
  return { assets, truncated };
}

export const listCustomMetadataDefsTool = defineTool({
  name: "uc_list_custom_metadata_defs",
  title: "List business metadata definitions",
  description: "The business metadata (custom metadata) definitions of the catalog with their attributes: " +
    "name, type, whether optional, and the entity types each applies to. Start here before cleaning up " +
    "or deleting a definition." + CATALOG_TEXT_IS_DATA,
  input: z.object({}),
  output: z.object({
    definitions: z.array(z.object({
      name: z.string(),
      guid: z.string().optional(),
      description: z.string().optional(),
      attributes: z.array(z.object({
        name: z.string(),
        type_name: z.string().optional(),
        optional: z.boolean().optional(),
        applicable_entity_types: z.array(z.string()).optional(),
      })),
    })),
  }),
  annotations: READ_ONLY,
  handler: async (ctx) => {
    const all = await ctx.services.catalog().types.list({ signal: ctx.signal });
    return {
      definitions: (all.businessMetadataDefs ?? []).map((def) => ({
        name: String(def.name),
        guid: typeof def.guid === "string" ? def.guid : undefined,
        description: typeof def.description === "string" ? def.description : undefined,
        attributes: (def.attributeDefs ?? []).map((a) => ({
          name: String(a.name),
          type_name: typeof a.typeName === "string" ? a.typeName : undefined,
          optional: typeof a.isOptional === "boolean" ? a.isOptional : undefined,
          applicable_entity_types: applicableTypes(a),
        })),
      })),
    };
  },
});

/** Purview keeps `applicableEntityTypes` as a JSON string inside the attribute options. */
function applicableTypes(attribute: AtlasAttributeDef): string[] | undefined {
  const raw = (attribute.options as Record<string, unknown> | undefined)?.applicableEntityTypes;
  if (typeof raw !== "string") return undefined;
  try {
    const parsed = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map(String) : undefined;
  } catch {
    return undefined;
  }
}

const cleanupOutput = z.object({
  definition: z.string(),
  check_only: z.boolean(),
  assigned: z.boolean().describe("Whether any asset still carries the definition"),
  assets: z.array(asset).describe("Assets carrying it (before the cleanup)"),
  removed_from: z.array(z.string()).describe("GUIDs the group was removed from"),
  failed: z.array(z.object({ guid: z.string(), error: z.string() })),
  truncated: z.boolean().describe("More assets may carry it than were examined; run again"),
});

async function removeFromAssets(ctx: ToolContext, name: string, assets: Asset[]) {
  const removed: string[] = [];
  const failed: Array<{ guid: string; error: string }> = [];
  for (const item of assets) {
    try {
      await ctx.services.catalog().entity.removeBusinessMetadata(
        item.guid,
        { [name]: item.values },
        ctx.signal,
      );
      removed.push(item.guid);
    } catch (error) {
      failed.push({ guid: item.guid, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { removed, failed };
}

export const cleanupMetadataDefinitionTool = defineTool({
  name: "uc_cleanup_metadata_definition",
  title: "Check or clean up a business metadata definition",
  description: "Find the assets that still carry a business metadata definition. With check_only=true " +
    "(the default) nothing changes: the answer lists the assets and whether the definition is assigned. " +
    "With check_only=false (and confirm=true) the definition's group is removed from each of those " +
    "assets, after which uc_delete_metadata_definition can delete the definition." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    name: z.string().min(1).describe("Name of the business metadata definition"),
    check_only: z.boolean().default(true).describe("Only report; change nothing"),
  }),
  output: cleanupOutput,
  annotations: REMOVE,
  // Only the clean-up changes anything; a check needs no confirmation.
  confirmWhen: (input) => !input.check_only,
  handler: async (ctx, input) => {
    const definition = await readDefinition(ctx, input.name);
    const { assets, truncated } = await findAssets(ctx, definition);
    const outcome = input.check_only
      ? { removed: [], failed: [] }
      : await removeFromAssets(ctx, input.name, assets);
    return {
      definition: input.name,
      check_only: input.check_only,
      assigned: assets.length > 0,
      assets,
      removed_from: outcome.removed,
      failed: outcome.failed,
      truncated,
    };
  },
});

export const deleteMetadataDefinitionTool = defineTool({
  name: "uc_delete_metadata_definition",
  title: "Delete a business metadata definition",
  description: "Delete a business metadata definition by name. While assets still carry it the call is " +
    "refused, listing them; clean up first with uc_cleanup_metadata_definition (check_only=false), or " +
    "pass force=true to remove the assignments and delete in one step. Cannot be undone.",
  input: z.object({
    name: z.string().min(1).describe("Name of the business metadata definition"),
    force: z.boolean().default(false).describe("Remove it from the assets that carry it, then delete"),
  }),
  output: z.object({
    deleted: z.string(),
    removed_from: z.array(z.string()).describe("GUIDs the group was removed from first (force)"),
  }),
  annotations: REMOVE,
  handler: async (ctx, input) => {
    const definition = await readDefinition(ctx, input.name);
    const { assets } = await findAssets(ctx, definition);
    let removed: string[] = [];
    if (assets.length > 0) {
      if (!input.force) {
        const sample = assets.slice(0, 5).map((a) => a.qualified_name ?? a.guid).join(", ");
        throw new UsageError(
          `"${input.name}" is still assigned to ${assets.length} asset${assets.length > 1 ? "s" : ""} ` +
            `(${sample}${assets.length > 5 ? ", …" : ""}); nothing was deleted.`,
          "Run uc_cleanup_metadata_definition with check_only=false first, or call again with force=true.",
        );
      }
      const outcome = await removeFromAssets(ctx, input.name, assets);
      if (outcome.failed.length > 0) {
        throw new UsageError(
          `Could not remove "${input.name}" from ${outcome.failed.length} asset(s) (${
            outcome.failed.map((f) => `${f.guid}: ${f.error}`).join("; ")
          }); the definition was not deleted.`,
        );
      }
      removed = outcome.removed;
    }
    await ctx.services.catalog().types.delete(input.name, ctx.signal);
    return { deleted: input.name, removed_from: removed };
  },
});

export const deleteMetadataFromAssetTool = defineTool({
  name: "uc_delete_metadata_from_asset",
  title: "Remove a business metadata group from an asset",
  description: "Remove one business metadata group (all its attribute values) from one asset, by the " +
    "asset's GUID and the group's name. The definition itself stays.",
  input: z.object({
    guid: z.string().min(1).describe("GUID of the asset"),
    bm_name: z.string().min(1).describe("Name of the business metadata group"),
  }),
  output: z.object({ guid: z.string(), bm_name: z.string(), removed_attributes: z.array(z.string()) }),
  annotations: REMOVE,
  handler: async (ctx, input) => {
    const catalog = ctx.services.catalog();
    const { entity } = await catalog.entity.get(input.guid, { minExtInfo: true, signal: ctx.signal });
    const values = entity.businessAttributes?.[input.bm_name];
    if (!values || Object.keys(values).length === 0) {
      const carried = Object.keys(entity.businessAttributes ?? {});
      throw new UsageError(
        `Asset ${input.guid} carries no business metadata group "${input.bm_name}".`,
        carried.length ? `It carries: ${carried.join(", ")}.` : "It carries no business metadata.",
      );
    }
    await catalog.entity.removeBusinessMetadata(input.guid, { [input.bm_name]: values }, ctx.signal);
    return { guid: input.guid, bm_name: input.bm_name, removed_attributes: Object.keys(values) };
  },
});
