/**
 * Business metadata definition tools: list definitions (`types list`), find and clean up their
 * assignments (`types business-metadata-assets` and `business-metadata-unassign`), delete a definition
 * (those, then `types delete`), and remove one group from one asset (`entity deleteBusinessMetadata
 * --bm-name`).
 *
 * @module
 */
import type { AtlasAttributeDef, AtlasTypesDef } from "../../catalog/types_definitions.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../core/errors.ts";
import {
  type AssignedAsset,
  type Assignments,
  businessMetadataAssets,
  MAX_ASSETS_SCANNED,
  unassignBusinessMetadata,
} from "../../operations/business_metadata_assignments.ts";
import { deleteBusinessMetadata } from "../../operations/business_metadata_operations.ts";
import { deleteTypeDef, listTypeDefs } from "../../operations/types_operations.ts";
import { composedTool, operationTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

export { MAX_ASSETS_SCANNED };

const asset = z.object({
  guid: z.string(),
  type_name: z.string().optional(),
  name: z.string().optional(),
  qualified_name: z.string().optional(),
  values: z.record(z.string(), z.unknown()).describe("The group's attribute values on this asset"),
});

function assetView(found: AssignedAsset): z.input<typeof asset> {
  return {
    guid: found.guid,
    type_name: found.typeName,
    name: found.name,
    qualified_name: found.qualifiedName,
    values: found.values,
  };
}

/** What `types business-metadata-unassign` answers. */
type Unassigned = Assignments & { removedFrom: string[]; failed: Array<{ guid: string; error: string }> };

export const listCustomMetadataDefsTool = operationTool({
  name: "uc_list_custom_metadata_defs",
  title: "List business metadata definitions",
  description:
    "Business (custom) metadata definitions: attributes (name, type, optional) and the entity types " +
    "they apply to. Start here before cleaning up or deleting one." + CATALOG_TEXT_IS_DATA,
  operation: listTypeDefs,
  // The business metadata definitions come from the whole list: no category narrows it to them.
  fields: { type: false, includeTermTemplate: false },
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
  view: (result) => {
    const all = result as AtlasTypesDef;
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

export const cleanupMetadataDefinitionTool = composedTool({
  name: "uc_cleanup_metadata_definition",
  title: "Check or clean up a business metadata definition",
  description: "Assets still carrying a business metadata definition. check_only=true lists them; without " +
    "it the group is removed from each, so uc_delete_metadata_definition can delete it." +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    name: z.string().min(1).describe("Definition name"),
    // The spec's sequence is a check with check_only true, "then without it": leaving it out cleans up.
    check_only: z.boolean().default(false).describe("Only report; change nothing"),
  }),
  output: cleanupOutput,
  // A check is `types business-metadata-assets`; the clean-up, `business-metadata-unassign`. Only the
  // clean-up changes anything, so only it needs confirmation.
  operations: [businessMetadataAssets, unassignBusinessMetadata],
  confirmWhen: (input) => !input.check_only,
  compose: async (run, input) => {
    const outcome = input.check_only
      ? {
        ...await run(businessMetadataAssets, { name: input.name }) as Assignments,
        removedFrom: [],
        failed: [],
      }
      : await run(unassignBusinessMetadata, { name: input.name }) as Unassigned;
    return {
      definition: input.name,
      check_only: input.check_only,
      assigned: outcome.assets.length > 0,
      assets: outcome.assets.map(assetView),
      removed_from: outcome.removedFrom,
      failed: outcome.failed,
      truncated: outcome.truncated,
    };
  },
});

export const deleteMetadataDefinitionTool = composedTool({
  name: "uc_delete_metadata_definition",
  title: "Delete a business metadata definition",
  description:
    "Delete a business metadata definition by name. Refused while assets carry it: clean up first " +
    "(uc_cleanup_metadata_definition), or force=true.",
  input: z.object({
    name: z.string().min(1).describe("Definition name"),
    force: z.boolean().default(false).describe("Remove it from assets first, then delete"),
  }),
  output: z.object({
    deleted: z.string(),
    removed_from: z.array(z.string()).describe("GUIDs the group was removed from first (force)"),
  }),
  // Refused while assets carry it; with force, `business-metadata-unassign` first; then `types delete`.
  operations: [businessMetadataAssets, unassignBusinessMetadata, deleteTypeDef],
  compose: async (run, input) => {
    const { assets } = await run(businessMetadataAssets, { name: input.name }) as Assignments;
    let removed: string[] = [];
    if (assets.length > 0) {
      if (!input.force) {
        const sample = assets.slice(0, 5).map((a) => a.qualifiedName ?? a.guid).join(", ");
        throw new UsageError(
          `"${input.name}" is still assigned to ${assets.length} asset${assets.length > 1 ? "s" : ""} ` +
            `(${sample}${assets.length > 5 ? ", …" : ""}); nothing was deleted.`,
          "Run uc_cleanup_metadata_definition with check_only=false first, or call again with force=true.",
        );
      }
      const outcome = await run(unassignBusinessMetadata, { name: input.name }) as Unassigned;
      if (outcome.failed.length > 0) {
        throw new UsageError(
          `Could not remove "${input.name}" from ${outcome.failed.length} asset(s) (${
            outcome.failed.map((f) => `${f.guid}: ${f.error}`).join("; ")
          }); the definition was not deleted.`,
        );
      }
      removed = outcome.removedFrom;
    }
    await run(deleteTypeDef, { name: input.name });
    return { deleted: input.name, removed_from: removed };
  },
});

export const deleteMetadataFromAssetTool = operationTool({
  name: "uc_delete_metadata_from_asset",
  title: "Remove a business metadata group from an asset",
  description: "Remove one business metadata group (all its values) from one asset by GUID; the definition " +
    "stays.",
  operation: deleteBusinessMetadata,
  // One named group, never a payload file: the group's name is required.
  fields: {
    guid: "GUID of the asset",
    payloadFile: false,
    bmName: z.string().min(1).describe("Name of the business metadata group"),
  },
  output: z.object({ guid: z.string(), bm_name: z.string(), removed_attributes: z.array(z.string()) }),
  view: (result, input: { guid: string; bm_name: string }) => {
    const { removed } = result as { removed: Record<string, Record<string, unknown>> };
    return {
      guid: input.guid,
      bm_name: input.bm_name,
      removed_attributes: Object.keys(removed[input.bm_name] ?? {}),
    };
  },
});
