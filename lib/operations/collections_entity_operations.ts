/**
 * Operations of the `collections` group that write entities into a collection, through the catalog API's
 * collection-scoped routes (2023-02-01-preview): create or update one entity or many from a JSON file,
 * and move entities here by GUID. Each answers the catalog's EntityMutationResponse.
 *
 * @module
 */
import type {
  AtlasEntitiesWithExtInfo,
  AtlasEntity,
  AtlasEntityWithExtInfo,
} from "../catalog/atlas_model.ts";
import { z } from "../deps/zod.ts";
import { guidListField } from "./guid_fields.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { CREATE, defineOperation, type Operation, UPSERT } from "./types.ts";

const collectionName = z.string().min(1).describe("Name of the collection (not its friendly name)");

export const createEntityInCollection = defineOperation({
  id: "collections.create-entity",
  group: "collections",
  command: "create-entity",
  aliases: ["createEntity", "create-or-update-entity"],
  summary: "Create an entity in a collection, or update (and move there) the one with its type and name",
  description: 'The file holds an entity ({"typeName", "attributes"}) or an AtlasEntityWithExtInfo ' +
    '({"entity", "referredEntities"}). The entity, and its referred entities, land in the collection.',
  input: z.object({
    collectionName,
    payloadFile: z.string().min(1).describe("JSON file with the entity"),
  }),
  // An upsert by unique attribute: repeating it creates nothing new.
  annotations: { ...CREATE, idempotent: true },
  run: async (ctx, input) => {
    const path = input.payloadFile;
    const value = await readJsonFile(ctx, path, "--payload-file");
    let entity: AtlasEntityWithExtInfo | undefined;
    if (isPlainObject(value) && isPlainObject(value.entity)) {
      entity = value as unknown as AtlasEntityWithExtInfo;
    } else if (isPlainObject(value) && typeof value.typeName === "string") {
      entity = { entity: value as unknown as AtlasEntity };
    }
    if (!entity) {
      throw payloadError(path, '{"typeName": …, "attributes": {…}} or {"entity": {…}}', describeJson(value));
    }
    return ctx.catalog().collections.createOrUpdateEntity(input.collectionName, entity, ctx.signal);
  },
});

export const createEntitiesInCollection = defineOperation({
  id: "collections.create-entities",
  group: "collections",
  command: "create-entities",
  aliases: ["createEntities", "create-or-update-entities"],
  summary: "Create or update many entities in a collection from a JSON file, in one call",
  description: 'The file holds an array of entities or an AtlasEntitiesWithExtInfo ({"entities", ' +
    '"referredEntities"}). Every entity is checked by the catalog before any is written.',
  input: z.object({
    collectionName,
    payloadFile: z.string().min(1).describe("JSON file with the entities"),
  }),
  annotations: { ...CREATE, idempotent: true },
  run: async (ctx, input) => {
    const path = input.payloadFile;
    const value = await readJsonFile(ctx, path, "--payload-file");
    const expected = 'a JSON array of entities or {"entities": [...]}';
    let entities: AtlasEntity[] | AtlasEntitiesWithExtInfo | undefined;
    if (Array.isArray(value)) entities = value as AtlasEntity[];
    else if (isPlainObject(value) && Array.isArray(value.entities)) {
      entities = value as unknown as AtlasEntitiesWithExtInfo;
    }
    const list = Array.isArray(entities) ? entities : entities?.entities;
    if (!entities || !list?.length) throw payloadError(path, expected, describeJson(value));
    list.forEach((entity, i) => {
      if (!isPlainObject(entity) || typeof entity.typeName !== "string") {
        throw payloadError(path, expected, `${describeJson(entity)} without a typeName at index ${i}`);
      }
    });
    return ctx.catalog().collections.createOrUpdateEntities(input.collectionName, entities, ctx.signal);
  },
});

export const moveEntitiesHere = defineOperation({
  id: "collections.move-entities-here",
  group: "collections",
  command: "move-entities-here",
  aliases: ["moveEntitiesHere", "move-here"],
  summary: "Move entities into a collection by GUID (nothing moves unless every one exists)",
  input: z.object({
    collectionName,
    guid: guidListField("GUID of an entity").min(1),
  }),
  annotations: UPSERT,
  run: (ctx, input) =>
    ctx.catalog().collections.moveEntitiesHere(input.collectionName, input.guid, ctx.signal),
});

/** The entity writes of the collections group, in the order `--help` lists them. */
export const COLLECTIONS_ENTITY_OPERATIONS: Operation[] = [
  createEntityInCollection,
  createEntitiesInCollection,
  moveEntitiesHere,
];
