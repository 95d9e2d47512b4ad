/**
 * A result that reports bad input: the operation ran to the end and has a report to give (`validate csv`
 * lists the problems of a file), but what it was given is wrong. Front ends show the result as usual; the
 * command line then exits 2, the code of bad input, instead of 0 (or 1, which means the service refused).
 * The mark is a symbol, so it is not part of the result's JSON and no catalog data can carry it.
 *
 * @example
 * ```ts
 * import { markBadInput, reportsBadInput } from "./bad_input.ts";
 * const result = markBadInput({ valid: false, problemCount: 2 });
 * reportsBadInput(result); // true
 * JSON.stringify(result); // '{"valid":false,"problemCount":2}'
 * ```
 *
 * @module
 */

const BAD_INPUT: unique symbol = Symbol.for("govcat.badInput");

/** Marks `result` as a report of bad input and returns it. */
export function markBadInput<T extends object>(result: T): T {
  Object.defineProperty(result, BAD_INPUT, { value: true, enumerable: false });
  return result;
}

/** True for a result {@link markBadInput} marked. */
export function reportsBadInput(result: unknown): boolean {
  return typeof result === "object" && result !== null && BAD_INPUT in result;
}
