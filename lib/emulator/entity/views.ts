/**
 * The entity as the service's answers show it: the headers of mutation results (CREATE and UPDATE, DELETE,
 * partial update), the full header, the entity a read returns and the minimal form of a referred entity.
 *
 * @example
 * ```ts
 * import { newEntity, validateEntityInput } from "./model.ts";
 * import { mutationHeader } from "./views.ts";
 * const input = validateEntityInput({ typeName: "DataSet", attributes: { qualifiedName: "ds://a", name: "a" } }, "entity");
 * const entity = newEntity(input, crypto.randomUUID(), Date.now());
 * console.log(mutationHeader(entity).lastModifiedTS); // "1"
 * ```
 *
 * @module
 */
import { type AtlasEntity, type AtlasEntityHeader, isObject, type JsonObject } from "./model.ts";

/** The short header in CREATE and UPDATE lists, as in the contract's Entity_Create example. */
export function mutationHeader(entity: AtlasEntity): AtlasEntityHeader {
  return {
    typeName: entity.typeName,
    attributes: { qualifiedName: entity.attributes.qualifiedName },
    lastModifiedTS: entity.lastModifiedTS,
    guid: entity.guid,
    status: entity.status,
  };
}

/**
 * The header in DELETE lists. It describes the entity as it was just before deletion, so its status is
 * still ACTIVE, as in the contract's Entity_Delete example.
 */
export function deletionHeader(entity: AtlasEntity): AtlasEntityHeader {
  const attributes: JsonObject = { qualifiedName: entity.attributes.qualifiedName };
  if (entity.attributes.name !== undefined) attributes.name = entity.attributes.name;
  if (entity.attributes.owner !== undefined) attributes.owner = entity.attributes.owner;
  return {
    typeName: entity.typeName,
    guid: entity.guid,
    status: entity.status,
    lastModifiedTS: entity.lastModifiedTS,
    displayText: displayText(entity),
    attributes,
    classificationNames: classificationNames(entity),
    meaningNames: [],
    meanings: [],
  };
}

/** The short header of a partial update, as in the contract's Entity_PartialUpdateByUniqueAttributes example. */
export function partialUpdateHeader(entity: AtlasEntity): AtlasEntityHeader {
  return {
    guid: entity.guid,
    lastModifiedTS: entity.lastModifiedTS,
    attributes: { qualifiedName: entity.attributes.qualifiedName },
    typeName: entity.typeName,
  };
}

const HEADER_ATTRIBUTES = ["qualifiedName", "name", "displayName", "owner", "description", "createTime"];

/** The full header (`GET /entity/guid/{guid}/header`), as in the contract's Entity_GetHeader example. */
export function entityHeader(entity: AtlasEntity): AtlasEntityHeader & JsonObject {
  const attributes: JsonObject = {};
  for (const name of HEADER_ATTRIBUTES) {
    if (entity.attributes[name] !== undefined) attributes[name] = entity.attributes[name];
  }
  const meanings = Array.isArray(entity.meanings) ? entity.meanings.filter(isObject) : [];
  return {
    typeName: entity.typeName,
    guid: entity.guid,
    status: entity.status,
    lastModifiedTS: entity.lastModifiedTS,
    displayText: displayText(entity),
    attributes,
    classificationNames: classificationNames(entity),
    classifications: structuredClone(entity.classifications ?? []),
    labels: [...(entity.labels ?? [])],
    meaningNames: meanings.map((m) => String(m.displayText ?? "")),
    meanings,
    isIncomplete: false,
  };
}

/** What the service shows as an entity's name: `name`, else its qualified name. */
export function displayText(entity: AtlasEntity): string {
  const name = entity.attributes.name;
  return typeof name === "string" && name !== "" ? name : entity.attributes.qualifiedName;
}

/** The type names of the entity's classifications. */
export function classificationNames(entity: AtlasEntity): string[] {
  return (entity.classifications ?? []).map((c) => String(c.typeName));
}

/** The entity as a read returns it; `ignoreRelationships` leaves out relationship attributes. */
export function entityView(
  entity: AtlasEntity,
  options: { ignoreRelationships?: boolean } = {},
): AtlasEntity {
  const view: AtlasEntity = structuredClone(entity);
  if (options.ignoreRelationships) delete view.relationshipAttributes;
  return view;
}

/** A referred entity with minimal information (`minExtInfo=true`). */
export function minimalEntity(entity: AtlasEntity): JsonObject {
  const attributes: JsonObject = { qualifiedName: entity.attributes.qualifiedName };
  if (entity.attributes.name !== undefined) attributes.name = entity.attributes.name;
  return {
    typeName: entity.typeName,
    guid: entity.guid,
    status: entity.status,
    displayText: displayText(entity),
    attributes,
  };
}
