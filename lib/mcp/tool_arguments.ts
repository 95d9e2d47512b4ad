/**
 * Refusal of arguments a tool does not take. A model that misspells an argument (`guid` for
 * `entity_guid`, `glossary-guid` for `glossaryGuid`) would otherwise have it dropped without a word and
 * get a result for a call it did not mean; the command line refuses unknown options the same way.
 *
 * @example
 * ```ts
 * import { unknownArgumentsProblem } from "./tool_arguments.ts";
 * unknownArgumentsProblem(["entity_guid"], { entity_guid: "g", gui: "x" }, "get_entity");
 * // 'get_entity takes no argument "gui". Its arguments: entity_guid.'
 * ```
 *
 * @module
 */
import { didYouMean } from "../core/suggest.ts";

/**
 * What is wrong when `args` holds keys outside `known`, naming each with a suggestion and the arguments
 * `where` does take; undefined when every key is known.
 */
export function unknownArgumentsProblem(
  known: Iterable<string>,
  args: Record<string, unknown>,
  where: string,
): string | undefined {
  const names = [...known];
  const accepted = new Set(names);
  const unknown = Object.keys(args).filter((key) => !accepted.has(key));
  if (unknown.length === 0) return undefined;
  const each = unknown.map((key) =>
    `"${key}"${didYouMean(key, names).replace(/^ Did you mean (.*)\?$/, " (did you mean $1?)")}`
  );
  const takes = names.length > 0 ? `Its arguments: ${names.join(", ")}.` : "It takes no arguments.";
  return `${where} takes no argument${unknown.length > 1 ? "s" : ""} ${each.join(", ")}. ${takes}`;
}
