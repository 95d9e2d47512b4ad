/**
 * The emulator's type registry: the built-in definitions merged with the stored ones, lookups by name and
 * guid, listing with the service's filters, inheritance (`isA`, inherited and relationship attributes) and
 * the bulk create, update and delete the typedef routes expose.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { TypeRegistry } from "./registry.ts";
 * const db = new DatabaseSync(":memory:");
 * const registry = new TypeRegistry(db, Date.now);
 * console.log(registry.isA("azure_sql_table", "DataSet")); // true
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { EMULATOR_USER } from "../entity/model.ts";
import type { EmulatorError } from "../errors.ts";
import { BUILTIN_NAMES, BUILTIN_TYPEDEFS } from "./builtin_types.ts";
import { checkTypeDef, checkUpdate, typeDefInputs, typesDefOf } from "./definition_checks.ts";
import { typeErrors } from "./errors.ts";
import {
  type AtlasAttributeDef,
  type AtlasTypeDef,
  type AtlasTypeDefHeader,
  type AtlasTypesDef,
  namedTypesIn,
  normalizeTypeDef,
  type TypeDefCategory,
} from "./model.ts";
import { TypeDefStore } from "./store.ts";

/** The `type` and `includeTermTemplate` filters of `GET /types/typedefs` and `/typedefs/headers`. */
export interface TypeDefFilter {
  /** A `TypeCategory` (any case); PRIMITIVE, ARRAY, MAP and OBJECT_ID_TYPE match no stored definition. */
  type?: string;
  includeTermTemplate?: boolean;
}

/** What instances use, so a delete can refuse types still in use. */
export interface TypeUsage {
  /** Entity types with at least one entity. */
  entityTypes: ReadonlySet<string>;
  /** Classification types some entity carries. */
  classifications: ReadonlySet<string>;
  /** Business metadata groups some entity has values for. */
  businessMetadata: ReadonlySet<string>;
  /** Relationship types with at least one relationship instance. */
  relationshipTypes: ReadonlySet<string>;
}

/** Atlas's `CLASS` and `TRAIT` are old names of ENTITY and CLASSIFICATION and still accepted as filters. */
const FILTER_ALIASES: Record<string, string> = { CLASS: "ENTITY", TRAIT: "CLASSIFICATION" };

/** Built-in and stored type definitions. */
export class TypeRegistry {
  readonly #store: TypeDefStore;
  readonly #now: () => number;
  #byName = new Map<string, AtlasTypeDef>();
  #attributeCache = new Map<string, Map<string, AtlasAttributeDef>>();

  constructor(database: DatabaseSync, now: () => number) {
    this.#store = new TypeDefStore(database);
    this.#now = now;
    this.reload();
  }

  /** Reads the definitions again: the built-ins, then the stored ones (after the table changed under it). */
  reload(): void {
    this.#byName = new Map();
    for (const def of BUILTIN_TYPEDEFS) this.#byName.set(def.name, def);
    // Stored definitions are created types and updated built-ins; the latter shadow the code's version.
    const stored = this.#store.all();
    for (const def of stored.defs) this.#byName.set(def.name, def);
    for (const name of stored.deleted) this.#byName.delete(name);
    this.#attributeCache.clear();
  }

  /** The stored definition with this name, as kept internally (do not modify). */
  find(name: string, category?: TypeDefCategory): AtlasTypeDef | undefined {
    const def = this.#byName.get(name);
    return def && (!category || def.category === category) ? def : undefined;
  }

  /** The definition as the service returns it (computed subTypes and relationship attributes included). */
  byName(name: string, category?: TypeDefCategory): AtlasTypeDef | undefined {
    const def = this.find(name, category);
    return def && this.#view(def);
  }

  /** The definition with this guid, as the service returns it. */
  byGuid(guid: string, category?: TypeDefCategory): AtlasTypeDef | undefined {
    for (const def of this.#byName.values()) {
      if (def.guid === guid && (!category || def.category === category)) return this.#view(def);
    }
    return undefined;
  }

  /** All definitions matching the filter, grouped as `AtlasTypesDef`. */
  list(filter: TypeDefFilter = {}): AtlasTypesDef {
    const wanted = this.#filtered(filter);
    const result = typesDefOf(wanted.map((def) => this.#view(def)));
    const type = filterCategory(filter.type);
    if (filter.includeTermTemplate || type === "TERM_TEMPLATE") result.termTemplateDefs ??= [];
    return result;
  }

  /** Headers of the definitions matching the filter. */
  headers(filter: TypeDefFilter = {}): AtlasTypeDefHeader[] {
    return this.#filtered(filter).map(({ guid, name, category }) => ({ guid, name, category }));
  }

  /** True when `typeName` is `superType` or inherits from it, through any number of supertypes. */
  isA(typeName: string, superType: string): boolean {
    if (typeName === superType) return true;
    const pending = [...(this.find(typeName)?.superTypes ?? [])];
    const visited = new Set<string>();
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (name === superType) return true;
      if (visited.has(name)) continue;
      visited.add(name);
      pending.push(...(this.find(name)?.superTypes ?? []));
    }
    return false;
  }

  /** The attributes of a type including inherited ones, by name (the subtype's definition wins). */
  allAttributes(typeName: string): Map<string, AtlasAttributeDef> {
    const cached = this.#attributeCache.get(typeName);
    if (cached) return cached;
    const attributes = new Map<string, AtlasAttributeDef>();
    const def = this.find(typeName);
    for (const superType of def?.superTypes ?? []) {
      for (const [name, attribute] of this.allAttributes(superType)) attributes.set(name, attribute);
    }
    for (const attribute of def?.attributeDefs ?? []) attributes.set(attribute.name, attribute);
    this.#attributeCache.set(typeName, attributes);
    return attributes;
  }

  /** The relationship attributes an entity type gets from the relationship defs whose ends it can be. */
  relationshipAttributeDefs(typeName: string): AtlasAttributeDef[] {
    const result: AtlasAttributeDef[] = [];
    for (const def of this.#byName.values()) {
      if (def.category !== "RELATIONSHIP" || !def.endDef1 || !def.endDef2) continue;
      for (const [own, other] of [[def.endDef1, def.endDef2], [def.endDef2, def.endDef1]]) {
        if (!this.isA(typeName, own.type)) continue;
        const many = own.cardinality !== "SINGLE";
        // As the service lists them (Azure/azure-sdk-for-js
        // sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/recording_should_list_all_available_typedefs_sources.json):
        // in a composition the container's attribute owns its children (`ownedRef`) and the child's
        // attribute naming its container is not optional (shown only: entity writes do not require it).
        const composition = def.relationshipCategory === "COMPOSITION";
        const attribute: AtlasAttributeDef = {
          name: own.name,
          typeName: many ? `array<${other.type}>` : other.type,
          isOptional: !(composition && other.isContainer),
          cardinality: own.cardinality,
          valuesMinCount: -1,
          valuesMaxCount: -1,
          isUnique: false,
          isIndexable: false,
          includeInNotification: false,
        };
        if (composition && own.isContainer) attribute.constraints = [{ type: "ownedRef" }];
        result.push({
          ...attribute,
          relationshipTypeName: def.name,
          isLegacyAttribute: own.isLegacyAttribute,
        });
      }
    }
    return result;
  }

  /** Names of the business metadata definitions. */
  businessMetadataNames(): string[] {
    return [...this.#byName.values()].filter((d) => d.category === "BUSINESS_METADATA").map((d) => d.name);
  }

  /** Creates the definitions of an `AtlasTypesDef` body; 409 when a name exists. Returns them as stored. */
  create(body: unknown): AtlasTypesDef {
    const inputs = typeDefInputs(body);
    for (const { input } of inputs) {
      if (this.#byName.has(String(input.name))) throw typeErrors.typeAlreadyExists(String(input.name));
    }
    const now = this.#now();
    const created = inputs.map(({ input, category }) =>
      normalizeTypeDef(input, category, { guid: crypto.randomUUID(), now, user: EMULATOR_USER })
    );
    this.#commit(created);
    return typesDefOf(created.map((def) => this.#view(def)));
  }

  /** Updates existing definitions (built-ins included); 404 when one does not exist in its category. */
  update(body: unknown): AtlasTypesDef {
    const now = this.#now();
    const updated = typeDefInputs(body).map(({ input, category }) => {
      const existing = this.find(String(input.name), category);
      if (!existing) throw typeErrors.typeNameNotFound(String(input.name));
      const def = normalizeTypeDef(input, category, { guid: existing.guid, now, user: EMULATOR_USER });
      def.createTime = existing.createTime;
      def.createdBy = existing.createdBy;
      def.version = existing.version + 1;
      def.lastModifiedTS = String(Number(existing.lastModifiedTS || "0") + 1);
      const error = checkUpdate(existing, def);
      if (error) throw error;
      return def;
    });
    this.#commit(updated);
    return typesDefOf(updated.map((def) => this.#view(def)));
  }

  /**
   * Deletes the named definitions, all or none: 404 for an unknown name, 409 while instances, assignments
   * or other definitions still use one of them. Built-ins can be deleted too (the contract's Type_Delete
   * example deletes `hive_order`); their deletion is recorded so it survives a restart.
   */
  delete(names: string[], usage: TypeUsage): void {
    const doomed = new Set(names);
    const defs = [...doomed].map((name) => {
      const def = this.find(name);
      if (!def) throw typeErrors.typeNameNotFound(name);
      return def;
    });
    for (const def of defs) {
      const error = this.#inUse(def, usage, doomed);
      if (error) throw error;
    }
    this.#store.write({
      remove: defs.filter((def) => !BUILTIN_NAMES.has(def.name)).map((def) => def.name),
      tombstones: defs.filter((def) => BUILTIN_NAMES.has(def.name)),
    });
    for (const name of doomed) this.#byName.delete(name);
    this.#attributeCache.clear();
  }

  #inUse(def: AtlasTypeDef, usage: TypeUsage, doomed: Set<string>): EmulatorError | undefined {
    const name = def.name;
    const used = (def.category === "ENTITY" && usage.entityTypes.has(name)) ||
      (def.category === "CLASSIFICATION" && usage.classifications.has(name)) ||
      (def.category === "BUSINESS_METADATA" && usage.businessMetadata.has(name)) ||
      (def.category === "RELATIONSHIP" && usage.relationshipTypes.has(name));
    if (used) return typeErrors.typeHasReferences(name);
    for (const other of this.#byName.values()) {
      if (doomed.has(other.name)) continue;
      if (other.endDef1?.type === name || other.endDef2?.type === name) {
        return typeErrors.typeHasRelationships(name);
      }
      const referenced = (other.superTypes ?? []).includes(name) ||
        (other.entityTypes ?? []).includes(name) ||
        (other.attributeDefs ?? []).some((a) => namedTypesIn(a.typeName).includes(name));
      if (referenced) return typeErrors.typeHasReferences(name);
    }
    return undefined;
  }

  // Checks the new definitions against the registry as it would be with them, then stores them.
  #commit(defs: AtlasTypeDef[]): void {
    const pending = new Map(defs.map((def) => [def.name, def]));
    const lookup = (name: string) => pending.get(name) ?? this.#byName.get(name);
    for (const def of defs) {
      const error = checkTypeDef(def, lookup);
      if (error) throw error;
    }
    this.#store.write({ put: defs });
    for (const def of defs) this.#byName.set(def.name, def);
    this.#attributeCache.clear();
  }

  #filtered(filter: TypeDefFilter): AtlasTypeDef[] {
    const type = filterCategory(filter.type);
    return [...this.#byName.values()].filter((def) => {
      if (type !== undefined) return def.category === type;
      return def.category !== "TERM_TEMPLATE" || filter.includeTermTemplate === true;
    });
  }

  /**
   * The business metadata attributes that apply to an entity type, by business metadata name: those whose
   * `applicableEntityTypes` option (a JSON array of type names, as Atlas writes it) names the type or one
   * of its supertypes.
   */
  #businessAttributeDefs(typeName: string): Record<string, AtlasAttributeDef[]> {
    const result: Record<string, AtlasAttributeDef[]> = {};
    for (const def of this.#byName.values()) {
      if (def.category !== "BUSINESS_METADATA") continue;
      const applicable = (def.attributeDefs ?? []).filter((attribute) =>
        applicableTypes(attribute).some((type) => this.isA(typeName, type))
      );
      if (applicable.length > 0) result[def.name] = structuredClone(applicable);
    }
    return result;
  }

  #view(def: AtlasTypeDef): AtlasTypeDef {
    const view = structuredClone(def);
    if (def.category === "ENTITY" || def.category === "CLASSIFICATION") {
      view.subTypes = [...this.#byName.values()]
        .filter((other) => other.category === def.category && (other.superTypes ?? []).includes(def.name))
        .map((other) => other.name);
    }
    if (def.category === "ENTITY") {
      view.relationshipAttributeDefs = this.relationshipAttributeDefs(def.name);
      // Every entity def the service lists ends with its businessAttributeDefs, `{}` when none apply
      // (the typedefs recording cited in relationshipAttributeDefs).
      view.businessAttributeDefs = this.#businessAttributeDefs(def.name);
    }
    return view;
  }
}

/** The type names of an attribute's `applicableEntityTypes` option; none when it is missing or unreadable. */
function applicableTypes(attribute: AtlasAttributeDef): string[] {
  const option = attribute.options?.applicableEntityTypes;
  if (option === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(option);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

function filterCategory(type: string | undefined): string | undefined {
  if (type === undefined || type === "") return undefined;
  const upper = type.toUpperCase();
  return FILTER_ALIASES[upper] ?? upper;
}
