/**
 * Counts in messages people read: `1 row`, `2 rows`, `0 rows`.
 *
 * @example
 * ```ts
 * import { counted } from "./plural.ts";
 * counted(1, "row"); // "1 row"
 * counted(3, "batch", "batches"); // "3 batches"
 * ```
 *
 * @module
 */

/** `count` and the noun that goes with it: `singular` for exactly one, else `plural` (`singular` + s). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
