/**
 * Shared pieces of the `uc` (unified catalog) commands: option fields, the body built from options laid
 * over a `--payload-file`, owners as contacts and local checks that run before anything is sent. (Their
 * destructive commands are confirmed like every other: see `confirmation.ts`.)
 *
 * @example
 * ```ts
 * import { compact } from "./unified_inputs.ts";
 * compact({ name: "Revenue", description: undefined }); // { name: "Revenue" }
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { validateInput } from "../catalog/unified_schemas.ts";
import { asObject, readJsonFile } from "./payload_files.ts";
import type { OperationContext } from "./types.ts";
import { guidField } from "./guid_fields.ts";

/** The id of a unified catalog object: a GUID, like every id the unified catalog gives. */
export const idOption = (what: string) => guidField(what);

/** `--payload-file` of the create and update commands; commands with another kind of file describe their own. */
export const unifiedPayloadFile = z.string().min(1).optional().describe(
  "JSON file holding the body as the API takes it (options given override its fields)",
);
export const ownerIdOption = z.array(z.string()).optional().describe(
  "Owner: an Entra ID object ID (GUID), not an e-mail address",
);
export const pagingOptions = {
  top: z.number().int().min(1).optional().describe("Return only the first page, of at most this many"),
  skip: z.number().int().min(0).optional().describe("Skip this many entities (with --top)"),
};

/** The object without its undefined values. */
export function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The JSON object in `--payload-file`, or `{}` when none is given. */
export async function payloadObject(
  ctx: OperationContext,
  path: string | undefined,
  expected: string,
): Promise<Record<string, unknown>> {
  if (!path) return {};
  return asObject(await readJsonFile(ctx, path, "--payload-file"), path, expected);
}

/** Owners as the `contacts` map wants them, kept beside the other roles of `base`. */
export function withOwners(
  base: Record<string, unknown> | undefined,
  ownerIds: string[] | undefined,
): Record<string, unknown> | undefined {
  if (!ownerIds || ownerIds.length === 0) return undefined;
  const contacts = base && typeof base === "object" ? { ...base } : {};
  contacts.owner = ownerIds.map((id) => ({ id: id.trim() }));
  return contacts;
}

/** Options over the payload file: an option given wins over the same field of the file. */
export function overlay(
  payload: Record<string, unknown>,
  options: Record<string, unknown>,
  ownerIds?: string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...payload, ...compact(options) };
  const contacts = withOwners(payload.contacts as Record<string, unknown> | undefined, ownerIds);
  if (contacts) body.contacts = contacts;
  return body;
}

/** Checks the fields a body has, as the client will, before anything (even a read) is sent. */
export function precheck(schema: ZodType, body: Record<string, unknown>, what: string): void {
  const partial = (schema as unknown as { partial(): ZodType }).partial();
  validateInput(partial, body, what);
}

/** Refuses a command when a required field is neither an option nor in the payload file. */
export function requireField(body: Record<string, unknown>, field: string, option: string, command: string) {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "") {
    throw new UsageError(
      `${command} needs ${option} (or "${field}" in --payload-file).`,
      `Run "govcat ${command} --help" for its options.`,
    );
  }
}

/** Refuses an update that would change nothing. */
export function requireSomething(body: Record<string, unknown>, command: string, options: string): void {
  if (Object.keys(body).length === 0) {
    throw new UsageError(`${command} needs --payload-file or at least one of ${options}.`);
  }
}

/** What a delete prints. */
export function deletedResult(kind: string, id: string, extra: Record<string, unknown> = {}) {
  return { deleted: true, kind, id, ...extra };
}
