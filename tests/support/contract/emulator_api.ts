/**
 * Helpers the contract example replay uses to talk to an emulator and to prepare what an example needs:
 * raw requests, entities created in bulk with their new guids, type definitions created when missing, and
 * the entity and type descriptions the contract's examples themselves contain.
 *
 * Every preparation step that the emulator refuses raises a {@link SetupError} naming the step, so a
 * failure says whether the example itself or its preparation went wrong.
 *
 * @module
 */
import type { Contract } from "./reference.ts";

/** A JSON object. */
export type Json = Record<string, unknown>;

/** An answer, read completely. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when empty or not JSON. */
  json: unknown;
}

/** What {@link EmulatorApi.send} sends. */
export interface SendOptions {
  query?: Record<string, string | string[]>;
  /** JSON body (serialised); `undefined` sends none. */
  body?: unknown;
  /** Multipart body instead of JSON. */
  form?: FormData;
  /** A raw body sent as is with `content-type: application/json`. */
  rawBody?: string;
}

/** A preparation step the emulator refused. */
export class SetupError extends Error {
  constructor(step: string, reply?: Reply) {
    super(
      reply
        ? `setup step failed: ${step} -> HTTP ${reply.status} ${excerpt(reply.text)}`
        : `setup step failed: ${step}`,
    );
    this.name = "SetupError";
  }
}

/** The first `max` characters of a body, for messages. */
export function excerpt(text: string, max = 1500): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Type names Atlas knows without a definition. */
const PRIMITIVES = new Set([
  "string",
  "int",
  "long",
  "short",
  "byte",
  "float",
  "double",
  "boolean",
  "date",
  "biginteger",
  "bigdecimal",
  "object",
]);

/** Where each type category goes in an `AtlasTypesDef` body. */
const BUCKETS: Record<string, string> = {
  ENUM: "enumDefs",
  STRUCT: "structDefs",
  CLASSIFICATION: "classificationDefs",
  ENTITY: "entityDefs",
  RELATIONSHIP: "relationshipDefs",
  BUSINESS_METADATA: "businessMetadataDefs",
  TERM_TEMPLATE: "termTemplateDefs",
};

/** Fields the service sets on a type definition; a create request leaves them out. */
const SERVICE_TYPE_FIELDS = [
  "guid",
  "createdBy",
  "updatedBy",
  "createTime",
  "updateTime",
  "version",
  "lastModifiedTS",
  "subTypes",
  "relationshipAttributeDefs",
];

/** A type definition and the `AtlasTypesDef` list it belongs in. */
export interface TypeDefInput {
  bucket: string;
  def: Json;
}

/** Talks to one emulator's API under a contract's prefix (`{url}/datamap/api`, `{url}/account`, ...). */
export class EmulatorApi {
  readonly base: string;
  readonly #contract: Contract;
  #placeholder = 0;

  /** The api-version sent when a request names none. */
  readonly apiVersion: string;

  constructor(emulatorUrl: string, contract: Contract, apiVersion = "2023-09-01") {
    this.base = emulatorUrl + contract.prefix;
    this.#contract = contract;
    this.apiVersion = apiVersion;
  }

  /** Sends one request and reads the whole answer. */
  async send(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const url = new URL(this.base + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
    }
    if (!url.searchParams.has("api-version")) url.searchParams.set("api-version", this.apiVersion);
    const headers: Record<string, string> = { accept: "application/json" };
    let body: BodyInit | undefined;
    if (options.form) {
      body = options.form;
    } else if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers["content-type"] = "application/json";
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === "" ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  /** Sends a preparation request; anything but 2xx raises a {@link SetupError} naming `step`. */
  async ok(step: string, method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const reply = await this.send(method, path, options);
    if (reply.status < 200 || reply.status > 299) throw new SetupError(`${step} (${method} ${path})`, reply);
    return reply;
  }

  /**
   * Creates (or updates) entities in one bulk call; returns their guids in the order given. The
   * classifications they carry are ensured to exist as classification types first (created when the
   * emulator has no such built-in), so a preparation step depends only on the entity routes.
   */
  async createEntities(entities: Json[]): Promise<string[]> {
    const classifications = entities.flatMap((e) =>
      asArray(e.classifications).map((c) => String((c as Json).typeName))
    );
    await this.ensureClassifications([...new Set(classifications)]);
    const placeholders = entities.map(() => `-${++this.#placeholder}`);
    const body = { entities: entities.map((e, i) => ({ ...e, guid: placeholders[i] })) };
    const what = entities.map((e) => `${e.typeName} ${(e.attributes as Json)?.qualifiedName}`).join(", ");
    const reply = await this.ok(`create ${what}`, "POST", "/atlas/v2/entity/bulk", { body });
    const assignments = ((reply.json as Json)?.guidAssignments ?? {}) as Record<string, string>;
    return placeholders.map((placeholder, i) => {
      const guid = assignments[placeholder];
      if (typeof guid !== "string") {
        throw new SetupError(`create ${what}: no guidAssignments entry for entity ${i} (${reply.text})`);
      }
      return guid;
    });
  }

  /** Creates one entity; returns its guid. */
  async createEntity(entity: Json): Promise<string> {
    return (await this.createEntities([entity]))[0];
  }

  /**
   * Creates the entities the contract's examples describe for these guids (see {@link describedEntity});
   * returns the new guids in the same order. `extra` adds fields (classifications, labels) to each.
   */
  createDescribed(guids: string[], preferredFile: string, extra: Json = {}): Promise<string[]> {
    return this.createEntities(
      guids.map((guid) => ({ ...describedEntity(this.#contract, guid, preferredFile), ...extra })),
    );
  }

  /** Makes sure each named classification type exists, creating a plain one when it does not. */
  async ensureClassifications(names: string[]): Promise<void> {
    for (const name of names) {
      await this.ensureTypeDef({
        bucket: "classificationDefs",
        def: { name, description: name, superTypes: [], attributeDefs: [], entityTypes: [] },
      });
    }
  }

  /** The guid of a type definition, by name. */
  async typeGuid(name: string): Promise<string> {
    const reply = await this.ok(
      `look up type ${name}`,
      "GET",
      `/atlas/v2/types/typedef/name/${encodeURIComponent(name)}`,
    );
    const guid = (reply.json as Json)?.guid;
    if (typeof guid !== "string") throw new SetupError(`look up type ${name}: no guid in ${reply.text}`);
    return guid;
  }

  /**
   * Makes sure each named type exists: kept when the emulator knows it (built in), else created from the
   * definition the contract's examples give for it, else as a minimal definition (an entity type, or an
   * enum for names containing ENUM). Types a definition refers to (super types, attribute types,
   * relationship ends, applicable entity types) are ensured first.
   */
  async ensureTypes(names: string[], seen = new Set<string>()): Promise<void> {
    for (const name of names) {
      for (const plain of typeNamesIn(name)) {
        if (PRIMITIVES.has(plain) || seen.has(plain)) continue;
        seen.add(plain);
        if (await this.#typeExists(plain)) continue;
        const input = exampleTypeDef(this.#contract, plain) ?? minimalTypeDef(plain);
        await this.#createTypeDef(input, seen);
      }
    }
  }

  /** Creates a type definition unless one of that name exists; ensures the types it refers to first. */
  async ensureTypeDef(input: TypeDefInput, seen = new Set<string>()): Promise<void> {
    const name = String(input.def.name);
    seen.add(name);
    if (await this.#typeExists(name)) return;
    await this.#createTypeDef(input, seen);
  }

  async #createTypeDef(input: TypeDefInput, seen: Set<string>): Promise<void> {
    await this.ensureTypes(referencedTypes(input.def), seen);
    await this.ok(`create ${input.bucket} ${input.def.name}`, "POST", "/atlas/v2/types/typedefs", {
      body: { [input.bucket]: [input.def] },
    });
  }

  async #typeExists(name: string): Promise<boolean> {
    const reply = await this.send("GET", `/atlas/v2/types/typedef/name/${encodeURIComponent(name)}`);
    if (reply.status === 200) return true;
    if (reply.status === 404) return false;
    throw new SetupError(`look up type ${name}`, reply);
  }
}

/** `array<map<string,x>>` → `["string", "x"]`; a plain name → itself. */
function typeNamesIn(typeName: string): string[] {
  return typeName.split(/[<>,]/).map((s) => s.trim()).filter((s) => s !== "" && s !== "array" && s !== "map");
}

function referencedTypes(def: Json): string[] {
  const names: string[] = [];
  for (const superType of asArray(def.superTypes)) names.push(String(superType));
  for (const attribute of asArray(def.attributeDefs)) {
    const attr = attribute as Json;
    if (typeof attr.typeName === "string") names.push(attr.typeName);
    const applicable = (attr.options as Json | undefined)?.applicableEntityTypes;
    if (typeof applicable === "string") {
      try {
        names.push(...asArray(JSON.parse(applicable)).map(String));
      } catch {
        // not a JSON list: nothing to ensure
      }
    }
  }
  for (const end of [def.endDef1, def.endDef2]) {
    if (end && typeof (end as Json).type === "string") names.push(String((end as Json).type));
  }
  for (const entityType of asArray(def.entityTypes)) names.push(String(entityType));
  return names.filter((n) => n !== def.name);
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A minimal definition for a type the examples only name. */
export function minimalTypeDef(name: string): TypeDefInput {
  if (/ENUM/i.test(name)) {
    return {
      bucket: "enumDefs",
      def: { name, elementDefs: [{ value: "VALUE_1", ordinal: 0 }, { value: "VALUE_2", ordinal: 1 }] },
    };
  }
  return { bucket: "entityDefs", def: { name, superTypes: [], attributeDefs: [] } };
}

/**
 * The definition of a type as the contract's Type_* examples give it (in a response or a request body),
 * without the fields the service sets, ready for `POST /types/typedefs`.
 */
export function exampleTypeDef(contract: Contract, name: string): TypeDefInput | undefined {
  const found: TypeDefInput[] = [];
  const visit = (value: unknown, bucket?: string): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, bucket));
    if (typeof value !== "object" || value === null) return;
    const object = value as Json;
    const ownBucket = typeof object.category === "string" ? BUCKETS[object.category] : bucket;
    if (object.name === name && ownBucket && (object.attributeDefs || object.elementDefs || object.endDef1)) {
      found.push({ bucket: ownBucket, def: stripTypeDef(object) });
    }
    for (const [key, child] of Object.entries(object)) {
      if (Object.values(BUCKETS).includes(key)) visit(child, key);
    }
  };
  for (const example of [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file))) {
    if (!example.operationId.startsWith("Type_")) continue;
    for (const response of Object.values(example.responses)) visit(response.body);
    visit(example.parameters.body);
  }
  return found[0];
}

function stripTypeDef(def: Json): Json {
  const copy = structuredClone(def);
  for (const field of SERVICE_TYPE_FIELDS) delete copy[field];
  return copy;
}

/**
 * The entity the contract's examples describe for a guid: an object with that guid, a `typeName` and a
 * qualified name, in some example's request or response. `preferredFile` is searched first, then the
 * Entity_* examples in name order; among several, the one with the most attributes wins. Returns a create
 * request body: type, identity attributes, classifications (by type name), labels, contacts.
 */
export function describedEntity(contract: Contract, guid: string, preferredFile: string): Json {
  const examples = [...contract.examples.values()]
    .filter((e) => e.file === preferredFile || e.operationId.startsWith("Entity_"))
    .sort((
      a,
      b,
    ) => (a.file === preferredFile ? -1 : b.file === preferredFile ? 1 : a.file.localeCompare(b.file)));
  for (const example of examples) {
    const candidates: Json[] = [];
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit);
      if (typeof value !== "object" || value === null) return;
      const object = value as Json;
      const attributes = object.attributes as Json | undefined;
      if (
        object.guid === guid && typeof object.typeName === "string" &&
        typeof attributes?.qualifiedName === "string"
      ) {
        candidates.push(object);
      }
      Object.values(object).forEach(visit);
    };
    visit(example.parameters.body);
    for (const response of Object.values(example.responses)) visit(response.body);
    if (candidates.length === 0) continue;
    const best = candidates.sort((a, b) => attributeCount(b) - attributeCount(a))[0];
    return createInput(best);
  }
  throw new SetupError(`no example describes an entity with guid ${guid}`);
}

function attributeCount(entity: Json): number {
  return Object.keys((entity.attributes ?? {}) as Json).length;
}

/**
 * Identity attributes only (qualifiedName, name, owner, description; a missing name is the last segment of
 * the qualified name): a preparation step should not fail on attributes that only the create examples
 * themselves are there to test.
 */
function createInput(entity: Json): Json {
  const source = entity.attributes as Json;
  const qualifiedName = String(source.qualifiedName);
  const attributes: Json = {
    qualifiedName,
    name: typeof source.name === "string" ? source.name : nameFromQualifiedName(qualifiedName),
  };
  for (const key of ["owner", "description"]) {
    if (typeof source[key] === "string") attributes[key] = source[key];
  }
  const input: Json = { typeName: entity.typeName, attributes };
  const classifications = asArray(entity.classifications).map((c) => ({ typeName: (c as Json).typeName }));
  const named = asArray(entity.classificationNames).map((typeName) => ({ typeName }));
  if (classifications.length + named.length > 0) {
    input.classifications = classifications.length > 0 ? classifications : named;
  }
  if (asArray(entity.labels).length > 0) input.labels = entity.labels;
  if (entity.contacts && typeof entity.contacts === "object") input.contacts = entity.contacts;
  return input;
}

/** `https://a/b/c.csv` → `c.csv`; `x#col` → `col`. */
export function nameFromQualifiedName(qualifiedName: string): string {
  return qualifiedName.replace(/[/#]+$/, "").split(/[/#]/).pop() || qualifiedName;
}
