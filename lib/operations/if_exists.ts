/**
 * `--if-exists` of the create operations (`entity create`, `collections create`): what to do when the
 * target exists already. `fail` (the default) changes nothing and says so; `update` overwrites it, as
 * the catalog's upsert does, and so goes through the one confirmation rule of destructive operations
 * ({@link confirmDestructive}: asked on a terminal, `--confirm` / `"confirm": true` elsewhere).
 *
 * The operation's `destructive` annotation stays false (the registry would otherwise confirm every call,
 * a plain create included); the MCP listing reads {@link overwritesOnRequest} and shows such an
 * operation as destructive, since a call may overwrite (the MCP `destructiveHint` describes the worst
 * call).
 *
 * @example
 * ```ts
 * import { z } from "../deps/zod.ts";
 * import { ifExistsField, overwritesOnRequest } from "./if_exists.ts";
 * console.log(overwritesOnRequest(z.object({ ifExists: ifExistsField }))); // true
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { confirmDestructive, confirmField } from "./confirmation.ts";
import type { OperationContext } from "./types.ts";

/** The name of the input that says what to do with an existing target. */
export const IF_EXISTS_FIELD = "ifExists";

/** `--if-exists`: fail (default) or update. */
export const ifExistsField = z.enum(["fail", "update"]).default("fail").describe(
  "When it exists already: fail (default; nothing is changed) or update (overwrites the fields given; " +
    "needs confirmation)",
);

/** The `confirm` input of an operation that overwrites only with `--if-exists=update`. */
export const overwriteConfirmField = confirmField;

/** Whether an operation's input takes `ifExists` with an `update` choice: a call may overwrite. */
export function overwritesOnRequest(input: unknown): boolean {
  const shape = (input as { shape?: Record<string, unknown> })?.shape;
  const field = shape?.[IF_EXISTS_FIELD] as { def?: { innerType?: { options?: unknown[] } } } | undefined;
  const options = field?.def?.innerType?.options ?? (field as { options?: unknown[] } | undefined)?.options;
  return Array.isArray(options) && options.includes("update");
}

/** Lets an `--if-exists=update` call go ahead once confirmed (see `confirmation.ts`). */
export async function confirmOverwrite(
  ctx: OperationContext,
  what: string,
  confirmed: boolean | undefined,
): Promise<void> {
  await confirmDestructive(what, confirmed, ctx.confirmation);
}

/**
 * How to ask for an overwrite, in the words of the front end: `--if-exists=update` (with `--confirm`) on
 * the command line; over MCP the curated tools spell the argument `if_exists`, invoke_operation `ifExists`.
 */
export function overwriteHint(ctx: OperationContext): string {
  return ctx.confirmation?.option.startsWith("--")
    ? "add --if-exists=update (with --confirm where nobody can be asked)"
    : 'call again with "if_exists": "update" ("ifExists" through invoke_operation) and "confirm": true, ' +
      "once the user agrees";
}
