/**
 * The emulator's type system: the built-in Atlas and Purview type definitions plus those callers create
 * (persisted in the shared database), enforced on every entity, classification and business metadata write
 * ({@link TypeSystem}) and served by the typedef routes ({@link TypeDefRegistry}).
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { createTypeSystem } from "./system.ts";
 * const db = new DatabaseSync(":memory:");
 * const types = createTypeSystem(db, Date.now);
 * console.log(types.validateEntity({ typeName: "no_such_type", attributes: {} })?.status); // 404
 * console.log(types.byName("azure_sql_table")?.superTypes); // ["DataSet"]
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import type { TypeSystem } from "../area.ts";
import type { EmulatorError } from "../errors.ts";
import type {
  AtlasAttributeDef,
  AtlasTypeDef,
  AtlasTypeDefHeader,
  AtlasTypesDef,
  TypeDefCategory,
} from "./model.ts";
import { type TypeDefFilter, TypeRegistry, type TypeUsage } from "./registry.ts";
import { businessMetadataError, classificationError, entityError, type EntityShape } from "./value_checks.ts";

/** The type definitions as the typedef and relationship routes use them. */
export interface TypeDefRegistry {
  /** The definition with this name (of this category, when given) as kept internally; do not modify it. */
  find(name: string, category?: TypeDefCategory): AtlasTypeDef | undefined;
  /** The definition as the service returns it, with computed subTypes and relationshipAttributeDefs. */
  byName(name: string, category?: TypeDefCategory): AtlasTypeDef | undefined;
  /** The definition with this guid as the service returns it. */
  byGuid(guid: string, category?: TypeDefCategory): AtlasTypeDef | undefined;
  /** All definitions matching `GET /types/typedefs` filters. */
  list(filter?: TypeDefFilter): AtlasTypesDef;
  /** Headers of the definitions matching the filters. */
  headers(filter?: TypeDefFilter): AtlasTypeDefHeader[];
  /** Bulk create; throws the service's EmulatorError (400, 404, 409). */
  create(body: unknown): AtlasTypesDef;
  /** Bulk update; throws the service's EmulatorError (400, 404). */
  update(body: unknown): AtlasTypesDef;
  /** Deletes by name, all or nothing; throws 404, 400 (built-in) or 409 (in use). */
  delete(names: string[], usage: TypeUsage): void;
  /** Attributes of a type including inherited ones. */
  allAttributes(typeName: string): Map<string, AtlasAttributeDef>;
  /** Relationship attributes an entity type gets from relationship definitions. */
  relationshipAttributeDefs(typeName: string): AtlasAttributeDef[];
  /** True when `typeName` is `superType` or inherits from it. */
  isA(typeName: string, superType: string): boolean;
}

/** The type registry with enforcement: what {@link createTypeSystem} returns. */
export class EmulatorTypeSystem extends TypeRegistry implements TypeSystem, TypeDefRegistry {
  /** See {@link TypeSystem.validateEntity}. */
  validateEntity(entity: EntityShape): EmulatorError | undefined {
    return entityError(this, entity);
  }

  /** See {@link TypeSystem.validateClassification}. */
  validateClassification(typeName: string): EmulatorError | undefined {
    return classificationError(this, typeName);
  }

  /** See {@link TypeSystem.validateBusinessMetadata}. */
  validateBusinessMetadata(bm: Record<string, Record<string, unknown>>): EmulatorError | undefined {
    return businessMetadataError(this, bm);
  }
}

/** Opens the type system on the emulator's database, creating its `typedefs` table when missing. */
export function createTypeSystem(database: DatabaseSync, now: () => number): TypeSystem & TypeDefRegistry {
  return new EmulatorTypeSystem(database, now);
}

/**
 * The registry behind an area's `types`. Areas receive the type system as the narrower {@link TypeSystem};
 * the typedef and relationship areas need the definitions themselves.
 */
export function typeDefRegistryOf(types: TypeSystem): TypeDefRegistry {
  if (types instanceof TypeRegistry) return types as EmulatorTypeSystem;
  throw new Error("The emulator's type system does not expose its type definitions");
}

export type { TypeDefFilter, TypeUsage };
