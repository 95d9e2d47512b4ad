/**
 * Relationship tools: create_relationship, get_relationship, delete_relationship.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { defineTool, READ_ONLY, REMOVE } from "../tool.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const relationshipRecord = z.record(z.string(), z.unknown());

export const createRelationshipTool = defineTool({
  name: "create_relationship",
  title: "Create relationship",
  description: "Relate two entities with a relationship type, e.g. azure_sql_table_columns between a " +
    "table (end1) and a column (end2). list_typedefs with category relationship shows the types and " +
    "get_typedef which entity types each end accepts. Returns the relationship with its GUID.",
  input: z.object({
    type_name: z.string().min(1).describe("Relationship type name"),
    end1_guid: z.string().min(1).describe("GUID of the entity at end 1"),
    end2_guid: z.string().min(1).describe("GUID of the entity at end 2"),
    attributes: z.record(z.string(), z.unknown()).optional().describe("Attributes of the relationship"),
  }),
  output: z.object({ guid: z.string().optional(), relationship: relationshipRecord }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  handler: async (ctx, input) => {
    const relationship = await ctx.services.catalog().relationships.create({
      typeName: input.type_name,
      end1: { guid: input.end1_guid },
      end2: { guid: input.end2_guid },
      ...(input.attributes ? { attributes: input.attributes } : {}),
    }, ctx.signal);
    return { guid: typeof relationship.guid === "string" ? relationship.guid : undefined, relationship };
  },
});

export const getRelationshipTool = defineTool({
  name: "get_relationship",
  title: "Get relationship",
  description: "A relationship by GUID: its type, both ends and attributes. With extended_info, the " +
    "headers (type, name, qualified name) of both end entities are included as referredEntities." +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    guid: z.string().min(1).describe("GUID of the relationship"),
    extended_info: z.boolean().default(false).describe("Also return both end entities' headers"),
  }),
  output: z.object({
    relationship: relationshipRecord,
    referredEntities: z.record(z.string(), relationshipRecord).optional(),
  }),
  annotations: READ_ONLY,
  handler: async (ctx, input) => {
    const result = await ctx.services.catalog().relationships.get(input.guid, {
      extendedInfo: input.extended_info,
      signal: ctx.signal,
    });
    return { relationship: result.relationship ?? {}, referredEntities: result.referredEntities };
  },
});

export const deleteRelationshipTool = defineTool({
  name: "delete_relationship",
  title: "Delete relationship",
  description: "Remove a relationship by GUID. The entities at its ends stay. Confirm with the user first.",
  input: z.object({ guid: z.string().min(1).describe("GUID of the relationship to remove") }),
  output: z.object({ deleted: z.string() }),
  annotations: REMOVE,
  handler: async (ctx, input) => {
    await ctx.services.catalog().relationships.delete(input.guid, ctx.signal);
    return { deleted: input.guid };
  },
});
