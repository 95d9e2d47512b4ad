/**
 * Shared pieces of the `uc` (unified catalog) commands: option fields, the body built from options laid
 * over a `--payload-file`, owners as contacts, local checks that run before anything is sent, and the
 * confirmation of destructive commands (a prompt on a terminal, `--confirm` everywhere else).
 *
 * @example
 * ```ts
 * import { compact } from "./uc_inputs.ts";
 * compact({ name: "Revenue", description: undefined }); // { name: "Revenue" }
 * ```
 *
 * @module
 */
import { z, type ZodType } from "../deps/zod.ts";
import { UsageError } from "../errors.ts";
import { validateInput } from "../unified/schemas.ts";
import { asObject, readJsonFile } from "./payload_files.ts";
import type { OperationContext } from "./types.ts";
import { guidField } from "./guid_fields.ts";

/** The id of a unified catalog object: a GUID, like every id the unified catalog gives. */
export const idOption = (what: string) => guidField(what);

/** `--payload-file` of the create and update commands; commands with another kind of file describe their own. */
export const ucPayloadFile = z.string().min(1).optional().describe(
  "JSON file holding the body as the API takes it (options given override its fields)",
);
export const ownerIdOption = z.array(z.string()).optional().describe(
  "Owner: an Entra ID object ID (GUID), not an e-mail address",
);
export const confirmOption = z.boolean().optional().describe(
  "Skip the confirmation; required when there is no terminal to ask on (scripts, CI, MCP)",
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

/** True when a person can be asked: a terminal on stdin, and not the MCP server (`govcat serve`). */
function canAsk(): boolean {
  try {
    return Deno.stdin.isTerminal() && Deno.args[0] !== "serve";
  } catch {
    return false;
  }
}

async function readAnswer(): Promise<string> {
  const buffer = new Uint8Array(256);
  const read = await Deno.stdin.read(buffer);
  return read === null ? "" : new TextDecoder().decode(buffer.subarray(0, read)).trim();
}

/**
 * Lets a destructive command go ahead: with `--confirm`, at once; on a terminal, after a "y"; without a
 * terminal, never (a usage error, exit 2, before anything is sent).
 */
export async function confirmDestructive(confirm: boolean | undefined, what: string): Promise<void> {
  if (confirm) return;
  if (!canAsk()) {
    throw new UsageError(
      `refusing to ${what} without --confirm: there is no terminal to ask for confirmation.`,
      "Add --confirm to go ahead; nothing was sent.",
    );
  }
  await Deno.stderr.write(new TextEncoder().encode(`${what}? This cannot be undone. [y/N] `));
  const answer = (await readAnswer()).toLowerCase();
  if (answer !== "y" && answer !== "yes") {
    throw new UsageError(`cancelled: did not ${what}.`, "Nothing was sent.");
  }
}

/** What a delete prints. */
export function deletedResult(kind: string, id: string, extra: Record<string, unknown> = {}) {
  return { deleted: true, kind, id, ...extra };
}
