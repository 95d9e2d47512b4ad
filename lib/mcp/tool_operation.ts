/**
 * Curated tools built from operations: a catalog action has one implementation (the operation's `run`),
 * one set of hints (derived here from the operation's annotations), one set of arguments (the operation's
 * fields, `tool_fields.ts`) and one confirmation gate (`lib/operations/confirmation.ts`). A tool for one
 * operation adds only what a model needs on top: its name, title and description, its result view, and
 * where its arguments differ from the operation's fields.
 *
 * What this takes from github/github-mcp-server's inventory (`pkg/inventory/server_tool.go`): a tool is
 * one value holding its static definition and a handler made from shared dependencies when it is
 * registered, and a tool's read-only status is not a second field but read from its annotations. Here the
 * annotations themselves are read one step further back, from the operation the tool names, so a tool
 * cannot declare hints of its own (the spec types below have no `annotations` field) and its hints cannot
 * drift from what the command line and `invoke_operation` say about the same action.
 *
 * A tool that composes several operations (batch isolation: a bulk call, then single calls for the chunk
 * that failed), or takes arguments that are not an operation's fields, is written out with
 * {@link composedTool}: it names its operations, its hints are the worst of theirs, and its handler
 * reaches the catalog only through {@link OperationRunner}.
 *
 * @example
 * ```ts
 * import { z } from "../deps/zod.ts";
 * import { getAccount } from "../operations/account_operations.ts";
 * import { operationTool } from "./tool_operation.ts";
 * const tool = operationTool({
 *   name: "get_account_properties", title: "Get account properties",
 *   description: "The catalog account's configuration: name, location, endpoints, provisioning state.",
 *   operation: getAccount, output: z.object({ account: z.record(z.string(), z.unknown()) }),
 *   view: (account) => ({ account: account as Record<string, unknown> }),
 * });
 * tool.annotations.readOnlyHint; // true, because account.get is a read
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { withConfirmation } from "../operations/confirmation.ts";
import { IF_EXISTS_FIELD, overwritesOnRequest } from "../operations/if_exists.ts";
import type { Operation } from "../operations/types.ts";
import type { ResourceLink } from "./resource_links.ts";
import { type FieldOverride, toolArguments, toSnake } from "./tool_fields.ts";
import { defineTool, type ToolAnnotations, type ToolContext, type ToolDefinition } from "./tool.ts";

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * The MCP hints of an operation. A create that overwrites on request (`ifExists: "update"`) is destructive:
 * the MCP `destructiveHint` describes the worst call. Writing a local file is a change, so an operation
 * that may write one is read-only only in read-only mode, where such arguments are refused.
 */
export function operationHints(operation: Operation, readOnlyMode = false): ToolAnnotations {
  const a = operation.annotations;
  return {
    readOnlyHint: a.readOnly && (readOnlyMode || (a.writesLocalFile ?? []).length === 0),
    destructiveHint: a.destructive || overwritesOnRequest(operation.input),
    idempotentHint: a.idempotent,
    openWorldHint: a.openWorld,
  };
}

/** The hints of a tool that runs all of `operations`: the worst of theirs. */
export function composedHints(operations: ReadonlyArray<Operation>): ToolAnnotations {
  const each = operations.map((operation) => operationHints(operation));
  return {
    readOnlyHint: each.every((h) => h.readOnlyHint),
    destructiveHint: each.some((h) => h.destructiveHint),
    idempotentHint: each.every((h) => h.idempotentHint),
    openWorldHint: each.some((h) => h.openWorldHint),
  };
}

/** Runs one of a tool's operations with its (operation-named) input; the only way a tool reaches the catalog. */
export type OperationRunner = (operation: Operation, input: Record<string, unknown>) => Promise<unknown>;

interface ToolText<O extends ObjectSchema> {
  name: string;
  title: string;
  /** For a model: what it does, when to use it, what comes back, what to call next. */
  description: string;
  output: O;
  /** The resource links of a result (see {@link ToolDefinition.links}). */
  links?: (output: z.output<O>) => ResourceLink[];
}

/** A call's arguments as the tool parsed them, under its (snake_case) names. */
export type ToolArgs = Record<string, unknown>;

/**
 * A tool that is one operation seen through a model's argument names and a lean view. Its arguments are
 * the operation's fields (`tool_fields.ts`); `fields` says only where the tool differs.
 */
export interface OperationToolSpec<O extends ObjectSchema> extends ToolText<O> {
  /** The operation that does the work. */
  operation: Operation;
  /** Where the tool takes the operation's fields otherwise than the operation declares them. */
  fields?: Readonly<Record<string, FieldOverride>>;
  /** Refuses a call the operation would take but the tool cannot answer; throws before anything is sent. */
  check?(args: ToolArgs): void;
  /** Wraps the operation's run: to give its errors hints in the tools' words (list_collections, not the CLI). */
  wrapRun?(run: () => Promise<unknown>, args: ToolArgs): Promise<unknown>;
  /**
   * Narrows which calls of a destructive tool need `"confirm": true` (a dry run changes nothing). Without
   * it every call of a destructive operation needs it, and a create that overwrites on request needs it
   * when its input says `ifExists: "update"`.
   */
  confirmWhen?(args: ToolArgs): boolean;
  /** The tool's answer from the operation's result. */
  view(result: unknown, args: ToolArgs): z.input<O> | Promise<z.input<O>>;
}

/** A tool that runs several operations, or one with arguments of its own (say why in its doc comment). */
export interface ComposedToolSpec<I extends ObjectSchema, O extends ObjectSchema> extends ToolText<O> {
  /** The tool's arguments, under the names a model sees (snake_case). */
  input: I;
  /** Narrows which calls of a destructive tool need `"confirm": true` (see {@link OperationToolSpec}). */
  confirmWhen?: (args: z.output<I>) => boolean;
  /** Every operation the tool may run; `compose` may run no other. */
  operations: ReadonlyArray<Operation>;
  compose(run: OperationRunner, args: z.output<I>, context: ToolContext): Promise<z.input<O>>;
}

/** The tool for one operation; its arguments are the operation's fields and its hints the operation's. */
export function operationTool<O extends ObjectSchema>(spec: OperationToolSpec<O>): ToolDefinition {
  const { operation } = spec;
  const { input, toOperation, fromOperation } = toolArguments(spec.name, operation, spec.fields);
  const tool = composedTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    output: spec.output,
    links: spec.links,
    input,
    operations: [operation],
    confirmWhen: spec.confirmWhen ?? defaultConfirmWhen([operation], toOperation),
    compose: async (run, args) => {
      spec.check?.(args);
      const runIt = () => run(operation, toOperation(args));
      return await spec.view(await (spec.wrapRun ? spec.wrapRun(runIt, args) : runIt()), args);
    },
  });
  return { ...tool, argumentFields: fromOperation };
}

/** The tool for several operations; its hints are the worst of theirs. */
export function composedTool<I extends ObjectSchema, O extends ObjectSchema>(
  spec: ComposedToolSpec<I, O>,
): ToolDefinition {
  const operations = [...spec.operations];
  const annotations = composedHints(operations);
  const needsConfirmation = spec.confirmWhen ?? defaultConfirmWhen(operations, undefined);
  const tool = defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    annotations,
    confirmWhen: needsConfirmation,
    links: spec.links,
    handler: (context, args) => {
      // defineTool has refused an unconfirmed call that needed confirming; what reaches here is either
      // confirmed by the user or a call the rule lets through (a dry run, a create that fails on existing),
      // which the operations check again.
      let confirmed = context.confirmed;
      // A tool that asks its user itself, once it has read what to show (decide_approval): an accept
      // confirms the operations it runs next.
      const askUser = context.askUser &&
        (async (change: string) => {
          await context.askUser!(change);
          confirmed = true;
        });
      const run: OperationRunner = (operation, input) => {
        if (!operations.includes(operation)) {
          throw new Error(`${spec.name} runs ${operation.id}, which its definition does not name`);
        }
        return runOperation(spec.name, { ...context, confirmed }, operation, input);
      };
      return spec.compose(run, args, { ...context, askUser });
    },
  });
  return { ...tool, operations: operations.map((operation) => operation.id) };
}

/**
 * Every call of a destructive operation needs confirming; a create that overwrites on request needs it
 * when asked to overwrite.
 */
function defaultConfirmWhen<A>(
  operations: ReadonlyArray<Operation>,
  toInput: ((args: A) => Record<string, unknown>) | undefined,
): ((args: A) => boolean) | undefined {
  if (operations.some((operation) => operation.annotations.destructive)) return () => true;
  if (!toInput || !operations.some((operation) => overwritesOnRequest(operation.input))) return undefined;
  return (args) => toInput(args)[IF_EXISTS_FIELD] === "update";
}

/**
 * Runs `operation` as the registry holds it: the tool's call went through the confirmation gate first
 * (`confirmedRun`, naming the tool), and its outcome is passed on as `confirm`, so the operation's own
 * pass through the same gate holds too: an operation that destroys is never run unconfirmed whatever a
 * tool's `confirmWhen` says. The mapped input is checked against the
 * operation's schema, so the operation gets exactly what the command line would give it (defaults,
 * canonical values).
 */
async function runOperation(
  toolName: string,
  context: ToolContext,
  operation: Operation,
  input: Record<string, unknown>,
): Promise<unknown> {
  const held = withConfirmation(operation);
  const parsed = held.input.safeParse({ ...input, confirm: context.confirmed === true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      `${issue.path.map(String).map(toSnake).join(".") || "arguments"}: ${issue.message}`
    );
    throw new UsageError(
      `${toolName}: ${problems.join("; ")}; nothing was sent.`,
      `Correct the argument${problems.length > 1 ? "s" : ""} named and call ${toolName} again.`,
    );
  }
  return await held.run(
    context.services.operationContext(context.signal, context.progress),
    parsed.data as Record<string, unknown>,
  );
}
