/**
 * The checks the service makes before it accepts new or changed type definitions: attribute and end types
 * exist and are of an allowed category, supertypes exist, are of the same category and form no cycle,
 * relationship ends are well formed, and an update neither drops attributes or supertypes nor adds a
 * mandatory attribute. Each failure is the Atlas error the service answers with.
 *
 * @example
 * ```ts
 * import { checkTypeDef } from "./definition_checks.ts";
 * import { normalizeTypeDef } from "./model.ts";
 * const def = normalizeTypeDef({ name: "t", superTypes: ["Nope"] }, "ENTITY", { guid: "g", now: 0, user: "u" });
 * console.log(checkTypeDef(def, () => undefined)?.code); // "ATLAS-404-00-001"
 * ```
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { typeErrors } from "./errors.ts";
import {
  type AtlasTypeDef,
  type AtlasTypesDef,
  CATEGORY_LISTS,
  isRecord,
  namedTypesIn,
  PRIMITIVE_TYPES,
  type TypeDefCategory,
} from "./model.ts";

/** Finds a definition by name among the existing ones and those of the same request. */
export type TypeLookup = (name: string) => AtlasTypeDef | undefined;

/** One definition of a request body with the category of the list it came in. */
export interface TypeDefInput {
  category: TypeDefCategory;
  input: Record<string, unknown>;
}

/** The definitions of an `AtlasTypesDef` body; malformed lists or entries are a 400. */
export function typeDefInputs(body: unknown): TypeDefInput[] {
  if (!isRecord(body)) throw EmulatorError.badRequest("Request body must be an AtlasTypesDef JSON object");
  const inputs: TypeDefInput[] = [];
  const seen = new Set<string>();
  for (const [key, category] of CATEGORY_LISTS) {
    const list = body[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw EmulatorError.invalidParameters(`${key} must be an array`, key);
    list.forEach((input, i) => {
      if (!isRecord(input) || typeof input.name !== "string" || input.name.trim() === "") {
        throw EmulatorError.invalidParameters(`${key}[${i}].name is required`, `${key}[${i}].name`);
      }
      if (seen.has(input.name)) throw typeErrors.typeAlreadyExists(input.name);
      seen.add(input.name);
      inputs.push({ category, input });
    });
  }
  return inputs;
}

/** Groups definitions into an `AtlasTypesDef` with the six lists the service always returns. */
export function typesDefOf(defs: AtlasTypeDef[]): AtlasTypesDef {
  const result: AtlasTypesDef = {
    enumDefs: [],
    structDefs: [],
    classificationDefs: [],
    entityDefs: [],
    relationshipDefs: [],
    // Atlas lists every category, empty ones too (Azure/azure-sdk-for-js
    // sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/recording_should_list_all_available_typedefs_sources.json
    // ends with "businessMetadataDefs": []).
    businessMetadataDefs: [],
  };
  for (const def of defs) {
    const key = CATEGORY_LISTS.find(([, category]) => category === def.category)![0];
    (result[key] ??= []).push(def);
  }
  return result;
}

/** The error for a definition that cannot be accepted as it is, or undefined. */
export function checkTypeDef(def: AtlasTypeDef, lookup: TypeLookup): EmulatorError | undefined {
  return checkAttributes(def, lookup) ?? checkSuperTypes(def, lookup) ?? checkRelationshipEnds(def, lookup) ??
    checkEntityTypes(def, lookup);
}

/** The error for an update that would drop attributes or supertypes or add a mandatory attribute. */
export function checkUpdate(existing: AtlasTypeDef, updated: AtlasTypeDef): EmulatorError | undefined {
  const newNames = new Set((updated.attributeDefs ?? []).map((a) => a.name));
  const oldNames = new Set((existing.attributeDefs ?? []).map((a) => a.name));
  for (const name of oldNames) {
    if (!newNames.has(name)) return typeErrors.attributeDeletion(existing.name, name);
  }
  for (const attribute of updated.attributeDefs ?? []) {
    if (!oldNames.has(attribute.name) && !attribute.isOptional) {
      return typeErrors.cannotAddMandatory(existing.name, attribute.name);
    }
  }
  const newSupers = new Set(updated.superTypes ?? []);
  if ((existing.superTypes ?? []).some((name) => !newSupers.has(name))) return typeErrors.superTypeRemoval();
  return undefined;
}

// Which categories a named attribute type may be, per category of the definition holding the attribute.
const ALLOWED_ATTRIBUTE_TYPES: Partial<Record<TypeDefCategory, TypeDefCategory[]>> = {
  ENTITY: ["ENUM", "STRUCT", "ENTITY"],
  STRUCT: ["ENUM", "STRUCT", "ENTITY"],
  CLASSIFICATION: ["ENUM", "STRUCT", "ENTITY"],
  RELATIONSHIP: ["ENUM"],
  BUSINESS_METADATA: ["ENUM"],
  TERM_TEMPLATE: ["ENUM"],
};

function checkAttributes(def: AtlasTypeDef, lookup: TypeLookup): EmulatorError | undefined {
  const seen = new Set<string>();
  for (const [i, attribute] of (def.attributeDefs ?? []).entries()) {
    const where = `${def.name}.attributeDefs[${i}]`;
    if (attribute.name.trim() === "") {
      return EmulatorError.invalidParameters(`${where}.name is required`, where);
    }
    if (attribute.typeName.trim() === "") {
      return EmulatorError.invalidParameters(`${where}.typeName is required`, where);
    }
    if (seen.has(attribute.name)) {
      return EmulatorError.invalidParameters(`${def.name} defines attribute ${attribute.name} twice`, where);
    }
    seen.add(attribute.name);
    for (const name of namedTypesIn(attribute.typeName)) {
      if (PRIMITIVE_TYPES.has(name)) continue;
      const found = lookup(name);
      // Atlas's type registry raises TYPE_NAME_NOT_FOUND for an attribute type it cannot resolve.
      if (!found) return typeErrors.typeNameNotFound(name);
      if (ALLOWED_ATTRIBUTE_TYPES[def.category]?.includes(found.category)) continue;
      if (def.category === "RELATIONSHIP") {
        return typeErrors.relationshipAttributeType(attribute.typeName, def.name);
      }
      if (def.category === "BUSINESS_METADATA" || def.category === "TERM_TEMPLATE") {
        return typeErrors.businessAttributeType(def.name, attribute.name);
      }
      return EmulatorError.invalidParameters(
        `${def.name}.${attribute.name}: invalid attribute type ${attribute.typeName}`,
        where,
      );
    }
  }
  return undefined;
}

function checkSuperTypes(def: AtlasTypeDef, lookup: TypeLookup): EmulatorError | undefined {
  for (const superType of def.superTypes ?? []) {
    const found = lookup(superType);
    if (!found) return typeErrors.typeNameNotFound(superType);
    if (found.category !== def.category) return typeErrors.incompatibleSuperType(def.name, superType);
  }
  // Walk up from the new definition; meeting its own name again is a cycle.
  const pending = [...(def.superTypes ?? [])];
  const visited = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name === def.name) return typeErrors.circularSuperTypes(def.name);
    if (visited.has(name)) continue;
    visited.add(name);
    pending.push(...(lookup(name)?.superTypes ?? []));
  }
  return undefined;
}

function checkRelationshipEnds(def: AtlasTypeDef, lookup: TypeLookup): EmulatorError | undefined {
  if (def.category !== "RELATIONSHIP") return undefined;
  const ends = [def.endDef1, def.endDef2];
  if (ends.some((end) => !end || end.type === "" || end.name === "")) {
    return typeErrors.insufficientEnds(def.name);
  }
  for (const end of ends) {
    const found = lookup(end!.type);
    if (!found) return typeErrors.typeNameNotFound(end!.type);
    if (found.category !== "ENTITY") return typeErrors.invalidEndType(def.name, end!.type);
    if (end!.cardinality === "LIST") return typeErrors.listOnEnd(def.name);
  }
  const containers = ends.filter((end) => end!.isContainer).length;
  if (containers === 2) return typeErrors.doubleContainers(def.name);
  const category = def.relationshipCategory ?? "ASSOCIATION";
  if ((category === "ASSOCIATION") !== (containers === 0)) {
    return typeErrors.containerMismatch(def.name, category);
  }
  return undefined;
}

function checkEntityTypes(def: AtlasTypeDef, lookup: TypeLookup): EmulatorError | undefined {
  for (const entityType of def.entityTypes ?? []) {
    if (lookup(entityType)?.category !== "ENTITY") return typeErrors.invalidEntityTypes(def.name, entityType);
  }
  return undefined;
}
