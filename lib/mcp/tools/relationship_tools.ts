/**
 * Relationship tools: create_relationship, get_relationship, delete_relationship, each the entity group's
 * relationship operation under a model's argument names.
 *
 * @module
 */
import type { AtlasRelationship, AtlasRelationshipWithExtInfo } from "../../catalog/atlas_model.ts";
import { z } from "../../deps/zod.ts";
import {
  createRelationship,
  deleteRelationship,
  getRelationship,
} from "../../operations/relationship_operations.ts";
import { operationTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const relationshipRecord = z.record(z.string(), z.unknown());

export const createRelationshipTool = operationTool({
  name: "create_relationship",
  title: "Create relationship",
  description:
    "Relate two entities by a relationship type such as azure_sql_table_columns (end1 table, end2 " +
    "column). get_typedef shows what ends accept.",
  operation: createRelationship,
  // The tool takes the relationship's fields, never a payload file: its ends and type are required.
  fields: {
    payloadFile: false,
    typeName: z.string().min(1).describe("Relationship type name"),
    end1Guid: z.string().min(1).describe("End 1 entity GUID"),
    end2Guid: z.string().min(1).describe("End 2 entity GUID"),
    attributes: "Attributes",
  },
  output: z.object({ guid: z.string().optional(), relationship: relationshipRecord }),
  view: (result) => {
    const relationship = result as AtlasRelationship;
    return { guid: typeof relationship.guid === "string" ? relationship.guid : undefined, relationship };
  },
});

export const getRelationshipTool = operationTool({
  name: "get_relationship",
  title: "Get relationship",
  description: "A relationship by GUID: type, both ends, attributes; extended_info adds the end entities' " +
    "headers." + CATALOG_TEXT_IS_DATA,
  operation: getRelationship,
  fields: { guid: true, extendedInfo: z.boolean().default(false).describe("Add both ends' headers") },
  output: z.object({
    relationship: relationshipRecord,
    referredEntities: z.record(z.string(), relationshipRecord).optional(),
  }),
  view: (result) => {
    const { relationship, referredEntities } = result as AtlasRelationshipWithExtInfo;
    return { relationship: relationship ?? {}, referredEntities };
  },
});

export const deleteRelationshipTool = operationTool({
  name: "delete_relationship",
  title: "Delete relationship",
  description: "Remove a relationship by GUID, for good; its end entities stay. Confirm with the user first.",
  operation: deleteRelationship,
  fields: { guid: "Relationship GUID" },
  output: z.object({ deleted: z.string() }),
  view: (_result, args: { guid: string }) => ({ deleted: args.guid }),
});
