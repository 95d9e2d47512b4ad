/**
 * Objects the bulk engine makes for every row, made so that V8 always allocates them in the young
 * generation. V8 tracks object and array literals (`{ line, cells }`, `[]`, also an empty `[]`) by the
 * site that allocates them, and when most of a site's objects outlive a young collection it allocates all
 * the later ones straight into the old generation ("allocation-site pretenuring": Clifford et al.,
 * "Memento Mori: Dynamic Allocation-Site-Based Optimizations", ISMM 2015). For rows that is a bad bet: one
 * unlucky collection (during start-up, or a full one while a batch is held) flips the site, and from then
 * on every row, dead at once, waits in the old generation for a full collection and keeps its young cells
 * alive through each young one (in a million-row import, the heap doubled). An empty object literal
 * (assigned afterwards) and `Array.of` have no allocation site, so V8 never makes that decision for them.
 * Nor does it learn what such an array holds: one filled an element at a time changes kind on its first
 * push, so arrays of every row are better copied out at their size (`slice`), as the tokenizer's cells are.
 *
 * @example
 * ```ts
 * import { emptyArray, rowOf } from "./fresh.ts";
 * const cells = emptyArray<string>();
 * cells.push("a", "b");
 * console.log(rowOf(2, cells)); // { line: 2, cells: ["a", "b"] }
 * ```
 *
 * @module
 */
import type { CsvRow } from "./types.ts";

/** An empty array of no allocation site. */
export function emptyArray<T>(): T[] {
  return Array.of<T>();
}

/** A row read from a file ({@link CsvRow}) of no allocation site. */
export function rowOf(line: number, cells: string[]): CsvRow {
  const row = {} as CsvRow;
  row.line = line;
  row.cells = cells;
  return row;
}
