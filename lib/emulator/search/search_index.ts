/**
 * The emulator's search index: every ACTIVE entity, and every glossary and term of the glossary API (see
 * `glossary.ts`), as a {@link SearchDocument} in a numbered slot, and two inverted indexes over the
 * slots — one over every searchable field, weighted by field, for queries; one over names only, for
 * suggest and autocomplete.
 *
 * The index lives in the data file (see `tables.ts`) and follows the store through
 * {@link StoreChangeFeed}: {@link SearchIndex.refresh}, called at the start of every search, drains the
 * trigger-fed log of changed guids and re-indexes just those records (a changed record moves to a new
 * slot; a deleted one leaves the tables). Every write through any route, or by another program while the
 * emulator was down, is therefore visible to the next search, and a search with nothing to catch up costs
 * one `SELECT count(*)` on an empty table. A restart reads nothing up front: queries read the postings of
 * their words and the documents they return. A data file without the tables (written by an older govcat)
 * is indexed once, on its first search, as is a large batch of changes (a seed, a bulk load, a reset).
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { SearchIndex } from "./search_index.ts";
 * const store = EntityStore.open();
 * const index = SearchIndex.of(store).refresh();
 * console.log(index.size); // 0
 * store.close();
 * ```
 *
 * @module
 */
import type { StatementSync } from "node:sqlite";
import { GlossaryStore } from "../glossary/store.ts";
import { type StoreChange, StoreChangeFeed } from "./changes.ts";
import type { ContainerReference, SearchDocument } from "./document.ts";
import { glossaryDocument, termDocument } from "./glossary.ts";
import { TermPostings } from "./postings.ts";
import { ALL_FIELDS, installSearchTables, markSearchTablesComplete, NAME_FIELD } from "./tables.ts";
import type { EntityStore } from "../store.ts";
import { SearchIndexBuild } from "./index_build.ts";
import type { AtlasEntity } from "../entity/model.ts";
import {
  documentColumns,
  type IndexedDocument,
  indexedEntity,
  nameTokensOf,
  weightedTokens,
} from "./indexed_document.ts";

/** One live document of the index, read from the data file. */
export interface IndexEntry {
  slot: number;
  document: SearchDocument;
  /** The name in lower case: the tie-breaker of every ordering. */
  nameKey: string;
  /** What the entity names as its container (see `containerReferences`); empty for glossary records. */
  containers: ContainerReference[];
}

/** An entity's place in the containment tree: what browse needs to build it. */
export interface AssetOutline {
  slot: number;
  name: string;
  qualifiedName: string;
  entityType: string;
  containers: ContainerReference[];
}

// Above this many changes since the last search, re-reading every entity beats one lookup per guid.
const MIN_CHANGES_FOR_REBUILD = 2000;
// Documents read by slot are kept, the least recently used dropped first, up to this many (about 1 kB
// each): the few thousand hits of a query and the pages of browse are read once, and a catalog of any size
// keeps no more than this in memory.
const MAX_CACHED_ENTRIES = 25_000;

const indexes = new WeakMap<EntityStore, SearchIndex>();

interface DocumentRow {
  slot: number;
  name_key: string;
  document: string;
  containers: string | null;
}

/** The inverted index over one store's entities. */
export class SearchIndex {
  readonly #store: EntityStore;
  #tables: IndexTables | undefined;
  #feed: StoreChangeFeed | undefined;
  #size = 0;
  #generation = 0;
  #cache = new Map<number, IndexEntry>();

  private constructor(store: EntityStore) {
    this.#store = store;
  }

  /** The index of `store`, opened (and built when the data file has none) on the first refresh. */
  static of(store: EntityStore): SearchIndex {
    let index = indexes.get(store);
    if (!index) {
      index = new SearchIndex(store);
      indexes.set(store, index);
    }
    return index;
  }

  /** Tokens of every searchable field, weighted by `FIELD_WEIGHTS`. */
  get tokens(): TermPostings {
    return this.#open().tokens;
  }

  /** Tokens of names only (suggest, autocomplete). */
  get nameTokens(): TermPostings {
    return this.#open().nameTokens;
  }

  /** Number of live documents (ACTIVE entities, glossaries and terms). */
  get size(): number {
    this.#open();
    return this.#size;
  }

  /** Changes whenever the indexed content does; derived data (browse paths) is cached per generation. */
  get generation(): number {
    return this.#generation;
  }

  /** The live document in `slot`, if any. */
  entry(slot: number): IndexEntry | undefined {
    const cached = this.#cache.get(slot);
    if (cached) {
      // Map order is use order: the first key is the least recently used.
      this.#cache.delete(slot);
      this.#cache.set(slot, cached);
      return cached;
    }
    const row = this.#open().statements.bySlot.get(slot) as DocumentRow | undefined;
    return row && this.#remember(row);
  }

  /** Every live document, in slot order, read as the caller walks them (nothing is kept). */
  *entries(): Generator<IndexEntry> {
    for (const row of this.#open().statements.all.iterate()) {
      yield this.#cache.get((row as unknown as DocumentRow).slot) ??
        this.#entryOf(row as unknown as DocumentRow);
    }
  }

  /**
   * What browse's tree needs of every live entity (not glossary records), in slot order, read as the caller
   * walks them: SQLite picks the fields out of each stored document, so no document is parsed here.
   */
  *assetOutlines(): Generator<AssetOutline> {
    for (const row of this.#open().statements.outlines.iterate()) yield outlineOf(row);
  }

  /** The outline of the entity in `slot`; undefined for a glossary record or an empty slot. */
  assetOutline(slot: number): AssetOutline | undefined {
    const row = this.#open().statements.outline.get(slot);
    return row && outlineOf(row);
  }

  /** Slots of documents of this entity type (any case), in slot order. */
  slotsOfType(entityType: string): number[] {
    const rows = this.#open().statements.ofType.all(entityType.toLowerCase()) as Array<{ slot: number }>;
    return rows.map((row) => Number(row.slot));
  }

  /** The slot of a live document (an ACTIVE entity, a glossary or a term). */
  slotOf(guid: string): number | undefined {
    const row = this.#open().statements.slotOfGuid.get(guid) as { slot: number } | undefined;
    return row === undefined ? undefined : Number(row.slot);
  }

  /** The live document of an entity (if it is ACTIVE), glossary or term. */
  byGuid(guid: string): IndexEntry | undefined {
    const slot = this.slotOf(guid);
    return slot === undefined ? undefined : this.entry(slot);
  }

  /** Catches up with every write since the last call, this process's or another's. */
  refresh(): this {
    const tables = this.#open();
    const feed = this.#feed!;
    if (feed.pending() === 0) return this;
    this.#inTransaction(() => {
      const changed = feed.take(Math.max(MIN_CHANGES_FOR_REBUILD, this.#size >> 3));
      if (changed === undefined) this.#rebuild(tables);
      else this.#apply(tables, changed);
    });
    return this;
  }

  #open(): IndexTables {
    if (this.#tables) return this.#tables;
    const database = this.#store.database;
    this.#inTransaction(() => {
      const complete = installSearchTables(database);
      this.#tables = new IndexTables(this.#store);
      this.#feed = new StoreChangeFeed(database);
      if (!complete) {
        this.#feed.take(0);
        this.#rebuild(this.#tables);
        markSearchTablesComplete(database);
      }
    });
    this.#size = this.#tables!.count();
    return this.#tables!;
  }

  // Writes of the index are one transaction (nested in the caller's, if any): all of a catch-up or none.
  #inTransaction(work: () => void): void {
    const database = this.#store.database;
    database.exec("SAVEPOINT search_index");
    try {
      work();
      database.exec("RELEASE search_index");
    } catch (error) {
      database.exec("ROLLBACK TO search_index");
      database.exec("RELEASE search_index");
      this.#tables = undefined;
      throw error;
    }
  }

  #rebuild(tables: IndexTables): void {
    const build = new SearchIndexBuild(this.#store.database);
    for (const entity of this.#store.iterateActive()) build.add(indexedEntity(entity));
    const glossaries = GlossaryStore.for(this.#store.database);
    const names = new Map<string, string>();
    for (const glossary of glossaries.glossaries()) {
      names.set(glossary.guid, glossary.name);
      build.add({ document: glossaryDocument(glossary), containers: undefined });
    }
    for (const term of glossaries.allTerms()) {
      build.add({ document: termDocument(term, names.get(term.glossaryGuid) ?? ""), containers: undefined });
    }
    build.finish();
    tables.tokens.forgetAll();
    tables.nameTokens.forgetAll();
    this.#size = tables.count();
    this.#changed();
  }

  #apply(tables: IndexTables, changed: StoreChange[]): void {
    if (changed.length === 0) return;
    const glossaries = GlossaryStore.for(this.#store.database);
    for (const change of changed) {
      if (tables.remove(change.guid)) this.#size -= 1;
      const indexed = indexedChange(this.#store, glossaries, change);
      if (indexed) {
        tables.add(indexed);
        this.#size += 1;
      }
    }
    this.#changed();
  }

  #changed(): void {
    this.#generation += 1;
    this.#cache = new Map();
  }

  #remember(row: DocumentRow): IndexEntry {
    if (this.#cache.size >= MAX_CACHED_ENTRIES) this.#cache.delete(this.#cache.keys().next().value!);
    const entry = this.#entryOf(row);
    this.#cache.set(entry.slot, entry);
    return entry;
  }

  #entryOf(row: DocumentRow): IndexEntry {
    const document = JSON.parse(row.document) as SearchDocument;
    if (!document.glossaryRecord) {
      // The stored entity is read only by the rare filter on one of its attributes.
      const store = this.#store;
      let entity: AtlasEntity | undefined;
      Object.defineProperty(document, "entity", {
        get: () => (entity ??= store.get(document.id) ?? stub(document)),
        enumerable: false,
      });
    }
    return {
      slot: Number(row.slot),
      document,
      nameKey: row.name_key,
      containers: row.containers === null ? [] : JSON.parse(row.containers),
    };
  }
}

const OUTLINE = `SELECT slot, document ->> '$.name' AS name, document ->> '$.qualifiedName' AS qualifiedName,
    document ->> '$.entityType' AS entityType, containers
  FROM search_documents WHERE coalesce(document ->> '$.glossaryRecord', 0) = 0`;

function outlineOf(row: unknown): AssetOutline {
  const outline = row as AssetOutline & { containers: string | null };
  return {
    slot: Number(outline.slot),
    name: String(outline.name),
    qualifiedName: String(outline.qualifiedName),
    entityType: String(outline.entityType),
    containers: outline.containers === null ? [] : JSON.parse(outline.containers),
  };
}

/** The statements over the index tables of one store. */
class IndexTables {
  readonly tokens: TermPostings;
  readonly nameTokens: TermPostings;
  readonly statements: Record<
    | "bySlot"
    | "all"
    | "outlines"
    | "outline"
    | "ofType"
    | "slotOfGuid"
    | "count"
    | "documentOfGuid"
    | "insert"
    | "delete",
    StatementSync
  >;

  constructor(store: EntityStore) {
    const database = store.database;
    this.tokens = new TermPostings(database, ALL_FIELDS);
    this.nameTokens = new TermPostings(database, NAME_FIELD);
    const columns = "slot, name_key, document, containers";
    this.statements = {
      bySlot: database.prepare(`SELECT ${columns} FROM search_documents WHERE slot = ?`),
      all: database.prepare(`SELECT ${columns} FROM search_documents ORDER BY slot`),
      outlines: database.prepare(`${OUTLINE} ORDER BY slot`),
      outline: database.prepare(`${OUTLINE} AND slot = ?`),
      ofType: database.prepare("SELECT slot FROM search_documents WHERE type_key = ? ORDER BY slot"),
      slotOfGuid: database.prepare("SELECT slot FROM search_documents WHERE guid = ?"),
      count: database.prepare("SELECT count(*) AS n FROM search_documents"),
      documentOfGuid: database.prepare("SELECT slot, document FROM search_documents WHERE guid = ?"),
      insert: database.prepare(
        `INSERT INTO search_documents (guid, type_key, name_key, document, containers)
         VALUES (?, ?, ?, ?, ?) RETURNING slot`,
      ),
      delete: database.prepare("DELETE FROM search_documents WHERE slot = ?"),
    };
  }

  count(): number {
    return Number((this.statements.count.get() as { n: number }).n);
  }

  add(indexed: IndexedDocument): void {
    const row = this.statements.insert.get(...documentColumns(indexed)) as { slot: number };
    const slot = Number(row.slot);
    const weighted = weightedTokens(indexed.document);
    this.tokens.add(slot, [...weighted.keys()], [...weighted.values()]);
    const names = nameTokensOf(indexed.document);
    this.nameTokens.add(slot, names, names.map(() => 1));
  }

  /** Takes the document of `guid` out of the index; false when it had none. */
  remove(guid: string): boolean {
    const row = this.statements.documentOfGuid.get(guid) as { slot: number; document: string } | undefined;
    if (!row) return false;
    const slot = Number(row.slot);
    const document = JSON.parse(row.document) as SearchDocument;
    this.tokens.remove(slot, [...weightedTokens(document).keys()]);
    this.nameTokens.remove(slot, nameTokensOf(document));
    this.statements.delete.run(slot);
    return true;
  }
}

/** The current document of a changed record; undefined when it is gone (or a soft-deleted entity). */
function indexedChange(
  store: EntityStore,
  glossaries: GlossaryStore,
  change: StoreChange,
): IndexedDocument | undefined {
  if (change.kind === "entity") {
    const entity = store.get(change.guid);
    return entity && entity.status !== "DELETED" ? indexedEntity(entity) : undefined;
  }
  if (change.kind === "glossary") {
    const glossary = glossaries.glossary(change.guid);
    return glossary && { document: glossaryDocument(glossary), containers: undefined };
  }
  const term = glossaries.term(change.guid);
  if (!term) return undefined;
  const glossaryName = glossaries.glossary(term.glossaryGuid)?.name ?? "";
  return { document: termDocument(term, glossaryName), containers: undefined };
}

// An entity purged between the refresh and the read: its search fields, no attributes.
function stub(document: SearchDocument): AtlasEntity {
  return {
    guid: document.id,
    typeName: document.entityType,
    attributes: { qualifiedName: document.qualifiedName },
  } as AtlasEntity;
}
