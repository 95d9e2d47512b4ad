/**
 * What the `glossary` commands share: their option schemas (GUIDs, paging, term fields) and the reading of
 * payload files (`--payload-file`) into glossary objects, with command-line options laid over the file.
 *
 * @example
 * ```ts
 * import { withOptions } from "./glossary_inputs.ts";
 * withOptions({ name: "a" }, { name: undefined, longDescription: "b" }); // { name: "a", longDescription: "b" }
 * ```
 *
 * @module
 */
import { TERM_STATUSES } from "../catalog/glossary_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import type { OperationContext } from "./types.ts";
import { guidField } from "./guid_fields.ts";

export const glossaryGuid = guidField("GUID of the glossary");
export const categoryGuid = guidField("GUID of the category");
export const termGuid = guidField("GUID of the term");

/** `--limit`, `--offset`, `--sort` of list commands. */
export const paging = {
  limit: z.number().int().min(-1).optional().describe("Page size; -1 or none for everything"),
  offset: z.number().int().min(0).optional().describe("Items to skip, for paging"),
  sort: z.enum(["ASC", "DESC"]).optional().describe("Order by name: ASC (default) or DESC"),
};

export const includeTermHierarchy = z.boolean().optional().describe(
  "Include each term's parent terms (hierarchyInfo)",
);

/** Options every create and put of a glossary object takes. */
export const describedFields = {
  name: z.string().min(1).optional().describe("Name; unique in its glossary (glossaries: in the catalog)"),
  shortDescription: z.string().optional().describe("One-line description"),
};

/** Term fields settable from the command line. */
export const termFields = {
  ...describedFields,
  definition: z.string().optional().describe("Definition of the term (its long description)"),
  status: z.enum(TERM_STATUSES).optional().describe("Lifecycle status: Draft, Approved, Alert or Expired"),
  abbreviation: z.string().optional().describe("Abbreviation or acronym"),
  examples: z.array(z.string()).optional().describe("An example of use"),
};

export const payloadFile = z.string().min(1).optional();

/** A JSON object; keys whose value is undefined are left out. */
export type Fields = Record<string, unknown>;

/** `base` with the options that have a value laid over it. */
export function withOptions<T extends Fields>(base: T, options: Fields): T {
  const merged: Fields = { ...base };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  return merged as T;
}

/** Reads a payload file that must hold one JSON object (a glossary, category or term). */
export async function readObjectPayload(
  ctx: OperationContext,
  path: string,
  what: string,
): Promise<Fields> {
  const value = await readJsonFile(ctx, path, "--payload-file");
  if (!isPlainObject(value)) throw payloadError(path, `a JSON object (${what})`, describeJson(value));
  return value;
}

/** Reads a payload file that must hold a non-empty JSON array of objects. */
export async function readArrayPayload(
  ctx: OperationContext,
  path: string,
  what: string,
): Promise<Fields[]> {
  const value = await readJsonFile(ctx, path, "--payload-file");
  const expected = `a JSON array of ${what}`;
  if (!Array.isArray(value)) throw payloadError(path, expected, describeJson(value));
  if (value.length === 0) throw payloadError(path, expected, "an empty array");
  value.forEach((item, i) => {
    if (!isPlainObject(item)) throw payloadError(path, expected, `${describeJson(item)} at index ${i}`);
  });
  return value as Fields[];
}

/** Checks that an object about to be created has a name and a glossary, naming where they could come from. */
export function requireNameAndAnchor(object: Fields, command: string, file?: string): void {
  const anchor = isPlainObject(object.anchor) ? object.anchor : {};
  const missing = [
    !(typeof object.name === "string" && object.name.trim()) && "--name",
    !(typeof anchor.glossaryGuid === "string" && anchor.glossaryGuid) && "--glossary-guid",
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(
      `glossary ${command} needs ${missing.join(" and ")}${file ? ` (not found in ${file})` : ""}.`,
      'Give the options, or a --payload-file with "name" and "anchor": {"glossaryGuid": …}.',
    );
  }
}

/** `{anchor: {glossaryGuid}}` when a GUID is given, so it can be laid over a payload. */
export function anchorOf(guid: string | undefined): Fields {
  return guid ? { anchor: { glossaryGuid: guid } } : {};
}

/** The JSON a delete command prints: the service answers 204 with no body. */
export function deleted(kind: string, guid: string): Record<string, unknown> {
  return { [`${kind}Guid`]: guid, deleted: true };
}
