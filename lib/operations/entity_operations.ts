/**
 * Entity operations (`govcat entity …`). The entity issue adds labels, classifications and business
 * metadata; these are the basics every other layer builds on.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { AtlasEntity, AtlasEntityWithExtInfo } from "../catalog/types.ts";
import { UsageError } from "../errors.ts";
import { CREATE, defineOperation, DELETE, type OperationContext, READ } from "./types.ts";

const guid = z.string().min(1).describe("GUID of the entity");
const typeName = z.string().min(1).describe("Type name, e.g. azure_sql_table or DataSet");
const qualifiedName = z.string().min(1).describe("Unique qualified name within the type");
const readOptions = {
  minExtInfo: z.boolean().optional().describe("Return only minimal information about referred entities"),
  ignoreRelationships: z.boolean().optional().describe("Leave out relationship attributes"),
};

export const getEntity = defineOperation({
  id: "entity.get",
  group: "entity",
  command: "get",
  aliases: ["read", "get-entity"],
  summary: "Get an entity by GUID with its attributes and referred entities",
  input: z.object({ guid, ...readOptions }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().entity.get(input.guid, {
      minExtInfo: input.minExtInfo,
      ignoreRelationships: input.ignoreRelationships,
      signal: ctx.signal,
    }),
});

export const getEntityByUniqueAttribute = defineOperation({
  id: "entity.get-by-unique-attribute",
  group: "entity",
  command: "get-by-unique-attribute",
  aliases: ["readUniqueAttribute", "read-unique-attribute"],
  summary: "Get an entity by type name and qualified name",
  input: z.object({ typeName, qualifiedName, ...readOptions }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().entity.getByUniqueAttribute(input.typeName, input.qualifiedName, {
      minExtInfo: input.minExtInfo,
      ignoreRelationships: input.ignoreRelationships,
      signal: ctx.signal,
    }),
});

const createInput = z.object({
  payloadFile: z.string().optional().describe(
    "JSON file holding an entity ({typeName, attributes, …}) or {entity, referredEntities}",
  ),
  typeName: typeName.optional(),
  qualifiedName: qualifiedName.optional(),
  name: z.string().optional().describe("Display name of the asset"),
  description: z.string().optional().describe("Description of the asset"),
  attributes: z.record(z.string(), z.unknown()).optional().describe(
    'Further attributes as a JSON object, e.g. {"owner":"data-team"}',
  ),
  collectionId: z.string().optional().describe("Collection to create the entity in"),
});

export const createEntity = defineOperation({
  id: "entity.create",
  group: "entity",
  command: "create",
  aliases: ["create-or-update", "createOrUpdate"],
  summary: "Create an entity, or update the one with the same type and qualified name",
  description: "Give either --payload-file, or --type-name, --qualified-name and --name (plus optional " +
    "--description and --attributes). Options given with --payload-file override the file's attributes.",
  input: createInput,
  // An upsert by unique attribute: repeating it creates nothing new.
  annotations: { ...CREATE, idempotent: true },
  run: async (ctx, input) =>
    ctx.catalog().entity.createOrUpdate(await entityFromInput(ctx, input), ctx.signal),
});

export const deleteEntity = defineOperation({
  id: "entity.delete",
  group: "entity",
  command: "delete",
  summary: "Delete an entity by GUID",
  input: z.object({ guid }),
  annotations: DELETE,
  run: (ctx, input) => ctx.catalog().entity.delete(input.guid, ctx.signal),
});

async function entityFromInput(
  ctx: OperationContext,
  input: z.output<typeof createInput>,
): Promise<AtlasEntityWithExtInfo> {
  let base: AtlasEntityWithExtInfo | undefined;
  if (input.payloadFile) {
    const text = await ctx.readTextFile(input.payloadFile, "--payload-file");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${input.payloadFile} is not valid JSON: ${(e as Error).message}`);
    }
    base = asEntityPayload(parsed, input.payloadFile);
  }
  const entity: AtlasEntity = { ...(base?.entity ?? { typeName: "" }) };
  entity.attributes = { ...entity.attributes, ...input.attributes };
  if (input.typeName) entity.typeName = input.typeName;
  if (input.qualifiedName) entity.attributes.qualifiedName = input.qualifiedName;
  if (input.name) entity.attributes.name = input.name;
  if (input.description !== undefined) entity.attributes.description = input.description;
  if (input.collectionId) entity.collectionId = input.collectionId;

  const missing = [
    !entity.typeName && "--type-name",
    !entity.attributes.qualifiedName && "--qualified-name",
    !entity.attributes.name && "--name",
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(
      `entity create needs ${missing.join(", ")}${
        input.payloadFile ? ` (not found in ${input.payloadFile})` : ""
      }.`,
      "Give --type-name, --qualified-name and --name, or a --payload-file with an entity.",
    );
  }
  return { entity, referredEntities: base?.referredEntities };
}

function asEntityPayload(value: unknown, file: string): AtlasEntityWithExtInfo {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (record.entity && typeof record.entity === "object") {
      return record as unknown as AtlasEntityWithExtInfo;
    }
    if (typeof record.typeName === "string") return { entity: record as unknown as AtlasEntity };
  }
  throw new UsageError(
    `${file} holds no entity: expected {"typeName": …, "attributes": {…}} or {"entity": {…}}.`,
  );
}
