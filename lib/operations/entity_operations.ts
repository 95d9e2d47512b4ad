/**
 * Entity operations (`govcat entity …`): read (one, many, headers, by unique attribute), create or
 * update, partial updates, delete, and moving entities between collections. Labels, business metadata,
 * classifications and relationships have their own modules in the same group.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import type { AtlasEntity, AtlasEntityWithExtInfo } from "../catalog/atlas_model.ts";
import { UsageError } from "../core/errors.ts";
import { isPlainObject, parseJsonValue, readJsonFile } from "./payload_files.ts";
import { CREATE, defineOperation, DELETE, type OperationContext, READ, UPSERT } from "./types.ts";
import { guidField, guidListField } from "./guid_fields.ts";
import { existingKey, existingKeys } from "../imports/entity_catalog_io.ts";
import { confirmOverwrite, ifExistsField, overwriteConfirmField, overwriteHint } from "./if_exists.ts";

export const guid = guidField("GUID of the entity");
export const typeName = z.string().min(1).describe("Type name, e.g. azure_sql_table or DataSet");
export const qualifiedName = z.string().min(1).describe("Unique qualified name within the type");
const guids = guidListField("GUID of an entity").min(1);
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
  ifExists: ifExistsField,
  confirm: overwriteConfirmField,
});

export const createEntity = defineOperation({
  id: "entity.create",
  group: "entity",
  command: "create",
  aliases: ["create-or-update", "createOrUpdate"],
  summary: "Create an entity; with --if-exists=update, update the one with the same type and qualified name",
  description: "Give either --payload-file, or --type-name, --qualified-name and --name (plus optional " +
    "--description and --attributes). Options given with --payload-file override the file's attributes. " +
    "When an entity with the same type and qualified name exists, nothing is changed and the command " +
    "fails, unless --if-exists=update: then it is overwritten, once confirmed (--confirm).",
  input: createInput,
  // Repeating it creates nothing new. Not destructive by default; --if-exists=update overwrites, once
  // confirmed (if_exists.ts), and the MCP listing shows the operation as destructive.
  annotations: { ...CREATE, idempotent: true },
  run: async (ctx, input) => {
    const { ifExists, confirm, ...fields } = input;
    const payload = await entityFromInput(ctx, fields);
    const { typeName, attributes } = payload.entity;
    const qualifiedName = String(attributes?.qualifiedName);
    if (ifExists === "update") {
      await confirmOverwrite(ctx, `entity create --if-exists=update ${typeName} ${qualifiedName}`, confirm);
    } else {
      const existing = await existingKeys(ctx.catalog(), [{ typeName, qualifiedName }], ctx.signal);
      const current = existing.get(existingKey(typeName, qualifiedName));
      if (current) {
        throw new UsageError(
          `entity ${typeName} ${qualifiedName} exists already (guid ${current.guid}); nothing was changed.`,
          `To overwrite it, ${overwriteHint(ctx)}; to change some attributes, use entity ` +
            `update-by-unique-attribute or entity update-attribute (update_entity over MCP).`,
        );
      }
    }
    return ctx.catalog().entity.createOrUpdate(payload, ctx.signal);
  },
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

export const getEntityHeader = defineOperation({
  id: "entity.get-header",
  group: "entity",
  command: "get-header",
  aliases: ["getHeader"],
  summary: "Get an entity's header: type, name, status, classification names and labels",
  input: z.object({ guid }),
  annotations: READ,
  run: (ctx, input) => ctx.catalog().entity.getHeader(input.guid, ctx.signal),
});

export const getManyEntities = defineOperation({
  id: "entity.get-many",
  group: "entity",
  command: "get-many",
  aliases: ["getMany", "read-bulk"],
  summary: "Get many entities by GUID in one call",
  input: z.object({ guid: guids, ...readOptions }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().entity.getMany(input.guid, {
      minExtInfo: input.minExtInfo,
      ignoreRelationships: input.ignoreRelationships,
      signal: ctx.signal,
    }),
});

export const listEntitiesByUniqueAttributes = defineOperation({
  id: "entity.list-by-unique-attributes",
  group: "entity",
  command: "list-by-unique-attributes",
  aliases: ["listByUniqueAttributes", "get-many-by-unique-attribute"],
  summary: "Get many entities of one type by their qualified names",
  input: z.object({
    typeName,
    qualifiedName: z.array(z.string().min(1)).min(1).describe("Qualified name"),
    ...readOptions,
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().entity.listByUniqueAttributes(input.typeName, input.qualifiedName, {
      minExtInfo: input.minExtInfo,
      ignoreRelationships: input.ignoreRelationships,
      signal: ctx.signal,
    }),
});

export const updateEntityAttribute = defineOperation({
  id: "entity.update-attribute",
  group: "entity",
  command: "update-attribute",
  aliases: ["updateAttribute", "partialUpdateAttribute"],
  summary: "Set one attribute of an entity, leaving the others as they are",
  description: 'The value is read as JSON when it is valid JSON (42, true, ["a"], {"k":1}), ' +
    "else kept as text.",
  input: z.object({
    guid,
    attrName: z.string().min(1).describe("Attribute to set, e.g. description or owner"),
    attrValue: z.string().describe("New value; JSON when it parses as JSON, else text"),
  }),
  // Replaces the attribute's value, which is not kept: destructive, so confirmed (as update_entity is).
  annotations: { ...UPSERT, destructive: true },
  run: (ctx, input) =>
    ctx.catalog().entity.partialUpdateAttribute(
      input.guid,
      input.attrName,
      parseJsonValue(input.attrValue),
      ctx.signal,
    ),
});

const updateByUniqueInput = z.object({
  typeName,
  qualifiedName,
  payloadFile: z.string().optional().describe(
    "JSON file holding the changes: an entity ({typeName, attributes}) or {entity: {…}}",
  ),
  attributes: z.record(z.string(), z.unknown()).optional().describe(
    'Attributes to change as a JSON object, e.g. {"description":"…"}; override the file\'s',
  ),
});

export const updateEntityByUniqueAttribute = defineOperation({
  id: "entity.update-by-unique-attribute",
  group: "entity",
  command: "update-by-unique-attribute",
  aliases: ["updateByUniqueAttribute", "partialUpdateByUniqueAttribute"],
  summary: "Update attributes of the entity found by type name and qualified name",
  description: "Give --payloadFile with an entity ({attributes: {…}} or {entity: {…}}), or --attributes " +
    "as JSON, or both (--attributes wins).",
  input: updateByUniqueInput,
  // Replaces the values of the attributes given: destructive, so confirmed (as update_entity is).
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    let base: AtlasEntityWithExtInfo | undefined;
    if (input.payloadFile) {
      const value = await readJsonFile(ctx, input.payloadFile, "--payloadFile");
      // A partial update needs no type name in the file: the command line gives it.
      base = isPlainObject(value) && !isPlainObject(value.entity) && isPlainObject(value.attributes)
        ? { entity: { ...value, typeName: input.typeName } as AtlasEntity }
        : asEntityPayload(value, input.payloadFile);
    } else if (!input.attributes) {
      throw new UsageError(
        "entity update-by-unique-attribute needs --payloadFile or --attributes.",
        'E.g. --attributes=\'{"description":"Revenue per quarter"}\'.',
      );
    }
    const entity: AtlasEntity = {
      ...base?.entity,
      typeName: input.typeName,
      attributes: { ...base?.entity.attributes, ...input.attributes },
    };
    return ctx.catalog().entity.partialUpdateByUniqueAttribute(
      input.typeName,
      input.qualifiedName,
      { entity, referredEntities: base?.referredEntities },
      ctx.signal,
    );
  },
});

export const deleteEntityByUniqueAttribute = defineOperation({
  id: "entity.delete-by-unique-attribute",
  group: "entity",
  command: "delete-by-unique-attribute",
  aliases: ["deleteByUniqueAttribute"],
  summary: "Delete the entity found by type name and qualified name",
  input: z.object({ typeName, qualifiedName }),
  annotations: DELETE,
  run: (ctx, input) =>
    ctx.catalog().entity.deleteByUniqueAttribute(input.typeName, input.qualifiedName, ctx.signal),
});

export const deleteManyEntities = defineOperation({
  id: "entity.delete-many",
  group: "entity",
  command: "delete-many",
  aliases: ["deleteMany", "bulk-delete"],
  summary: "Delete many entities by GUID in one call",
  input: z.object({ guid: guids }),
  annotations: DELETE,
  run: (ctx, input) => ctx.catalog().entity.deleteMany(input.guid, ctx.signal),
});

export const moveEntitiesToCollection = defineOperation({
  id: "entity.move-to-collection",
  group: "entity",
  command: "move-to-collection",
  aliases: ["moveToCollection", "move-to"],
  summary: "Move entities into another collection",
  input: z.object({
    collectionId: z.string().min(1).describe("Collection to move the entities to"),
    guid: guids,
  }),
  annotations: UPSERT,
  run: (ctx, input) => ctx.catalog().entity.moveToCollection(input.collectionId, input.guid, ctx.signal),
});

async function entityFromInput(
  ctx: OperationContext,
  input: Omit<z.output<typeof createInput>, "ifExists" | "confirm">,
): Promise<AtlasEntityWithExtInfo> {
  let base: AtlasEntityWithExtInfo | undefined;
  if (input.payloadFile) {
    base = asEntityPayload(
      await readJsonFile(ctx, input.payloadFile, "--payload-file"),
      input.payloadFile,
    );
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
  if (isPlainObject(value)) {
    if (isPlainObject(value.entity)) return value as unknown as AtlasEntityWithExtInfo;
    if (typeof value.typeName === "string") return { entity: value as unknown as AtlasEntity };
  }
  throw new UsageError(
    `${file} holds no entity: expected {"typeName": …, "attributes": {…}} or {"entity": {…}}.`,
  );
}
