/**
 * The glossary every new Purview account has: one named `Glossary`. Clients default to it (pyapacheatlas's
 * glossary calls, the portal's term import), so a new emulator database has it too, seeded or not, and a
 * data reset (`POST /_emulator/reset?data=true`) puts it back with the rest of what a new account holds.
 * It is an ordinary glossary: it can be renamed or deleted, and a deleted one stays deleted.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { addDefaultGlossary, DEFAULT_GLOSSARY } from "./default.ts";
 * import { GlossaryStore } from "./store.ts";
 * const db = new DatabaseSync(":memory:");
 * addDefaultGlossary(db, Date.now());
 * console.log(GlossaryStore.for(db).glossaries()[0].name === DEFAULT_GLOSSARY); // true
 * db.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync } from "node:sqlite";
import { newObject } from "./model.ts";
import { GlossaryStore } from "./store.ts";

/** The name of the glossary a new account starts with. */
export const DEFAULT_GLOSSARY = "Glossary";

/** Whether the database has the glossary tables yet (false for a new database). */
export function hasGlossaryTables(db: DatabaseSync): boolean {
  const row = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'glossary_glossaries'")
    .get();
  return row !== undefined;
}

/** Stores the default glossary unless a glossary of that name exists. */
export function addDefaultGlossary(db: DatabaseSync, now: number): void {
  const store = GlossaryStore.for(db);
  if (store.glossaries().some((glossary) => glossary.name === DEFAULT_GLOSSARY)) return;
  store.putGlossary(newObject(crypto.randomUUID(), DEFAULT_GLOSSARY, now));
}
