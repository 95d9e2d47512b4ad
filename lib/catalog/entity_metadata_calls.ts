/**
 * The label and classification calls of an entity, each described once: its HTTP method, the path below the
 * entity and what the body holds. The client ({@link EntityMetadataApi}) sends them for an entity named by
 * GUID or by type and qualified name ({@link EntityRef}), and the operation registry builds one command per
 * call and way of naming the entity from the same tables, so a call's shape lives in one place.
 *
 * @module
 */
import type { QueryValue } from "../http/request_url.ts";
import { ATLAS_V2, segment } from "./paths.ts";

/** An entity named by its GUID, or by its type and the unique attribute `qualifiedName`. */
export type EntityRef = { guid: string } | { typeName: string; qualifiedName: string };

/** One call on an entity's labels or classifications. */
export interface EntityMetadataCall {
  /** The HTTP method that makes the change. */
  method: "POST" | "PUT" | "DELETE";
  /** The path below the entity: `labels`, `classifications`, or `classification` (one, by name). */
  below: "labels" | "classifications" | "classification";
  /** Whether repeating it is harmless, so the HTTP core may retry it after a lost answer. */
  idempotent: boolean;
}

/**
 * The label calls (Atlas v2): PUT appends, POST replaces the whole list, DELETE removes the given labels.
 * All three are safe to repeat: the result is the same list.
 */
export const LABEL_CALLS = {
  add: { method: "PUT", below: "labels", idempotent: true },
  set: { method: "POST", below: "labels", idempotent: true },
  remove: { method: "DELETE", below: "labels", idempotent: true },
} as const satisfies Record<string, EntityMetadataCall>;

/** A label call's name. */
export type LabelCall = keyof typeof LABEL_CALLS;

/**
 * The classification calls (Atlas v2): POST adds (refused for one the entity carries), PUT updates the
 * attributes of ones it carries, DELETE removes one by name. Adding is not repeated after a lost answer (a
 * second add is refused); the others are.
 */
export const CLASSIFICATION_CALLS = {
  add: { method: "POST", below: "classifications", idempotent: false },
  update: { method: "PUT", below: "classifications", idempotent: true },
  remove: { method: "DELETE", below: "classification", idempotent: true },
} as const satisfies Record<string, EntityMetadataCall>;

/** A classification call's name. */
export type ClassificationCall = keyof typeof CLASSIFICATION_CALLS;

/** Path of the entity calls. */
export const ENTITY_PATH = `${ATLAS_V2}/entity`;

/** Path of the calls on the entity found by type name and unique attribute (`attr:qualifiedName`). */
export function uniqueAttributePath(typeName: string): string {
  return `${ENTITY_PATH}/uniqueAttribute/type/${segment(typeName)}`;
}

/** Where a call on `ref` goes: the path (with `name` appended, for one classification) and the query. */
export function entityCallTarget(
  ref: EntityRef,
  below: EntityMetadataCall["below"],
  name?: string,
): { path: string; query: Record<string, QueryValue> } {
  const suffix = `/${below}${name === undefined ? "" : `/${segment(name)}`}`;
  if ("guid" in ref) return { path: `${ENTITY_PATH}/guid/${segment(ref.guid)}${suffix}`, query: {} };
  return {
    path: `${uniqueAttributePath(ref.typeName)}${suffix}`,
    query: { "attr:qualifiedName": ref.qualifiedName },
  };
}
