/**
 * Relationship operations, in the entity group: create, update, get and delete a relationship
 * between two entities, from a JSON payload file or from options.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { AtlasObjectId, AtlasRelationship } from "../catalog/atlas_model.ts";
import { UsageError } from "../core/errors.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { CREATE, defineOperation, DELETE, type OperationContext, READ, UPSERT } from "./types.ts";
import { guidField } from "./guid_fields.ts";

const relationshipGuid = guidField("GUID of the relationship");
const attributes = z.record(z.string(), z.unknown()).optional().describe(
  'Relationship attributes as a JSON object, e.g. {"description":"…"}',
);
const EXPECTED =
  'a relationship {"typeName": …, "end1": {"guid": …}, "end2": {"guid": …}, "attributes": {…}}';

function asObjectId(value: unknown, path: string, end: string): AtlasObjectId {
  const ok = isPlainObject(value) &&
    ((typeof value.guid === "string" && value.guid !== "") ||
      (typeof value.typeName === "string" && isPlainObject(value.uniqueAttributes)));
  if (!ok) throw payloadError(path, EXPECTED, `${end} that is ${describeJson(value)} without a guid`);
  return value as AtlasObjectId;
}

async function readRelationship(
  ctx: OperationContext,
  path: string,
  needs: { ends: boolean },
): Promise<AtlasRelationship> {
  const value = await readJsonFile(ctx, path, "--payloadFile");
  if (!isPlainObject(value)) throw payloadError(path, EXPECTED, describeJson(value));
  const relationship = isPlainObject(value.relationship) ? value.relationship : value;
  if (needs.ends) {
    if (typeof relationship.typeName !== "string" || relationship.typeName === "") {
      throw payloadError(path, EXPECTED, "no typeName");
    }
    asObjectId(relationship.end1, path, "an end1");
    asObjectId(relationship.end2, path, "an end2");
  }
  if (relationship.attributes !== undefined && !isPlainObject(relationship.attributes)) {
    throw payloadError(path, EXPECTED, `attributes that are ${describeJson(relationship.attributes)}`);
  }
  return relationship as AtlasRelationship;
}

export const createRelationship = defineOperation({
  id: "entity.create-relationship",
  group: "entity",
  command: "create-relationship",
  aliases: ["createRelationship"],
  summary: "Create a relationship between two entities",
  description: "Give --payloadFile with a relationship, or --type-name, --end1-guid and --end2-guid " +
    "(plus optional --attributes). Options given with --payloadFile override the file's values.",
  input: z.object({
    payloadFile: z.string().min(1).optional().describe("JSON file holding a relationship"),
    typeName: z.string().min(1).optional().describe("Relationship type, e.g. dataset_process_inputs"),
    end1Guid: guidField("GUID of the entity at end 1").optional(),
    end2Guid: guidField("GUID of the entity at end 2").optional(),
    attributes,
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const base = input.payloadFile
      ? await readRelationship(ctx, input.payloadFile, { ends: false })
      : {} as AtlasRelationship;
    const relationship: AtlasRelationship = {
      ...base,
      typeName: input.typeName ?? base.typeName,
      end1: input.end1Guid ? { guid: input.end1Guid } : base.end1,
      end2: input.end2Guid ? { guid: input.end2Guid } : base.end2,
    };
    if (input.attributes) relationship.attributes = { ...base.attributes, ...input.attributes };
    const missing = [
      !relationship.typeName && "--type-name",
      !relationship.end1 && "--end1-guid",
      !relationship.end2 && "--end2-guid",
    ].filter(Boolean);
    if (missing.length > 0) {
      throw new UsageError(
        `entity create-relationship needs ${missing.join(", ")}${
          input.payloadFile ? ` (not found in ${input.payloadFile})` : ""
        }.`,
        "Give --type-name, --end1-guid and --end2-guid, or a --payloadFile with a relationship.",
      );
    }
    if (input.payloadFile) {
      asObjectId(relationship.end1, input.payloadFile, "an end1");
      asObjectId(relationship.end2, input.payloadFile, "an end2");
    }
    return ctx.catalog().relationships.create(relationship, ctx.signal);
  },
});

export const updateRelationship = defineOperation({
  id: "entity.update-relationship",
  group: "entity",
  command: "update-relationship",
  aliases: ["updateRelationship"],
  summary: "Update a relationship's attributes",
  description: "Give --payloadFile with the whole relationship (its guid included, or --guid), or --guid " +
    "and --attributes: the relationship is read and the attributes merged into it.",
  input: z.object({
    payloadFile: z.string().min(1).optional().describe("JSON file holding the relationship"),
    guid: relationshipGuid.optional(),
    attributes,
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    let relationship: AtlasRelationship;
    if (input.payloadFile) {
      relationship = await readRelationship(ctx, input.payloadFile, { ends: false });
      if (input.guid) relationship.guid = input.guid;
      if (!relationship.guid) {
        throw payloadError(input.payloadFile, EXPECTED + " with its guid", "no guid (nor --guid)");
      }
      if (input.attributes) relationship.attributes = { ...relationship.attributes, ...input.attributes };
    } else {
      if (!input.guid || !input.attributes) {
        throw new UsageError(
          "entity update-relationship needs --payloadFile, or --guid with --attributes.",
          'E.g. --guid=<relationship guid> --attributes=\'{"description":"…"}\'.',
        );
      }
      const current =
        (await ctx.catalog().relationships.get(input.guid, { signal: ctx.signal })).relationship ?? {};
      relationship = {
        ...current,
        guid: input.guid,
        attributes: { ...current.attributes, ...input.attributes },
      };
    }
    return ctx.catalog().relationships.update(relationship, ctx.signal);
  },
});

export const getRelationship = defineOperation({
  id: "entity.get-relationship",
  group: "entity",
  command: "get-relationship",
  aliases: ["getRelationship"],
  summary: "Get a relationship by GUID",
  input: z.object({
    guid: relationshipGuid,
    extendedInfo: z.boolean().optional().describe("Include the headers of both ends' entities"),
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().relationships.get(input.guid, { extendedInfo: input.extendedInfo, signal: ctx.signal }),
});

export const deleteRelationship = defineOperation({
  id: "entity.delete-relationship",
  group: "entity",
  command: "delete-relationship",
  aliases: ["deleteRelationship"],
  summary: "Delete a relationship by GUID",
  input: z.object({ guid: relationshipGuid }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.catalog().relationships.delete(input.guid, ctx.signal);
    return { guid: input.guid, deleted: true };
  },
});

export const RELATIONSHIP_OPERATIONS = [
  createRelationship,
  updateRelationship,
  getRelationship,
  deleteRelationship,
];
