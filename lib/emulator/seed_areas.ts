/**
 * The parts of a seed file beyond its entities: collections, business metadata definitions and values,
 * glossary categories and terms with their assigned entities, and the unified catalog (domains, terms, data
 * products, critical data elements, objectives with key results, relationships).
 *
 * {@link readSeedAreas} checks their shape and cross-references up front, naming the place of each mistake
 * (`glossary.terms[2].categories[0]`). {@link loadSeedAreas} then writes them through the emulator's own
 * routes, in process, so a seeded glossary term or domain is exactly what an API call would have made, with
 * the same checks; a refusal names the seed entry it came from.
 *
 * @example
 * ```ts
 * import { readSeedAreas } from "./seed_areas.ts";
 * const areas = readSeedAreas({ glossary: { categories: [{ name: "Sales" }], terms: [] } }, "seed.json");
 * console.log(areas.glossary?.categories.length); // 1
 * ```
 *
 * @module
 */
import { isObject } from "./entity/model.ts";
import { readJsonBody, type Router } from "./router.ts";

type Json = Record<string, unknown>;

/** The seed file's top-level sections, in the order they load. */
export const SEED_SECTIONS = [
  "entities",
  "collections",
  "businessMetadataDefs",
  "businessMetadata",
  "glossary",
  "unifiedCatalog",
] as const;

/** The unified catalog lists a seed may hold, each with the API path it is created under. */
const UNIFIED_LISTS = {
  domains: "businessdomains",
  terms: "terms",
  dataProducts: "dataProducts",
  criticalDataElements: "criticalDataElements",
  objectives: "objectives",
} as const;
type UnifiedList = keyof typeof UNIFIED_LISTS;

/** Where a relationship of the unified catalog may start (`from`): the kinds that have relationships. */
const RELATIONSHIP_SOURCES = ["terms", "dataProducts", "criticalDataElements"] as const;

/** A glossary term of the seed: an Atlas term body plus its category names and assigned entity guids. */
export interface SeedGlossaryTerm {
  body: Json;
  categories: string[];
  assignedEntities: string[];
}

/** The checked sections of a seed file other than its entities. */
export interface SeedAreas {
  collections: Json[];
  businessMetadataDefs: Json[];
  businessMetadata: Array<{ guid: string; values: Json }>;
  /** A glossary (the account's default `Glossary` unless named), created when the account lacks it. */
  glossary?: { name: string; body: Json; categories: Json[]; terms: SeedGlossaryTerm[] };
  unifiedCatalog?: Record<UnifiedList, Json[]> & { relationships: Json[] };
}

/** Checks the sections beyond `entities`; throws an error naming the file and the faulty entry. */
export function readSeedAreas(data: Json, file: string): SeedAreas {
  const fail = (where: string, what: string): never => {
    throw new Error(`Emulator seed file ${file}: ${where} ${what}`);
  };
  for (const key of Object.keys(data)) {
    if (!(SEED_SECTIONS as readonly string[]).includes(key)) {
      fail(`"${key}"`, `is not a seed section; the sections are ${SEED_SECTIONS.join(", ")}`);
    }
  }
  const list = (value: unknown, where: string): Json[] => {
    if (value === undefined) return [];
    if (!Array.isArray(value)) return fail(where, "must be an array");
    return value.map((item, i) => isObject(item) ? item : fail(`${where}[${i}]`, "must be an object"));
  };
  const text = (item: Json, field: string, where: string): string => {
    const value = item[field];
    return typeof value === "string" && value !== ""
      ? value
      : fail(`${where}.${field}`, "must be a non-empty string");
  };
  const texts = (item: Json, field: string, where: string): string[] => {
    const value = item[field] ?? [];
    if (!Array.isArray(value)) return fail(`${where}.${field}`, "must be an array of strings");
    return value.map((v, i) =>
      typeof v === "string" && v !== "" ? v : fail(`${where}.${field}[${i}]`, "must be a non-empty string")
    );
  };

  const collections = list(data.collections, "collections");
  collections.forEach((c, i) => ["name", "parentCollection"].forEach((f) => text(c, f, `collections[${i}]`)));
  const businessMetadataDefs = list(data.businessMetadataDefs, "businessMetadataDefs");
  businessMetadataDefs.forEach((def, i) => text(def, "name", `businessMetadataDefs[${i}]`));
  const businessMetadata = list(data.businessMetadata, "businessMetadata").map((entry, i) => {
    const where = `businessMetadata[${i}]`;
    const values = isObject(entry.values)
      ? entry.values
      : fail(`${where}.values`, 'must be {"<definition>": {...}}');
    return { guid: text(entry, "guid", where), values };
  });
  return {
    collections,
    businessMetadataDefs,
    businessMetadata,
    glossary: data.glossary === undefined
      ? undefined
      : readGlossary(data.glossary, { fail, list, text, texts }),
    unifiedCatalog: data.unifiedCatalog === undefined
      ? undefined
      : readUnified(data.unifiedCatalog, { fail, list, text, texts }),
  };
}

interface Readers {
  fail(where: string, what: string): never;
  list(value: unknown, where: string): Json[];
  text(item: Json, field: string, where: string): string;
  texts(item: Json, field: string, where: string): string[];
}

function readGlossary(value: unknown, { fail, list, text, texts }: Readers): SeedAreas["glossary"] {
  if (!isObject(value)) return fail("glossary", 'must be {"categories": [...], "terms": [...]}');
  const name = value.name === undefined ? "Glossary" : text(value, "name", "glossary");
  const categories = list(value.categories, "glossary.categories");
  const categoryNames = new Set(categories.map((c, i) => text(c, "name", `glossary.categories[${i}]`)));
  const terms = list(value.terms, "glossary.terms").map((term, i) => {
    const where = `glossary.terms[${i}]`;
    text(term, "name", where);
    const names = texts(term, "categories", where);
    names.forEach((category, j) => {
      if (!categoryNames.has(category)) {
        fail(`${where}.categories[${j}]`, `names '${category}', which glossary.categories does not define`);
      }
    });
    const { categories: _c, assignedEntities: _a, ...body } = term;
    return { body, categories: names, assignedEntities: texts(term, "assignedEntities", where) };
  });
  const { categories: _categories, terms: _terms, ...body } = value;
  return { name, body: { ...body, name }, categories, terms };
}

function readUnified(value: unknown, { fail, list, text }: Readers): SeedAreas["unifiedCatalog"] {
  if (!isObject(value)) return fail("unifiedCatalog", `must be an object with ${Object.keys(UNIFIED_LISTS)}`);
  const allowed = [...Object.keys(UNIFIED_LISTS), "relationships"];
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      fail(`unifiedCatalog.${key}`, `is not a list; the lists are ${allowed.join(", ")}`);
    }
  }
  const lists = Object.fromEntries(
    Object.keys(UNIFIED_LISTS).map((key) => [key, list(value[key], `unifiedCatalog.${key}`)]),
  ) as Record<UnifiedList, Json[]>;
  lists.objectives.forEach((objective, i) =>
    list(objective.keyResults, `unifiedCatalog.objectives[${i}].keyResults`)
  );
  const relationships = list(value.relationships, "unifiedCatalog.relationships");
  relationships.forEach((relationship, i) => {
    const where = `unifiedCatalog.relationships[${i}]`;
    const from = text(relationship, "from", where);
    if (!(RELATIONSHIP_SOURCES as readonly string[]).includes(from)) {
      fail(`${where}.from`, `'${from}' is not one of ${RELATIONSHIP_SOURCES.join(", ")}`);
    }
    ["id", "entityType", "entityId"].forEach((field) => text(relationship, field, where));
  });
  return { ...lists, relationships };
}

/** Writes the sections through `router` (the emulator's API routes), in load order. */
export async function loadSeedAreas(router: Router, areas: SeedAreas, file: string): Promise<void> {
  const send = (method: string, path: string, body: unknown, where: string) =>
    sendSeedRequest(router, { method, path, body, where, file });
  for (const [i, collection] of areas.collections.entries()) {
    const { name, parentCollection, ...rest } = collection;
    const body = { ...rest, parentCollection: { referenceName: parentCollection } };
    await send(
      "PUT",
      `/account/collections/${name}?api-version=2019-11-01-preview`,
      body,
      `collections[${i}]`,
    );
  }
  if (areas.businessMetadataDefs.length > 0) {
    const body = { businessMetadataDefs: areas.businessMetadataDefs };
    await send("POST", `${ATLAS}/types/typedefs`, body, "businessMetadataDefs");
  }
  for (const [i, { guid, values }] of areas.businessMetadata.entries()) {
    await send("POST", `${ATLAS}/entity/guid/${guid}/businessmetadata`, values, `businessMetadata[${i}]`);
  }
  if (areas.glossary) await loadGlossary(areas.glossary, send);
  if (areas.unifiedCatalog) await loadUnified(areas.unifiedCatalog, send);
}

const ATLAS = "/datamap/api/atlas/v2";
const UNIFIED = "/datagovernance/catalog";
type Send = (method: string, path: string, body: unknown, where: string) => Promise<unknown>;

async function loadGlossary(glossary: NonNullable<SeedAreas["glossary"]>, send: Send): Promise<void> {
  const existing = (await send("GET", `${ATLAS}/glossary`, undefined, "glossary")) as Json[];
  const found = existing.find((g) => g.name === glossary.name);
  const glossaryGuid = String(
    found?.guid ??
      ((await send("POST", `${ATLAS}/glossary`, glossary.body, "glossary")) as Json).guid,
  );
  const anchor = { glossaryGuid };
  const categoryGuids = new Map<string, string>();
  for (const [i, category] of glossary.categories.entries()) {
    const created = await send(
      "POST",
      `${ATLAS}/glossary/category`,
      { ...category, anchor },
      `glossary.categories[${i}]`,
    );
    categoryGuids.set(String(category.name), String((created as Json).guid));
  }
  for (const [i, term] of glossary.terms.entries()) {
    const categories = term.categories.map((name) => ({ categoryGuid: categoryGuids.get(name) }));
    const where = `glossary.terms[${i}]`;
    const created = await send("POST", `${ATLAS}/glossary/term`, { ...term.body, anchor, categories }, where);
    if (term.assignedEntities.length === 0) continue;
    const guid = String((created as Json).guid);
    const assigned = term.assignedEntities.map((entityGuid) => ({ guid: entityGuid }));
    await send(
      "POST",
      `${ATLAS}/glossary/terms/${guid}/assignedEntities`,
      assigned,
      `${where}.assignedEntities`,
    );
  }
}

async function loadUnified(catalog: NonNullable<SeedAreas["unifiedCatalog"]>, send: Send): Promise<void> {
  for (const key of Object.keys(UNIFIED_LISTS) as UnifiedList[]) {
    for (const [i, item] of catalog[key].entries()) {
      const where = `unifiedCatalog.${key}[${i}]`;
      const { keyResults, ...body } = item;
      const created = (await send("POST", `${UNIFIED}/${UNIFIED_LISTS[key]}`, body, where)) as Json;
      for (const [j, keyResult] of ((keyResults as Json[] | undefined) ?? []).entries()) {
        const path = `${UNIFIED}/objectives/${created.id}/keyResults`;
        await send("POST", path, { domainId: body.domain, ...keyResult }, `${where}.keyResults[${j}]`);
      }
    }
  }
  for (const [i, relationship] of catalog.relationships.entries()) {
    const { from, id, entityType, ...body } = relationship;
    const path = `${UNIFIED}/${from}/${id}/relationships?entityType=${entityType}`;
    await send("POST", path, body, `unifiedCatalog.relationships[${i}]`);
  }
}

/** One request to the emulator's routes, in process; a refusal becomes an error naming the seed entry. */
async function sendSeedRequest(
  router: Router,
  request: { method: string; path: string; body: unknown; where: string; file: string },
): Promise<unknown> {
  const url = new URL(request.path, "http://seed.invalid");
  const init: RequestInit = { method: request.method, headers: { "content-type": "application/json" } };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  const incoming = new Request(url, init);
  const match = router.match(request.method, url.pathname);
  if (match.kind !== "found") throw new Error(`seed: no route for ${request.method} ${url.pathname}`);
  let response: Response;
  try {
    response = await match.handler({
      request: incoming,
      url,
      params: match.params,
      requestId: "seed",
      readJson: () => readJsonBody(incoming),
    });
  } catch (error) {
    throw new Error(
      `Emulator seed file ${request.file}: ${request.where} was refused: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const text = await response.text();
  if (!response.ok) {
    throw new Error(
      `Emulator seed file ${request.file}: ${request.where} was refused (${response.status}): ${text}`,
    );
  }
  return text === "" ? undefined : JSON.parse(text);
}
