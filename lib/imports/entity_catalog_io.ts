/**
 * How the entity CSV imports read and write the catalog: which entities exist (by type and qualified name,
 * a chunk of names per lookup), the write of a batch as one bulk upsert per collection (telling created
 * from updated by the GUIDs the service assigned), and whether a stored entity already holds a write.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { AtlasEntity, EntityMutationResult } from "../catalog/atlas_model.ts";
import { BadRequestError, NotFoundError } from "../core/errors.ts";

/** Qualified names asked for in one lookup by GUID, and at least in one by unique attribute. */
export const LOOKUP_CHUNK = 50;
/**
 * The most characters the `attr_N:qualifiedName` parameters of one unique-attribute lookup take (encoded),
 * once it has {@link LOOKUP_CHUNK} names. The names travel in the URL, and no limit of the service's is
 * published; Apache Atlas's own server takes at most 16,192 bytes of request line and headers together
 * (`atlas.jetty.request.buffer.size`), and the bearer token alone takes 1.5 to 3 KB of that. 8,000 leaves
 * room for both, and never fewer names than {@link LOOKUP_CHUNK} keeps every lookup as large as before.
 */
export const LOOKUP_QUERY_BUDGET = 8_000;
/** The most names one unique-attribute lookup carries, however short they are. */
export const LOOKUP_MAX_NAMES = 1_000;

/** Characters the parameter naming `qualifiedName` takes as the `index`th (0-based) of a lookup. */
export function lookupParameterLength(qualifiedName: string, index: number): number {
  // `&attr_<n>%3AqualifiedName=<name>`, as a query string encodes it: a lone surrogate travels as U+FFFD
  // (encodeURIComponent would throw on it), and `!'()~` as %XX, which encodeURIComponent leaves alone.
  const encoded = encodeURIComponent(qualifiedName.toWellFormed());
  return 26 + String(index + 1).length + encoded.length + 2 * (qualifiedName.match(/[!'()~]/g)?.length ?? 0);
}

/**
 * Splits `names` into the lookups that ask for them: each takes names while it has fewer than
 * {@link LOOKUP_CHUNK}, or while the next one keeps it within {@link LOOKUP_QUERY_BUDGET} and
 * {@link LOOKUP_MAX_NAMES}.
 */
export function lookupChunks(names: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = 0;
  for (const name of names) {
    let cost = lookupParameterLength(name, chunk.length);
    if (!lookupTakes(chunk.length, length, cost)) {
      chunks.push(chunk);
      chunk = [];
      length = 0;
      cost = lookupParameterLength(name, 0);
    }
    length += cost;
    chunk.push(name);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Whether a lookup holding `count` names in `length` characters takes one more costing `cost`. */
export function lookupTakes(count: number, length: number, cost: number): boolean {
  if (count < LOOKUP_CHUNK) return true;
  return count < LOOKUP_MAX_NAMES && length + cost <= LOOKUP_QUERY_BUDGET;
}

const key = (typeName: string, qualifiedName: string) => `${typeName}\u0000${qualifiedName}`;
/** The key of {@link existingKeys}' map for one type and qualified name. */
export const existingKey = key;

/** Finds which of `pairs` exist (ACTIVE) in the catalog, by unique attribute, a chunk per call. */
export async function existingKeys(
  catalog: CatalogClient,
  pairs: Array<{ typeName: string; qualifiedName: string }>,
  signal?: AbortSignal,
): Promise<Map<string, AtlasEntity>> {
  // A set per type: a lookup of a thousand names must not compare each with every other.
  const byType = new Map<string, Set<string>>();
  for (const { typeName, qualifiedName } of pairs) {
    let names = byType.get(typeName);
    if (!names) byType.set(typeName, names = new Set());
    names.add(qualifiedName);
  }
  const found = new Map<string, AtlasEntity>();
  for (const [typeName, names] of byType) {
    for (const chunk of lookupChunks([...names])) {
      const result = await catalog.entity.listByUniqueAttributes(typeName, chunk, {
        minExtInfo: true,
        ignoreRelationships: true,
        signal,
      });
      for (const entity of result.entities ?? []) {
        const qualifiedName = entity.attributes?.qualifiedName;
        if (entity.status !== "DELETED" && typeof qualifiedName === "string") {
          found.set(key(entity.typeName ?? typeName, qualifiedName), entity);
        }
      }
    }
  }
  return found;
}

/**
 * {@link existingKeys}, a type at a time: a type the catalog does not know (404 or 400) has no entities, so
 * its rows are sent and refused on their own instead of stopping the import.
 */
export async function existingKeysOfKnownTypes(
  catalog: CatalogClient,
  pairs: Array<{ typeName: string; qualifiedName: string }>,
  signal?: AbortSignal,
): Promise<Map<string, AtlasEntity>> {
  const found = new Map<string, AtlasEntity>();
  for (const typeName of new Set(pairs.map((pair) => pair.typeName))) {
    try {
      const some = await existingKeys(catalog, pairs.filter((pair) => pair.typeName === typeName), signal);
      for (const [k, entity] of some) found.set(k, entity);
    } catch (error) {
      if (!(error instanceof NotFoundError || error instanceof BadRequestError)) throw error;
    }
  }
  return found;
}

/** Whether `sorted` (in default sort order) holds `value`. */
function sortedIncludes(sorted: readonly string[], value: string): boolean {
  let low = 0, high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return sorted[low] === value;
}

/** Sends entities grouped by collection; reports which were created by the guids the service assigned. */
export async function writeEntities(
  catalog: CatalogClient,
  items: Array<{ entity: AtlasEntity; collection?: string }>,
  signal: AbortSignal,
): Promise<Array<"created" | "updated">> {
  const outcomes = new Array<"created" | "updated">(items.length);
  const groups = new Map<string | undefined, number[]>();
  items.forEach((item, i) => {
    const group = groups.get(item.collection);
    if (group) group.push(i);
    else groups.set(item.collection, [i]);
  });
  for (const [collection, indices] of groups) {
    // Placeholder guids tie each answer to its row: the service maps them in guidAssignments.
    const entities = indices.map((i) => ({ ...items[i].entity, guid: items[i].entity.guid ?? `-${i + 1}` }));
    const result: EntityMutationResult = await catalog.entity.createOrUpdateMany(entities, signal, {
      collectionId: collection,
      businessAttributeUpdateBehavior: "merge",
      // A lost answer is settled by the engine, which asks what was applied before sending again.
      idempotent: false,
    });
    // A sorted array rather than a Set: V8 puts a Set's table of a hundred entries straight into the old
    // generation, where ten thousand batches leave tens of megabytes for full collections to find.
    const created: string[] = [];
    for (const header of result.mutatedEntities?.CREATE ?? []) {
      if (header.guid !== undefined) created.push(header.guid);
    }
    created.sort();
    indices.forEach((i, k) => {
      const sent = entities[k].guid!;
      const assigned = result.guidAssignments?.[sent] ?? sent;
      outcomes[i] = sortedIncludes(created, assigned) ? "created" : "updated";
    });
  }
  return outcomes;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the stored entity already carries everything `written` would write. */
export function holds(stored: AtlasEntity, written: AtlasEntity): boolean {
  const attributes = stored.attributes ?? {};
  if (!Object.entries(written.attributes ?? {}).every(([name, value]) => same(attributes[name], value))) {
    return false;
  }
  const labels = new Set(stored.labels ?? []);
  if (!(written.labels ?? []).every((label) => labels.has(label))) return false;
  const classifications = new Set((stored.classifications ?? []).map((c) => c.typeName));
  if (!(written.classifications ?? []).every((c) => classifications.has(c.typeName))) return false;
  const business = (stored.businessAttributes ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(written.businessAttributes ?? {}).every(([group, values]) =>
    Object.entries(values as Record<string, unknown>).every(([name, value]) =>
      same(business[group]?.[name], value)
    )
  );
}
