/**
 * The rules of the unified catalog over its store: create, update and delete of each kind with their
 * references (a term's domain and parent, a key result's domain), names unique per domain, the refusal to
 * delete a domain that still holds entities, computed fields (`isLeaf`, objective roll-ups, a data
 * product's asset count). Relationships (relationships.ts) and the term hierarchy (hierarchy.ts) are
 * their own modules; the class hands them on.
 *
 * @module
 */
import { invalidField } from "./errors.ts";
import { conflict, entityNotFound } from "./errors.ts";
import { checkFields, EMULATOR_USER_ID, isRecord, type Json, KINDS, type KindSpec } from "./model.ts";
import { isGuid } from "../../core/guid.ts";
import { domainOf, nameOf } from "./query.ts";
import { domainHierarchy, termHierarchy } from "./hierarchy.ts";
import { addRelationship, relationshipsOf, relationshipViews, removeRelationships } from "./relationships.ts";
import type { UnifiedStore } from "./store.ts";

const COMPUTED_FIELDS = ["systemData", "isLeaf", "additionalProperties"];

/** The unified catalog's operations, shared by the routes. */
export class UnifiedCatalog {
  constructor(readonly store: UnifiedStore, readonly now: () => number) {}

  /** The entity or a 404 naming it. */
  existing(spec: KindSpec, id: string): Json {
    return this.store.get(spec.kind, id) ?? (() => {
      throw entityNotFound(spec.label, id);
    })();
  }

  /** Creates an entity of `spec` from a request body; `objectiveId` for key results. */
  create(spec: KindSpec, body: unknown, objectiveId?: string): Json {
    const entity = this.#input(body);
    checkFields(spec, entity);
    const id = typeof entity.id === "string" ? entity.id.toLowerCase() : crypto.randomUUID();
    if (this.store.find(id)) throw conflict(`An entity with id '${id}' already exists.`, "id");
    entity.id = id;
    this.#checkReferences(spec, entity, objectiveId);
    this.#checkUnique(spec, entity);
    const at = new Date(this.now()).toISOString();
    entity.systemData = {
      provisioningState: "Succeeded",
      createdAt: at,
      createdBy: EMULATOR_USER_ID,
      lastModifiedAt: at,
      lastModifiedBy: EMULATOR_USER_ID,
    };
    this.#stampStatus(spec, entity, undefined, at);
    this.#save(spec, entity, objectiveId);
    if (spec.kind === "domain" || spec.kind === "dataProduct") this.#createPolicy(spec, entity, at);
    return this.wire(spec, entity);
  }

  /** Updates an entity with a full (or partial: missing fields are kept) body. */
  update(spec: KindSpec, id: string, body: unknown, objectiveId?: string): Json {
    const current = this.existing(spec, id);
    const input = this.#input(body);
    if (input.id !== undefined && String(input.id).toLowerCase() !== String(current.id).toLowerCase()) {
      throw invalidField(
        "id",
        `The body's id '${String(input.id)}' differs from the id '${id}' of the path.`,
      );
    }
    const entity: Json = { ...current, ...input, id: current.id };
    for (const field of COMPUTED_FIELDS) delete entity[field];
    checkFields(spec, entity);
    this.#checkReferences(spec, entity, objectiveId);
    this.#checkUnique(spec, entity);
    const at = new Date(this.now()).toISOString();
    entity.systemData = {
      ...(isRecord(current.systemData) ? current.systemData : {}),
      lastModifiedAt: at,
      lastModifiedBy: EMULATOR_USER_ID,
    };
    this.#stampStatus(spec, entity, current.status, at);
    this.#save(spec, entity, objectiveId);
    return this.wire(spec, entity);
  }

  /** Deletes an entity (and what depends on it); refuses a domain or parent term still in use. */
  delete(spec: KindSpec, id: string): void {
    const entity = this.existing(spec, id);
    const key = String(entity.id);
    if (spec.kind === "domain") {
      const counts = this.store.countByDomain(key);
      const children = this.store.children("domain", key).length;
      const parts = [
        ["term", "terms"],
        ["dataProduct", "data products"],
        ["cde", "critical data elements"],
        ["objective", "objectives"],
      ].filter(([kind]) => (counts[kind] ?? 0) > 0).map(([kind, words]) => `${counts[kind]} ${words}`);
      if (children > 0) parts.push(`${children} child domains`);
      if (parts.length > 0) {
        throw conflict(
          `The business domain '${nameOf(spec, entity)}' (${key}) cannot be deleted: it still has ` +
            `${parts.join(", ")}. Delete or move them first.`,
        );
      }
    }
    if (spec.kind === "term") {
      const children = this.store.children("term", key);
      if (children.length > 0) {
        throw conflict(
          `The term '${nameOf(spec, entity)}' (${key}) cannot be deleted: it is the parent of ` +
            `${children.length} terms (${
              children.map((c) => c.name).join(", ")
            }). Delete or move them first.`,
        );
      }
    }
    if (spec.kind === "objective") {
      for (const result of this.store.children("keyResult", key)) this.store.delete(String(result.id));
    }
    if (spec.kind === "domain" || spec.kind === "dataProduct") {
      for (const policy of this.store.children("policy", key)) this.store.delete(String(policy.id));
    }
    this.store.delete(key);
  }

  /** The wire form: stored fields plus the computed ones. */
  wire(spec: KindSpec, entity: Json): Json {
    const id = String(entity.id);
    switch (spec.kind) {
      case "term":
        return { ...entity, isLeaf: this.store.children("term", id).length === 0 };
      case "dataProduct": {
        // Linked from either side: `dataProducts/{id}/relationships` or `dataAssets/{id}/relationships`.
        const assets = relationshipViews(this.store, id, "DATAPRODUCT").filter((view) =>
          view.otherType === "DATAASSET"
        );
        return {
          ...entity,
          additionalProperties: {
            ...(isRecord(entity.additionalProperties) ? entity.additionalProperties : {}),
            assetCount: assets.length,
          },
        };
      }
      case "objective":
        return { ...entity, additionalProperties: this.#rollup(id) };
      default:
        return entity;
    }
  }

  // ---- relationships (relationships.ts) and hierarchy (hierarchy.ts) -----------------------------------

  /** Adds a relationship from a term, data product or critical data element. */
  addRelationship(spec: KindSpec, id: string, entityTypeParam: string | null, body: unknown): Json {
    return addRelationship(this, spec, id, entityTypeParam, body);
  }

  /** The relationships of an entity, seen from it, filtered by the `entityType`/`relationshipType` params. */
  relationships(
    id: string,
    category: string,
    entityType: string | null,
    relationshipType: string | null,
  ): Json[] {
    return relationshipsOf(this, id, category, entityType, relationshipType);
  }

  /** Removes the relationships between an entity and `entityId`; a 404 when there is none. */
  removeRelationships(
    spec: KindSpec,
    id: string,
    entityId: string | null,
    entityType: string | null,
    relationshipType: string | null,
  ): void {
    removeRelationships(this, spec, id, entityId, entityType, relationshipType);
  }

  /** A term with its ancestors (root first) and its descendants as a tree. */
  termHierarchy(id: string, maxDepth: number): Json {
    return termHierarchy(this, id, maxDepth);
  }

  /** The term trees of a domain: its root terms with their descendants. */
  domainHierarchy(domainId: string, maxDepth: number, includeDraft: boolean): Json {
    return domainHierarchy(this, domainId, maxDepth, includeDraft);
  }

  // ---- internals -----------------------------------------------------------------------------------

  #input(body: unknown): Json {
    if (!isRecord(body)) throw invalidField("body", "The request body must be a JSON object.");
    const copy: Json = structuredClone(body);
    for (const field of COMPUTED_FIELDS) delete copy[field];
    return copy;
  }

  #checkReferences(spec: KindSpec, entity: Json, objectiveId?: string): void {
    if (spec.domainField) {
      const field = spec.domainField;
      const value = entity[field];
      if (typeof value === "string") {
        if (!this.store.get("domain", value)) {
          throw invalidField(field, `${field} '${value}' does not name an existing business domain.`);
        }
        entity[field] = value.toLowerCase();
      }
    }
    if (spec.kind === "keyResult" && objectiveId) {
      const objective = this.existing(KINDS.objective, objectiveId);
      if (objective.domain !== entity.domainId) {
        throw invalidField(
          "domainId",
          `domainId '${
            String(entity.domainId)
          }' must be the domain of objective '${objective.id}' (${objective.domain}).`,
        );
      }
    }
    if (
      (spec.kind === "term" || spec.kind === "domain") && entity.parentId !== undefined &&
      entity.parentId !== null
    ) {
      if (entity.parentId === "") {
        delete entity.parentId;
        return;
      }
      const parentId = String(entity.parentId).toLowerCase();
      const parent = this.store.get(spec.kind, parentId);
      if (!parent) {
        throw invalidField("parentId", `parentId '${parentId}' does not name an existing ${spec.label}.`);
      }
      if (spec.kind === "term" && parent.domain !== entity.domain) {
        throw invalidField(
          "parentId",
          `The parent term '${parent.name}' (${parentId}) is in domain '${parent.domain}', not in '${entity.domain}'.`,
        );
      }
      let cursor: Json | undefined = parent;
      const seen = new Set<string>();
      while (cursor && !seen.has(String(cursor.id))) {
        if (String(cursor.id) === entity.id) {
          throw invalidField(
            "parentId",
            `parentId '${parentId}' would make the ${spec.label} its own ancestor.`,
          );
        }
        seen.add(String(cursor.id));
        cursor = typeof cursor.parentId === "string" ? this.store.get(spec.kind, cursor.parentId) : undefined;
      }
      entity.parentId = parentId;
    }
  }

  #checkUnique(spec: KindSpec, entity: Json): void {
    if (!["domain", "term", "dataProduct", "cde"].includes(spec.kind)) return;
    const name = nameOf(spec, entity).toLowerCase();
    const domain = domainOf(spec, entity);
    const clash = this.store.list(spec.kind).find((other) =>
      other.id !== entity.id && nameOf(spec, other).toLowerCase() === name && domainOf(spec, other) === domain
    );
    if (clash) {
      const where = spec.kind === "domain" ? "" : ` in business domain '${domain}'`;
      throw conflict(
        `A ${spec.label} named '${nameOf(spec, clash)}' already exists${where} (id ${clash.id}).`,
        spec.nameField,
      );
    }
  }

  #stampStatus(spec: KindSpec, entity: Json, previous: unknown, at: string): void {
    const systemData = entity.systemData as Json;
    if (entity.status === "EXPIRED" && previous !== "EXPIRED") {
      systemData.expiredAt = at;
      systemData.expiredBy = EMULATOR_USER_ID;
    }
    if (spec.kind === "objective" && entity.status === "Closed" && previous !== "Closed") {
      systemData.closedAt = at;
      systemData.closedBy = EMULATOR_USER_ID;
    }
  }

  #save(spec: KindSpec, entity: Json, objectiveId?: string): void {
    const parent = spec.kind === "keyResult"
      ? objectiveId
      : spec.kind === "policy"
      ? policyOwner(entity)
      : typeof entity.parentId === "string"
      ? entity.parentId
      : undefined;
    this.store.put(spec.kind, entity, domainOf(spec, entity), parent);
  }

  #createPolicy(spec: KindSpec, owner: Json, at: string): void {
    const policy: Json = {
      id: crypto.randomUUID(),
      name: `${spec.kind === "domain" ? "domain" : "dataproduct"}-policy-${owner.id}`,
      version: 1,
      properties: {
        description: `Access policy of ${spec.label} '${nameOf(spec, owner)}'`,
        decisionRules: [],
        attributeRules: [],
        entity: {
          type: spec.kind === "domain" ? "BusinessDomainReference" : "DataProductReference",
          referenceName: owner.id,
        },
      },
      systemData: {
        createdAt: at,
        createdBy: EMULATOR_USER_ID,
        lastModifiedAt: at,
        lastModifiedBy: EMULATOR_USER_ID,
      },
    };
    this.store.put("policy", policy, undefined, String(owner.id));
  }

  /** Creates or replaces a policy (PUT). */
  putPolicy(id: string, body: unknown): { policy: Json; created: boolean } {
    const input = this.#input(body);
    if (!isGuid(id)) throw invalidField("policyId", `policyId '${id}' must be a GUID.`);
    if (input.id !== undefined && String(input.id).toLowerCase() !== id.toLowerCase()) {
      throw invalidField(
        "id",
        `The body's id '${String(input.id)}' differs from the id '${id}' of the path.`,
      );
    }
    const current = this.store.get("policy", id);
    if (!current && this.store.find(id)) throw conflict(`An entity with id '${id}' already exists.`, "id");
    checkFields(KINDS.policy, input);
    if (input.properties !== undefined && !isRecord(input.properties)) {
      throw invalidField("properties", "properties must be an object.");
    }
    const at = new Date(this.now()).toISOString();
    const policy: Json = {
      ...(current ?? {}),
      ...input,
      id: id.toLowerCase(),
      version: Number(current?.version ?? 0) + 1,
      systemData: {
        ...(isRecord(current?.systemData)
          ? current.systemData
          : { createdAt: at, createdBy: EMULATOR_USER_ID }),
        lastModifiedAt: at,
        lastModifiedBy: EMULATOR_USER_ID,
      },
    };
    this.store.put("policy", policy, undefined, policyOwner(policy));
    return { policy, created: !current };
  }

  #rollup(objectiveId: string): Json {
    const results = this.store.children("keyResult", objectiveId);
    const order = ["NotTracked", "OnTrack", "Behind", "AtRisk"];
    const worst = results.reduce((acc, r) => Math.max(acc, order.indexOf(String(r.status))), 0);
    const sum = (field: string) =>
      results.reduce((acc, r) => acc + (typeof r[field] === "number" ? r[field] as number : 0), 0);
    return {
      overallStatus: order[worst],
      overallProgress: sum("progress"),
      overallGoal: sum("goal"),
      overallMax: sum("max"),
      keyResultsCount: results.length,
    };
  }
}

/** The owner (domain or data product id) a policy's `properties.entity.referenceName` names. */
function policyOwner(policy: Json): string | undefined {
  const properties = isRecord(policy.properties) ? policy.properties : {};
  const entity = isRecord(properties.entity) ? properties.entity : {};
  return typeof entity.referenceName === "string" ? entity.referenceName : undefined;
}
