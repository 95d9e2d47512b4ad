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
  input: z.object({
    type_name: z.string().min(1).describe("Relationship type name"),
    end1_guid: z.string().min(1).describe("End 1 entity GUID"),
    end2_guid: z.string().min(1).describe("End 2 entity GUID"),
    attributes: z.record(z.string(), z.unknown()).optional().describe("Attributes"),
  }),
  output: z.object({ guid: z.string().optional(), relationship: relationshipRecord }),
  operation: createRelationship,
  arguments: (args) => ({
    typeName: args.type_name,
    end1Guid: args.end1_guid,
    end2Guid: args.end2_guid,
    attributes: args.attributes,
  }),
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
  input: z.object({
    guid: z.string().min(1).describe("GUID of the relationship"),
    extended_info: z.boolean().default(false).describe("Add both ends' headers"),
  }),
  output: z.object({
    relationship: relationshipRecord,
    referredEntities: z.record(z.string(), relationshipRecord).optional(),
  }),
  operation: getRelationship,
  arguments: (args) => ({ guid: args.guid, extendedInfo: args.extended_info }),
  view: (result) => {
    const { relationship, referredEntities } = result as AtlasRelationshipWithExtInfo;
    return { relationship: relationship ?? {}, referredEntities };
  },
});

export const deleteRelationshipTool = operationTool({
  name: "delete_relationship",
  title: "Delete relationship",
  description: "Remove a relationship by GUID, for good; its end entities stay. Confirm with the user first.",
  input: z.object({ guid: z.string().min(1).describe("Relationship GUID") }),
  output: z.object({ deleted: z.string() }),
  operation: deleteRelationship,
  arguments: (args) => ({ guid: args.guid }),
  view: (_result, args) => ({ deleted: args.guid }),
});
