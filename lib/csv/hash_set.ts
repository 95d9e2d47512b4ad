/**
 * The 53-bit string hash (cyrb53) of the duplicate check, and the set its hashes are kept in: one
 * open-addressing table in a typed array (8 bytes a slot, no object per row), sized from the number of
 * rows the file is expected to hold, so a million-row file allocates it about once instead of through a
 * dozen growths whose discarded tables would wait for a full garbage collection.
 *
 * @example
 * ```ts
 * import { hash53, HashSet53 } from "./hash_set.ts";
 * const seen = new HashSet53();
 * seen.expect(1_000);
 * console.log(seen.has(hash53("a")), seen.has(hash53("a"))); // false true
 * seen.release();
 * ```
 *
 * @module
 */

/** 53-bit string hash (cyrb53): an integer from 0 to 2^53 - 1. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed, h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  return finish53(h1, h2);
}

/** The last step of {@link hash53}, for hashes computed piece by piece. */
export function finish53(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Slots of a new set: 128 KiB. */
const INITIAL_SLOTS = 16 * 1024;
/** Largest growth at once, so a wrong expectation costs a bounded factor of memory, never more. */
const MAX_GROWTH = 16;
/** The share of slots in use when the table grows (linear probing stays short below it). */
const MAX_LOAD = 0.8;
/** The share of slots in use the expected rows leave, so a slightly low estimate does not grow again. */
const EXPECTED_LOAD = 0.7;

/** Frees a typed array's memory now rather than when a full garbage collection finds it unreachable. */
function free(array: Float64Array<ArrayBuffer>): void {
  array.buffer.transfer(0);
}

/**
 * A set of 53-bit hashes in one Float64Array; 0 marks a free slot. It grows straight to the size
 * {@link HashSet53.expect} announces, at most {@link MAX_GROWTH} times at once, and frees the table it
 * leaves at once.
 */
export class HashSet53 {
  #slots = new Float64Array(INITIAL_SLOTS);
  #size = 0;
  #expected = 0;

  /** The number of hashes expected in all (an estimate: it only chooses how far the table grows). */
  expect(count: number): void {
    this.#expected = count;
  }

  /** Adds `hash`; returns true when it was already there. */
  has(hash: number): boolean {
    // 0 marks a free slot, so hash 0 shares a slot with 1: a collision at worst, which is confirmed.
    const value = hash === 0 ? 1 : hash;
    if (this.#size + 1 > this.#slots.length * MAX_LOAD) this.#grow();
    return this.#insert(this.#slots, value);
  }

  /** Frees the table; the set is empty afterwards. */
  release(): void {
    free(this.#slots);
    this.#slots = new Float64Array(INITIAL_SLOTS);
    this.#size = 0;
  }

  #insert(slots: Float64Array<ArrayBuffer>, value: number): boolean {
    const length = slots.length;
    const low = value >>> 0;
    let slot = (Math.imul(low ^ ((value - low) / 4294967296), 0x9e3779b1) >>> 0) % length;
    while (slots[slot] !== 0) {
      if (slots[slot] === value) return true;
      if (++slot === length) slot = 0;
    }
    slots[slot] = value;
    this.#size++;
    return false;
  }

  #grow(): void {
    const old = this.#slots;
    const wanted = Math.ceil(this.#expected / EXPECTED_LOAD);
    const length = Math.max(Math.ceil(old.length * 1.5), Math.min(wanted, old.length * MAX_GROWTH));
    const slots = new Float64Array(length);
    this.#size = 0;
    for (const value of old) if (value !== 0) this.#insert(slots, value);
    this.#slots = slots;
    free(old);
  }
}
