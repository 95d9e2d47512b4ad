/**
 * Seed data: a JSON file `{"entities": [...]}` of Atlas entities with fixed guids, loaded into an empty
 * store on first use so docs and tests can rely on known entities, and optionally the other areas of a
 * catalog (collections, business metadata, glossary, unified catalog; see seed_areas.ts).
 *
 * The shipped seed is imported as JSON, so it travels with the code: from a local checkout, a URL
 * (`deno run https://…/main.ts`), the bundle and a compiled binary alike. A seed file the user names is
 * read from disk.
 *
 * @example
 * ```ts
 * import { EntityStore } from "./store.ts";
 * import { DEFAULT_SEED, seedStoreFrom } from "./seed.ts";
 * const store = EntityStore.open();
 * const added = seedStoreFrom(store, DEFAULT_SEED, "the built-in seed", Date.now());
 * console.log(added > 0);
 * store.close();
 * ```
 *
 * @module
 */
import { DEFAULT_COLLECTION_ID } from "./entity/mutation.ts";
import {
  type AtlasEntity,
  isObject,
  isPlaceholderGuid,
  newEntity,
  validateEntityInput,
} from "./entity/model.ts";
import { readSeedAreas, type SeedAreas } from "./seed_areas.ts";
import type { EntityStore } from "./store.ts";
import builtInSeed from "../../fixtures/emulator/seed.json" with { type: "json" };

/** The seed shipped with govcat (`fixtures/emulator/seed.json`). */
export const DEFAULT_SEED: unknown = builtInSeed;

/** Reads and parses a seed file; the errors name the file and what is wrong with it. */
export async function readSeedFile(file: string | URL): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new Error(`Cannot read emulator seed file ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`Emulator seed file ${file} is not valid JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Reads a seed file and writes its entities in one transaction; returns how many were written. */
export async function seedStore(store: EntityStore, file: string | URL, now: number): Promise<number> {
  return seedStoreFrom(store, await readSeedFile(file), String(file), now);
}

/**
 * Checks parsed seed data, every section, before anything is written; returns its entities ready to store
 * and its other sections (collections, glossary, unified catalog, ...) for `loadSeedAreas` (seed_areas.ts).
 */
export function readSeed(
  data: unknown,
  file: string,
  now: number,
): { entities: AtlasEntity[]; areas: SeedAreas } {
  if (!isObject(data) || !Array.isArray(data.entities)) {
    throw new Error(`Emulator seed file ${file} must hold {"entities": [...]}`);
  }
  const entities = data.entities.map((value, i) => {
    const input = validateEntityInput(value, `entities[${i}]`);
    if (typeof input.guid !== "string" || input.guid === "" || isPlaceholderGuid(input.guid)) {
      throw new Error(`Emulator seed file ${file}: entities[${i}] needs a fixed guid`);
    }
    const entity = newEntity(input, input.guid, now);
    entity.collectionId ??= DEFAULT_COLLECTION_ID;
    return entity;
  });
  const areas = readSeedAreas(data, file);
  const others = Object.keys(data).filter((key) => key !== "entities");
  if (entities.length === 0 && others.length > 0) {
    // First use is an empty entity store: without entities, every start would load the other sections again.
    throw new Error(
      `Emulator seed file ${file}: "${others.join('", "')}" need at least one entity in "entities"; the ` +
        "emulator seeds on first use only, which it tells by an empty entity store",
    );
  }
  return { entities, areas };
}

/** Writes the entities of parsed seed data in one transaction; `file` names the source in errors. */
export function seedStoreFrom(store: EntityStore, data: unknown, file: string, now: number): number {
  const { entities } = readSeed(data, file, now);
  store.transaction(() => entities.forEach((entity) => store.put(entity)));
  return entities.length;
}

/** A seed file's checked content, or the built-in sample catalog's (`seed: true`), with its name for errors. */
export async function readSeedSource(
  source: string | true,
): Promise<ReturnType<typeof readSeed> & { file: string }> {
  const file = typeof source === "string" ? source : "the built-in seed";
  const data = typeof source === "string" ? await readSeedFile(source) : DEFAULT_SEED;
  return { ...readSeed(data, file, Date.now()), file };
}
