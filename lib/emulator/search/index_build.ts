/**
 * Fills the search index tables from scratch in one pass (a data file without an index, a seed, a bulk
 * load, a reset). Documents go straight to `search_documents`; postings are gathered in memory for a chunk
 * of {@link CHUNK_DOCUMENTS} documents and then written token by token, in key order, as whole blocks —
 * far cheaper for SQLite than one block update per token per document, and memory stays bounded by the
 * chunk however large the catalog. Each chunk's slots are above the previous chunk's, so its blocks follow
 * theirs. The caller holds the transaction.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { installSearchTables } from "./tables.ts";
 * import { SearchIndexBuild } from "./index_build.ts";
 * const store = EntityStore.open();
 * installSearchTables(store.database);
 * new SearchIndexBuild(store.database).finish(); // an empty index
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { documentColumns, type IndexedDocument, nameTokensOf, weightedTokens } from "./indexed_document.ts";
import { BLOCK_SIZE, packSlots, packWeights } from "./postings.ts";
import { ALL_FIELDS, NAME_FIELD } from "./tables.ts";

/** Documents whose postings are gathered before they are written. */
export const CHUNK_DOCUMENTS = 20_000;

interface Gathered {
  slots: number[];
  weights: number[];
}

/** One build of the index tables; {@link SearchIndexBuild.finish} completes it. */
export class SearchIndexBuild {
  readonly #insertDocument: StatementSync;
  readonly #insertBlock: StatementSync;
  readonly #count: StatementSync;
  #chunk: Array<Map<string, Gathered>> = [new Map(), new Map()];
  #documents = 0;

  /** Empties the index tables. */
  constructor(database: DatabaseSync) {
    for (const table of ["search_documents", "search_postings", "search_vocabulary"]) {
      database.exec(`DELETE FROM ${table}`);
    }
    this.#insertDocument = database.prepare(
      `INSERT INTO search_documents (guid, type_key, name_key, document, containers)
       VALUES (?, ?, ?, ?, ?) RETURNING slot`,
    );
    this.#insertBlock = database.prepare(
      "INSERT INTO search_postings (field, token, first_slot, slots, weights) VALUES (?, ?, ?, ?, ?)",
    );
    this.#count = database.prepare(
      `INSERT INTO search_vocabulary (field, token, frequency) VALUES (?, ?, ?)
       ON CONFLICT (field, token) DO UPDATE SET frequency = frequency + excluded.frequency`,
    );
  }

  /** Adds one document. */
  add(indexed: IndexedDocument): void {
    const slot = Number((this.#insertDocument.get(...documentColumns(indexed)) as { slot: number }).slot);
    for (const [token, weight] of weightedTokens(indexed.document)) {
      this.#gather(ALL_FIELDS, token, slot, weight);
    }
    for (const token of nameTokensOf(indexed.document)) this.#gather(NAME_FIELD, token, slot, 1);
    if (++this.#documents % CHUNK_DOCUMENTS === 0) this.#flush();
  }

  /** Writes what is still gathered. */
  finish(): void {
    this.#flush();
  }

  #gather(field: number, token: string, slot: number, weight: number): void {
    const tokens = this.#chunk[field];
    const gathered = tokens.get(token);
    if (gathered) {
      gathered.slots.push(slot);
      gathered.weights.push(weight);
    } else {
      tokens.set(token, { slots: [slot], weights: [weight] });
    }
  }

  #flush(): void {
    for (const field of [ALL_FIELDS, NAME_FIELD]) {
      const tokens = this.#chunk[field];
      for (const token of [...tokens.keys()].sort()) {
        const { slots, weights } = tokens.get(token)!;
        for (let at = 0; at < slots.length; at += BLOCK_SIZE) {
          const blockSlots = slots.slice(at, at + BLOCK_SIZE);
          this.#insertBlock.run(
            field,
            token,
            blockSlots[0],
            packSlots(blockSlots),
            packWeights(weights.slice(at, at + BLOCK_SIZE)),
          );
        }
        this.#count.run(field, token, slots.length);
      }
    }
    this.#chunk = [new Map(), new Map()];
  }
}
