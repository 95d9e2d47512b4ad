/**
 * An inverted index from tokens to the documents holding them, kept in the data file's `search_postings`
 * and `search_vocabulary` tables (see `tables.ts`): for each token the document slots and the
 * token's weight in each (field weight × occurrences), and the number of live documents holding it.
 * A query reads the postings of its own words, a prefix lookup walks the vocabulary's key order from the
 * prefix on. Postings read are kept in memory, up to {@link MAX_CACHED_POSTINGS} slots in all, so a
 * repeated word costs no read; a write forgets the cached postings of the tokens it touches.
 *
 * A token's postings are stored in blocks of up to {@link BLOCK_SIZE} ascending slots, as packed `Int32`
 * slots and `Float32` weights (weights are sums of halves, exact in 32 bits). A query reads a common token
 * in a few hundred rows instead of one row per document, and a write touches one block per token: a new
 * document always takes the highest slot, so it is appended to the token's last block.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { installSearchTables, NAME_FIELD } from "./tables.ts";
 * import { TermPostings } from "./postings.ts";
 * const store = EntityStore.open();
 * installSearchTables(store.database);
 * const postings = new TermPostings(store.database, NAME_FIELD);
 * postings.add(0, ["sales", "salesdb"], [3, 3]);
 * console.log(postings.withPrefix("sal")); // ["sales", "salesdb"]
 * store.close();
 * ```
 *
 * @module
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

/** Most postings one stored block holds. */
export const BLOCK_SIZE = 256;

/** Most slots the postings kept in memory hold together (8 bytes each). */
export const MAX_CACHED_POSTINGS = 4_000_000;

const MAX_CACHED_PREFIXES = 1_000;

/** The documents one token occurs in. `slots` ascend; `weights[i]` belongs to `slots[i]`. */
export interface Posting {
  slots: Int32Array;
  weights: Float32Array;
  /** Live documents holding the token. */
  documentFrequency: number;
}

interface BlockRow {
  first_slot: number;
  slots: Uint8Array;
  weights: Uint8Array;
}

/** Tokens → documents of one postings field, with prefix lookup. */
export class TermPostings {
  readonly #statements: Record<
    | "blocks"
    | "lastBlock"
    | "blockOf"
    | "insertBlock"
    | "updateBlock"
    | "deleteBlock"
    | "frequency"
    | "fromToken"
    | "count"
    | "uncount"
    | "forget",
    StatementSync
  >;
  readonly #field: number;
  #cache = new Map<string, Posting>();
  #cachedSlots = 0;
  // Prefix → its live tokens, until the next write (any write may add or retire a token).
  #prefixes = new Map<string, string[]>();

  /** The postings of `field` (`ALL_FIELDS` or `NAME_FIELD`); the tables must be installed. */
  constructor(database: DatabaseSync, field: number) {
    this.#field = field;
    const prepare = (sql: string) => database.prepare(sql);
    const block = "SELECT first_slot, slots, weights FROM search_postings WHERE field = ? AND token = ?";
    this.#statements = {
      blocks: prepare(`${block} ORDER BY first_slot`),
      lastBlock: prepare(`${block} ORDER BY first_slot DESC LIMIT 1`),
      blockOf: prepare(`${block} AND first_slot <= ? ORDER BY first_slot DESC LIMIT 1`),
      insertBlock: prepare(
        "INSERT INTO search_postings (field, token, first_slot, slots, weights) VALUES (?, ?, ?, ?, ?)",
      ),
      updateBlock: prepare(
        "UPDATE search_postings SET slots = ?, weights = ? WHERE field = ? AND token = ? AND first_slot = ?",
      ),
      deleteBlock: prepare("DELETE FROM search_postings WHERE field = ? AND token = ? AND first_slot = ?"),
      frequency: prepare("SELECT frequency FROM search_vocabulary WHERE field = ? AND token = ?"),
      fromToken: prepare(
        "SELECT token FROM search_vocabulary WHERE field = ? AND token >= ? AND frequency > 0 ORDER BY token",
      ),
      count: prepare(
        `INSERT INTO search_vocabulary (field, token, frequency) VALUES (?, ?, 1)
         ON CONFLICT (field, token) DO UPDATE SET frequency = frequency + 1`,
      ),
      uncount: prepare(
        "UPDATE search_vocabulary SET frequency = frequency - 1 WHERE field = ? AND token = ?",
      ),
      forget: prepare("DELETE FROM search_vocabulary WHERE field = ? AND token = ? AND frequency <= 0"),
    };
  }

  /**
   * Records that the document in `slot` holds `tokens` (distinct) with these weights. `slot` must be
   * higher than every slot added before (the index hands slots out in order).
   */
  add(slot: number, tokens: readonly string[], weights: readonly number[]): void {
    const s = this.#statements;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      this.#forget(token);
      const last = s.lastBlock.get(this.#field, token) as BlockRow | undefined;
      const held = last ? last.slots.byteLength / 4 : BLOCK_SIZE;
      if (!last || held >= BLOCK_SIZE) {
        s.insertBlock.run(this.#field, token, slot, packSlots([slot]), packWeights([weights[i]]));
      } else {
        const slots = [...unpackSlots(last.slots), slot];
        const blockWeights = [...unpackWeights(last.weights), weights[i]];
        s.updateBlock.run(packSlots(slots), packWeights(blockWeights), this.#field, token, last.first_slot);
      }
      s.count.run(this.#field, token);
    }
  }

  /** Records that the document in `slot`, which held `tokens`, is gone. */
  remove(slot: number, tokens: readonly string[]): void {
    const s = this.#statements;
    for (const token of tokens) {
      this.#forget(token);
      const block = s.blockOf.get(this.#field, token, slot) as BlockRow | undefined;
      if (!block) continue;
      const slots = [...unpackSlots(block.slots)];
      const at = slots.indexOf(slot);
      if (at < 0) continue;
      if (slots.length === 1) {
        s.deleteBlock.run(this.#field, token, block.first_slot);
      } else {
        const weights = [...unpackWeights(block.weights)];
        slots.splice(at, 1);
        weights.splice(at, 1);
        // The block keeps its key: it is still at or below every slot the block holds.
        s.updateBlock.run(packSlots(slots), packWeights(weights), this.#field, token, block.first_slot);
      }
      s.uncount.run(this.#field, token);
      s.forget.run(this.#field, token);
    }
  }

  /** The posting of one token, if a live document holds it. */
  get(token: string): Posting | undefined {
    const cached = this.#cache.get(token);
    if (cached) return cached;
    const blocks = this.#statements.blocks.all(this.#field, token) as unknown as BlockRow[];
    if (blocks.length === 0) return undefined;
    const total = blocks.reduce((sum, block) => sum + block.slots.byteLength / 4, 0);
    const slots = new Int32Array(total);
    const weights = new Float32Array(total);
    let at = 0;
    for (const block of blocks) {
      slots.set(unpackSlots(block.slots), at);
      weights.set(unpackWeights(block.weights), at);
      at += block.slots.byteLength / 4;
    }
    const posting = { slots, weights, documentFrequency: total };
    if (this.#cachedSlots + total > MAX_CACHED_POSTINGS) this.forgetAll();
    this.#cache.set(token, posting);
    this.#cachedSlots += total;
    return posting;
  }

  /** Drops every cached posting (after the tables were filled anew). */
  forgetAll(): void {
    this.#prefixes = new Map();
    this.#cache = new Map();
    this.#cachedSlots = 0;
  }

  /** Live documents holding `token`. */
  documentFrequency(token: string): number {
    const cached = this.#cache.get(token);
    if (cached) return cached.documentFrequency;
    const row = this.#statements.frequency.get(this.#field, token) as { frequency: number } | undefined;
    return Number(row?.frequency ?? 0);
  }

  /** Tokens starting with `prefix` that some live document holds, `prefix` itself included. */
  withPrefix(prefix: string): string[] {
    const known = this.#prefixes.get(prefix);
    if (known) return known.slice();
    const found: string[] = [];
    // The vocabulary's key order puts every token with this prefix right after it: stop at the first other.
    for (const row of this.#statements.fromToken.iterate(this.#field, prefix)) {
      const token = String((row as { token: string }).token);
      if (!token.startsWith(prefix)) break;
      found.push(token);
    }
    if (this.#prefixes.size >= MAX_CACHED_PREFIXES) this.#prefixes = new Map();
    this.#prefixes.set(prefix, found.slice());
    return found;
  }

  #forget(token: string): void {
    if (this.#prefixes.size > 0) this.#prefixes = new Map();
    const cached = this.#cache.get(token);
    if (!cached) return;
    this.#cache.delete(token);
    this.#cachedSlots -= cached.slots.length;
  }
}

/** Slots as a block stores them. */
export function packSlots(slots: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Int32Array.from(slots).buffer);
}

/** Weights as a block stores them. */
export function packWeights(weights: ArrayLike<number>): Uint8Array {
  return new Uint8Array(Float32Array.from(weights).buffer);
}

function unpackSlots(bytes: Uint8Array): Int32Array {
  return new Int32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

function unpackWeights(bytes: Uint8Array): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}
