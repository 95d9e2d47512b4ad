/**
 * The one confirmation rule of destructive operations (annotations `destructive: true`: they may delete
 * or overwrite data that cannot be recovered). Every such operation takes a `confirm` input, which the
 * registry adds, and runs only when it is true or when a person, asked, says yes:
 *
 * - on the command line, on a terminal: `… Go ahead? [y/N]`; `--confirm` skips the question;
 * - without a terminal (scripts, CI): refused (exit 2) unless `--confirm`, before anything is sent;
 * - over MCP: refused (an error result) unless the call says `"confirm": true`.
 *
 * The front end says how it confirms (`OperationContext.confirmation`); the rule and its one gate,
 * {@link confirmedRun}, live here. The curated MCP tools go through the same gate (`defineTool`).
 *
 * @example
 * ```ts
 * import { z } from "../deps/zod.ts";
 * import { withConfirmation } from "./confirmation.ts";
 * import { defineOperation, DELETE } from "./types.ts";
 * const remove = withConfirmation(defineOperation({
 *   id: "entity.delete", group: "entity", command: "delete", summary: "Delete an entity",
 *   input: z.object({ guid: z.string() }), annotations: DELETE,
 *   run: () => Promise.resolve({ deleted: true }),
 * }));
 * // remove.run(context, { guid: "…" }) is refused unless confirm is true or a person says yes.
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { inputFields } from "./fields.ts";
import type { Operation, OperationContext } from "./types.ts";

/** The name of the input that confirms a destructive operation. */
export const CONFIRM_FIELD = "confirm";

/** The `confirm` input every destructive operation takes. */
export const confirmField = z.boolean().optional().describe(
  "Go ahead without asking; required where nobody can be asked (no terminal: scripts, CI; MCP calls)",
);

/** How a front end confirms destructive operations. */
export interface Confirmation {
  /** How the user confirms, as they write it there: `--confirm`, `"confirm": true`. */
  option: string;
  /** What to do when refused for want of it; says to add {@link option} when absent. */
  hint?: string;
  /** Why nobody is asked, for the refusal: "there is no terminal to ask on". */
  noOneToAsk?: string;
  /** Asks a person whether to go ahead; absent where nobody can be asked (no terminal, MCP). */
  ask?(question: string): Promise<boolean>;
}

/** How MCP calls confirm: nobody to ask, `"confirm": true` in the arguments. */
export const MCP_CONFIRMATION: Confirmation = {
  option: '"confirm": true',
  hint: 'Check with the user, then call again with "confirm": true in the arguments.',
};

/**
 * Lets a destructive action go ahead: at once when `confirmed`; after a "yes" where a person can be asked;
 * otherwise never: a UsageError (exit 2) saying nothing was sent, thrown before anything is.
 * `what` names the action (`entity delete guid=…`).
 */
export async function confirmDestructive(
  what: string,
  confirmed: boolean | undefined,
  confirmation: Confirmation = MCP_CONFIRMATION,
): Promise<void> {
  if (confirmed === true) return;
  if (!confirmation.ask) {
    throw new UsageError(
      `${what} is destructive: refusing to run it without ${confirmation.option}, as ` +
        `${confirmation.noOneToAsk ?? "nobody can be asked to confirm here"}; nothing was sent.`,
      confirmation.hint ?? `Add ${confirmation.option} to go ahead.`,
    );
  }
  const yes = await confirmation.ask(
    `${what} may delete or overwrite data that cannot be recovered. Go ahead? [y/N] `,
  );
  if (!yes) throw new UsageError(`cancelled: ${what} was not run; nothing was sent.`);
}

/** True for the answers that mean yes: y or yes, in any case. */
export function isYes(answer: string | null | undefined): boolean {
  return /^(y|yes)$/i.test(answer?.trim() ?? "");
}

/** What {@link confirmedRun} needs to know of a destructive action. */
export interface ConfirmationRule<C> {
  /** Whether this call needs confirming (a plan or a dry run changes nothing); every call by default. */
  needed?(input: Record<string, unknown>): boolean;
  /** Names the action for the refusal: `entity delete guid=…`, `delete_entity guid=…`. */
  what(input: Record<string, unknown>): string;
  /** How the front end of this call confirms; absent: as over MCP. */
  confirmation(context: C): Confirmation | undefined;
}

/**
 * The one gate of destructive actions, for operations ({@link withConfirmation}) and MCP tools
 * (`defineTool`) alike: `run` gets the input without `confirm`, and runs only when the call does not need
 * confirming or {@link confirmDestructive} lets it go ahead.
 */
export function confirmedRun<C, R>(
  rule: ConfirmationRule<C>,
  run: (context: C, input: Record<string, unknown>, confirmed: boolean) => Promise<R>,
): (context: C, input: Record<string, unknown>) => Promise<R> {
  return async (context, input) => {
    const { [CONFIRM_FIELD]: confirm, ...rest } = input;
    if (rule.needed?.(rest) ?? true) {
      await confirmDestructive(rule.what(rest), confirm === true, rule.confirmation(context));
    }
    return await run(context, rest, confirm === true);
  };
}

/**
 * `schema` with the `confirm` input (described as `field` says), which `adder` adds to `owner`'s input:
 * an object schema that does not declare it already.
 */
export function withConfirmField<S>(schema: S, field: z.ZodType, owner: string, adder: string): S {
  const shape = schema as unknown as z.ZodObject<z.ZodRawShape>;
  if (typeof shape.safeExtend !== "function") {
    throw new Error(`destructive ${owner}: its input must be an object schema`);
  }
  if (CONFIRM_FIELD in shape.shape) throw new Error(`${owner} declares "${CONFIRM_FIELD}"; ${adder} adds it`);
  return shape.safeExtend({ [CONFIRM_FIELD]: field }) as unknown as S;
}

/** Operations {@link withConfirmation} made. */
const confirmed = new WeakSet<Operation>();

/**
 * The operation as the registry holds it: a destructive one takes `confirm` and goes through
 * {@link confirmedRun} before its own `run` (which gets the input without `confirm`); any other is
 * returned as it is.
 */
export function withConfirmation(operation: Operation): Operation {
  // Registered again (a registry built from another's operations): it has its confirmation already.
  if (!operation.annotations.destructive || confirmed.has(operation)) return operation;
  const held: Operation = {
    ...operation,
    input: withConfirmField(operation.input, confirmField, `operation ${operation.id}`, "the registry"),
    run: confirmedRun<OperationContext, unknown>({
      // `--plan` (plan_options.ts) writes nothing: there is nothing to confirm yet; applying it is confirmed.
      needed: (input) => input.plan !== true,
      what: (input) => describeAction(operation, input),
      confirmation: (context) => context.confirmation,
    }, (context, input) => operation.run(context, input)),
  };
  confirmed.add(held);
  return held;
}

/** `entity delete guid=ca7a…`: the command and the values that say what it acts on. */
export function describeAction(operation: Operation, input: Record<string, unknown>): string {
  const values = inputFields(operation.input).flatMap((field) => {
    const value = input[field.name];
    const text = Array.isArray(value) ? value.join(",") : value;
    if (typeof text !== "string" && typeof text !== "number") return [];
    const shown = String(text).length > 60 ? `${String(text).slice(0, 57)}...` : String(text);
    return [`${field.flag}=${shown}`];
  });
  return [`${operation.group} ${operation.command}`, ...values.slice(0, 3)].join(" ");
}
