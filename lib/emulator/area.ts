/**
 * What every API area of the emulator receives, so areas (entities, search, and later glossary, lineage,
 * types, collections, scanning) stay independent of the server and of each other.
 *
 * @example
 * ```ts
 * import type { ApiArea } from "./area.ts";
 * const healthArea: ApiArea = () => [
 *   { method: "GET", path: "/ping", handler: () => Response.json({ ok: true }) },
 * ];
 * ```
 *
 * @module
 */
import type { RouteDefinition } from "./router.ts";
import type { EmulatorError } from "./errors.ts";
import type { EntityStore } from "./store.ts";

/**
 * The emulator's type system as the entity routes see it: every entity, classification and business
 * metadata write is checked against the type definitions, as the service does.
 */
export interface TypeSystem {
  /**
   * The service's error for an entity whose type is unknown (404) or whose attributes break the type's
   * definition: a missing required attribute, an unknown attribute, a value of the wrong type (400).
   * Undefined when the entity is valid.
   */
  validateEntity(
    entity: { typeName?: string; attributes?: Record<string, unknown> },
  ): EmulatorError | undefined;
  /** The error for a classification name that is not a classification type (404), or undefined. */
  validateClassification(typeName: string): EmulatorError | undefined;
  /**
   * The error for business metadata that names an unknown group or attribute, or a value of the wrong
   * type (400/404), or undefined. `bm` maps group name to attribute name to value.
   */
  validateBusinessMetadata(bm: Record<string, Record<string, unknown>>): EmulatorError | undefined;
  /** True when `typeName` is `superType` or inherits from it (Process, DataSet, Column lookups). */
  isA(typeName: string, superType: string): boolean;
}

/** Shared state handed to each area when the server builds its routes. */
export interface AreaDependencies {
  store: EntityStore;
  types: TypeSystem;
  /** Current time in epoch milliseconds; replaceable so tests can pin timestamps. */
  now(): number;
}

/** Builds the routes of one API area, with paths relative to the API prefix. */
export type ApiArea = (dependencies: AreaDependencies) => RouteDefinition[];
