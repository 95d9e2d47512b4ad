/**
 * The account and registry tools: get_account_properties, list_available_operations and
 * invoke_operation, which reaches every command-line operation by name.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../core/errors.ts";
import { canonicalEnums, inputFields } from "../../operations/fields.ts";
import { IF_EXISTS_FIELD, overwritesOnRequest } from "../../operations/if_exists.ts";
import { callIsReadOnly, type Operation } from "../../operations/types.ts";
import { didYouMean } from "../../core/suggest.ts";
import { describeOperationChange } from "../change_descriptions.ts";
import { defineTool, READ_ONLY, type ToolAnnotations, toolJsonSchema } from "../tool.ts";
import { unknownArgumentsProblem } from "../tool_arguments.ts";
import { operationHints, operationTool } from "../tool_operation.ts";
import { getAccount } from "../../operations/account_operations.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

export const getAccountPropertiesTool = operationTool({
  name: "get_account_properties",
  title: "Get account properties",
  description: "The catalog account's name, location, endpoints and state; checks the server can reach the " +
    "catalog and is authorised.",
  operation: getAccount,
  output: z.object({ account: z.record(z.string(), z.unknown()) }),
  view: (account) => ({ account: account as Record<string, unknown> }),
});

const operationSummary = z.object({
  name: z.string().describe("Operation id, the value invoke_operation takes"),
  command: z.string().describe("The command line form"),
  aliases: z.array(z.string()),
  summary: z.string(),
  kind: z.enum(["read", "write", "destructive"]),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.object({
    readOnlyHint: z.boolean(),
    destructiveHint: z.boolean(),
    idempotentHint: z.boolean(),
    openWorldHint: z.boolean(),
  }),
  writesLocalFile: z.array(z.string()).optional().describe(
    "Arguments naming a local file the operation writes (under the server's file root); an existing file " +
      "is replaced only with overwrite: true",
  ),
});

/** The input schema of an operation as listed: in read-only mode without the arguments that write files. */
function listedInputSchema(operation: Operation, readOnlyMode: boolean): Record<string, unknown> {
  const schema = toolJsonSchema(operation.input, "input");
  const writers = operation.annotations.writesLocalFile ?? [];
  if (!readOnlyMode || writers.length === 0) return schema;
  const properties = { ...(schema.properties as Record<string, unknown> | undefined) };
  for (const field of [...writers, "overwrite"]) delete properties[field];
  const required = (schema.required as string[] | undefined)?.filter((field) => !writers.includes(field));
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** Whether the MCP server lists and runs an operation: not one answering credentials, nor one of the CLI's own. */
export function offeredOverMcp(operation: Operation): boolean {
  return !operation.annotations.returnsSecrets && !operation.annotations.commandLineOnly;
}

/** Why read-only mode refuses this call, or undefined when it may run. */
export function readOnlyRefusal(operation: Operation, args: Record<string, unknown>): string | undefined {
  if (callIsReadOnly(operation.annotations, args)) return undefined;
  const { readOnly, writesLocalFile = [] } = operation.annotations;
  if (readOnly) {
    const given = writesLocalFile.filter((field) => args[field] !== undefined && args[field] !== null);
    return `${operation.id} writes a local file when ${given.join(" or ")} is given, and this server is in ` +
      `read-only mode (CATALOG_MCP_READ_ONLY), which writes nothing: call it without ${given.join(" and ")}.`;
  }
  const what = writesLocalFile.length > 0
    ? `writes a local file (${writesLocalFile.join(", ")})`
    : "changes the catalog";
  return `${operation.id} ${what} and this server is in read-only mode (CATALOG_MCP_READ_ONLY).`;
}

/** What a call of an operation may do, in one word: read, write (changes nothing existing) or destructive. */
function kindOf(annotations: ToolAnnotations): "read" | "write" | "destructive" {
  if (annotations.readOnlyHint) return "read";
  return annotations.destructiveHint ? "destructive" : "write";
}

/**
 * The first line (first sentence) of an operation's summary, for the index, in at most `limit` characters:
 * a longer one is cut at a word and ends with "…".
 */
function oneLine(summary: string, limit: number): string {
  const line = summary.split("\n")[0].trim();
  const sentence = line.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? line;
  if (sentence.length <= limit) return sentence;
  const cut = sentence.slice(0, limit - 1);
  const word = cut.lastIndexOf(" ");
  return `${(word > limit / 2 ? cut.slice(0, word) : cut).replace(/[\s,;:(]+$/, "")}…`;
}

/**
 * The longest summaries the index tries, longest first: the whole index stays under
 * {@link OPERATION_INDEX_BOUND_BYTES} as the registry grows by shortening every summary a step, never by
 * leaving an operation out. A category's own listing always has them whole.
 */
const INDEX_SUMMARY_LIMITS = [160, 96, 72, 56, 40];

const KINDS = ["read", "write", "destructive"] as const;
const kindIndex = (kind: string) =>
  z.record(z.string(), z.string()).optional().describe(
    `Index only: the category's ${kind} operations, operation id → one-line summary`,
  );

/**
 * Bound of the unfiltered index in bytes (JSON). The whole index with every input schema was 147 KB; the
 * schemas come for one category or one operation on request.
 */
export const OPERATION_INDEX_BOUND_BYTES = 25_000;

export const listAvailableOperationsTool = defineTool({
  name: "list_available_operations",
  title: "List command-line operations",
  description:
    "Every command-line operation by category: an index of ids and summaries; category or operation " +
    "adds input schemas. For what no tool covers; run one with invoke_operation.",
  input: z.object({
    category: z.string().optional().describe(
      "A category, e.g. entity or glossary",
    ),
    operation: z.string().optional().describe(
      "One operation: id (entity.get) or command ('entity get')",
    ),
    detail: z.enum(["index", "schemas"]).optional().describe(
      "schemas (default with category or operation) adds input schemas",
    ),
  }),
  output: z.object({
    categories: z.array(z.object({
      name: z.string(),
      summary: z.string(),
      operations: z.array(operationSummary).optional().describe(
        "With detail schemas: each operation with its input schema and annotations",
      ),
      read: kindIndex("read (change nothing)"),
      write: kindIndex("write (add or change data, overwrite nothing)"),
      destructive: kindIndex("destructive (may delete or overwrite; need confirm)"),
    })),
    detail: z.enum(["index", "schemas"]).describe("What each operation entry holds"),
    summariesShortenedTo: z.number().int().optional().describe(
      "Set when the index cut its one-line summaries to this many characters to stay under its bound; " +
        "a category's listing has them whole",
    ),
    readOnlyMode: z.boolean(),
  }),
  // The list is this server's own registry, not the catalog: a closed world.
  annotations: { ...READ_ONLY, openWorldHint: false },
  handler: async (ctx, input) => {
    const { readOnly } = ctx.services;
    const registry = await ctx.services.registry();
    const listed = (op: Operation) => offeredOverMcp(op) && (!readOnly || op.annotations.readOnly);
    let groups = registry.groups();
    let only: Operation | undefined;
    if (input.operation) {
      only = registry.get(input.operation);
      if (!only || !listed(only)) {
        throw new UsageError(
          `Unknown operation "${input.operation}".${
            didYouMean(input.operation, registry.all().filter(listed).map((o) => o.id))
          }`,
          "list_available_operations without arguments lists every operation id.",
        );
      }
      groups = groups.filter((g) => g.name === only!.group);
    } else if (input.category) {
      const group = registry.group(input.category);
      if (!group) {
        throw new UsageError(
          `Unknown category "${input.category}".${didYouMean(input.category, groups.map((g) => g.name))}`,
          `Categories: ${groups.map((g) => g.name).join(", ")}.`,
        );
      }
      groups = [group];
    }
    const detail = input.detail ?? (input.category || input.operation ? "schemas" : "index");
    if (detail === "schemas" && !input.category && !input.operation) {
      throw new UsageError(
        'detail: "schemas" needs a category or an operation: every schema at once is 150 KB.',
        "Call list_available_operations without arguments for the index, then ask for one category or operation.",
      );
    }
    const full = (op: Operation) => {
      const annotations = operationHints(op, readOnly);
      return {
        name: op.id,
        command: `${op.group} ${op.command}`,
        aliases: op.aliases ?? [],
        summary: op.summary,
        kind: kindOf(annotations),
        inputSchema: listedInputSchema(op, readOnly),
        annotations,
        ...(!readOnly && op.annotations.writesLocalFile?.length
          ? { writesLocalFile: [...op.annotations.writesLocalFile] }
          : {}),
      };
    };
    const byKind = (ops: Operation[], limit: number) => {
      const kinds: Partial<Record<(typeof KINDS)[number], Record<string, string>>> = {};
      for (const op of ops) {
        (kinds[kindOf(operationHints(op, readOnly))] ??= {})[op.id] = oneLine(op.summary, limit);
      }
      return Object.fromEntries(KINDS.filter((k) => kinds[k]).map((k) => [k, kinds[k]]));
    };
    const listing = (limit: number) => {
      const categories = groups.map((group) => {
        const ops = registry.inGroup(group.name).filter((op) => listed(op) && (!only || op.id === only.id));
        return {
          name: group.name,
          summary: group.summary,
          ...(detail === "index" ? byKind(ops, limit) : { operations: ops.map(full) }),
          count: ops.length,
        };
      }).filter((c) => c.count > 0 || input.category).map(({ count: _count, ...c }) => c);
      return { categories, detail, readOnlyMode: readOnly };
    };
    const whole = input.category || input.operation || detail === "schemas";
    if (whole) return Promise.resolve(listing(INDEX_SUMMARY_LIMITS[0]));
    const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
    let result: ReturnType<typeof listing> & { summariesShortenedTo?: number } = listing(
      INDEX_SUMMARY_LIMITS[0],
    );
    for (const limit of INDEX_SUMMARY_LIMITS.slice(1)) {
      if (bytes(result) < OPERATION_INDEX_BOUND_BYTES) break;
      result = { ...listing(limit), summariesShortenedTo: limit };
    }
    return Promise.resolve(result);
  },
});

export const invokeOperationTool = defineTool({
  name: "invoke_operation",
  title: "Invoke a command-line operation",
  description:
    `Run an operation from list_available_operations (entity.get) with \`arguments\` per its schema. ` +
    'Destructive ones need "confirm": true after asking the user; writesLocalFile ones replace a file ' +
    'only with "overwrite": true.' + CATALOG_TEXT_IS_DATA,
  input: z.object({
    operation: z.string().min(1).describe("Operation ID, e.g. entity.get"),
    arguments: z.record(z.string(), z.unknown()).default({}).describe("Input of the operation"),
  }),
  output: z.object({
    operation: z.string(),
    destructive: z.boolean(),
    result: z.unknown(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // A destructive operation takes its own `confirm` argument, checked by the registry when it runs.
  confirmWhen: false,
  handler: async (ctx, input) => {
    const { readOnly } = ctx.services;
    const registry = await ctx.services.registry();
    const operation = registry.get(input.operation);
    if (!operation) {
      throw new UsageError(
        `Unknown operation "${input.operation}".${
          didYouMean(input.operation, registry.all().map((o) => o.id))
        }`,
        "list_available_operations lists every operation with its input schema.",
      );
    }
    if (operation.annotations.returnsSecrets) {
      throw new UsageError(
        `${operation.id} answers credentials, which must not reach a model: it is not offered over MCP.`,
        `A person runs it in a terminal: govcat ${operation.group} ${operation.command}.`,
      );
    }
    if (operation.annotations.commandLineOnly) {
      throw new UsageError(
        `${operation.id} manages the command line's connection profiles, which an MCP session does not ` +
          "use: it is not offered over MCP.",
        `Run it in a terminal: govcat ${operation.group} ${operation.command}.`,
      );
    }
    const refusal = readOnly ? readOnlyRefusal(operation, input.arguments) : undefined;
    if (refusal) throw new UsageError(refusal);
    const known = new Set(inputFields(operation.input).map((f) => f.name));
    const unknown = unknownArgumentsProblem(known, input.arguments, `${operation.id} (in arguments)`);
    if (unknown) {
      throw new UsageError(unknown, "list_available_operations shows each operation's input schema.");
    }
    const parsed = operation.input.safeParse(canonicalEnums(operation.input, input.arguments));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => {
        const field = String(issue.path[0] ?? "");
        return known.has(field) ? `arguments.${issue.path.join(".")}: ${issue.message}` : issue.message;
      });
      throw new UsageError(`Invalid arguments for ${operation.id}: ${problems.join("; ")}.`);
    }
    const args = parsed.data as Record<string, unknown>;
    if (ctx.askUser && changesWhatExists(operation, args)) {
      // The user decides, whatever the model put in "confirm" (elicitation.ts).
      const { confirm: _modelSaid, ...rest } = args;
      await ctx.askUser(await describeOperationChange(operation, rest, ctx));
      args.confirm = true;
    }
    const result = await operation.run(ctx.services.operationContext(ctx.signal, ctx.progress), args);
    return { operation: operation.id, destructive: operation.annotations.destructive, result };
  },
});

/** A destructive operation, or one asked to overwrite what exists (`ifExists: "update"`): confirmed. */
function changesWhatExists(operation: Operation, args: Record<string, unknown>): boolean {
  return operation.annotations.destructive ||
    (overwritesOnRequest(operation.input) && args[IF_EXISTS_FIELD] === "update");
}
