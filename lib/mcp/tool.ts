/**
 * The tool value type. A tool is declared once — name, title, a description written for a model, zod
 * input and output schemas, all four annotations, a handler — and the server, the read-only filter, the
 * snapshot test and the tool reference in docs/tools.md are all read from these values. Curated catalog tools are
 * built from operations (`tool_operation.ts`), which gives them their annotations and their handler.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { UnifiedCatalogClient } from "../catalog/unified_api.ts";
import type { Config } from "../config/config.ts";
import { z } from "../deps/zod.ts";
import type { Logger } from "../core/log.ts";
import type { OperationRegistry } from "../operations/registry.ts";
import {
  CONFIRM_FIELD,
  type Confirmation,
  confirmedRun,
  withConfirmField,
} from "../operations/confirmation.ts";
import type { OperationContext } from "../operations/types.ts";
import type { ProgressSink } from "../core/progress.ts";
import { listedInputSchema, listedOutputSchema } from "./listed_schema.ts";
import { describeToolChange } from "./change_descriptions.ts";
import type { AskUser } from "./elicitation.ts";
import type { ResourceLink } from "./resource_links.ts";

/** The four MCP tool annotations; every tool states all of them. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Process-wide services the tools share (one catalog client, one registry). */
export interface ToolServices {
  config(): Config;
  catalog(): CatalogClient;
  /** The unified catalog client (shares nothing with `catalog()` but the configuration). */
  unified(): UnifiedCatalogClient;
  /** Every operation (list_available_operations, invoke_operation); loaded on first use. */
  registry(): Promise<OperationRegistry>;
  logger: Logger;
  /** True when write tools are hidden and refused. */
  readOnly: boolean;
  /**
   * A context for running a registry operation (invoke_operation): file arguments confined to
   * CATALOG_MCP_FILE_ROOT, progress to the calling client when it asked for it.
   */
  operationContext(signal?: AbortSignal, progress?: ProgressSink): OperationContext;
}

/** What one tool call gets. */
export interface ToolContext {
  services: ToolServices;
  /** Aborted when the client cancels the call or disconnects. */
  signal?: AbortSignal;
  /** Progress notifications to the client; present when its request carried a progress token. */
  progress?: ProgressSink;
  /**
   * The call said `"confirm": true` (destructive tools, see {@link defineTool}); passed on to the
   * operations a tool runs, so their own confirmation holds too.
   */
  confirmed?: boolean;
  /**
   * Asks the call's user to confirm a change (MCP elicitation); present when the client can show them a
   * form. Then the user, not the call's `"confirm"`, decides (see `elicitation.ts`).
   */
  askUser?: AskUser;
}

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<
  I extends ObjectSchema = ObjectSchema,
  O extends ObjectSchema = ObjectSchema,
> {
  name: string;
  title: string;
  /** For a model: what it does, when to use it, what comes back, what to call next. */
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** Icons listed with the tool (MCP 2025-11-25); see icons.ts for which tools carry one. */
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[] }>;
  /**
   * The ids of the operations that do the tool's work, for a tool built from them (`tool_operation.ts`,
   * whose hints are theirs); absent for the registry tools, which run whatever operation they are given.
   */
  operations?: readonly string[];
  /**
   * For a tool built from one operation (`operationTool`): each argument taken from it, the tool's name
   * → the operation's field (`tool_fields.ts`). The tool's other arguments are its own.
   */
  argumentFields?: ReadonlyMap<string, string>;
  /**
   * Which calls of a destructive tool must say `"confirm": true` (see {@link defineTool}): every call by
   * default, those this answers true for (`check_only=false`), or none (`false`: invoke_operation, whose
   * operations are confirmed by the registry). Ignored when the tool is not destructive.
   */
  confirmWhen?: false | ((input: z.output<I>) => boolean);
  /**
   * The `resource_link` items a successful result carries after its JSON text (`resource_links.ts`): the
   * entities or terms it lists, as resources. At most MAX_RESOURCE_LINKS are sent.
   */
  links?(output: z.output<O>): ResourceLink[];
  handler(context: ToolContext, input: z.output<I>): Promise<z.input<O>>;
}

/**
 * Keeps a tool's handler typed by its schemas while the list of tools stays homogeneous. A destructive
 * tool (`destructiveHint`) goes through the gate of the command line and invoke_operation
 * (`confirmedRun` in `lib/operations/confirmation.ts`): it takes a `confirm` argument, and a call
 * without `"confirm": true` is refused with an error result before anything is sent. When the client can ask its user
 * (`context.askUser`), the user is asked instead, shown what will change (`change_descriptions.ts`), and
 * the call's own `"confirm"` counts for nothing.
 */
export function defineTool<I extends ObjectSchema, O extends ObjectSchema>(
  tool: ToolDefinition<I, O>,
): ToolDefinition {
  const plain = tool as unknown as ToolDefinition;
  if (!tool.annotations.destructiveHint || tool.confirmWhen === false) return plain;
  const needed = (plain.confirmWhen || (() => true)) as (input: Record<string, unknown>) => boolean;
  const confirmation: Confirmation = {
    option: '"confirm": true',
    hint: `Check with the user, then call ${tool.name} again with "confirm": true.`,
  };
  const gated = confirmedRun<ToolContext, z.input<ObjectSchema>>({
    needed,
    what: (input) => describeCall(tool.name, input),
    confirmation: () => confirmation,
  }, (context, input, confirmed) => plain.handler({ ...context, confirmed }, input));
  return {
    ...plain,
    input: withConfirmField(tool.input, toolConfirmField, `tool ${tool.name}`, "defineTool"),
    handler: async (context, input) => {
      if (!context.askUser) return await gated(context, input);
      const { [CONFIRM_FIELD]: _ignored, ...rest } = input as Record<string, unknown>;
      const asked = needed(rest);
      if (asked) await context.askUser(await describeToolChange(tool.name, rest, context));
      return await plain.handler({ ...context, confirmed: asked }, rest as z.output<ObjectSchema>);
    },
  };
}

/** The `confirm` argument of destructive tools. */
const toolConfirmField = z.boolean().optional().describe(
  "true: the user agreed to the change",
);

/** `delete_entity guid=…`: the tool and the short values that say what it acts on. */
function describeCall(name: string, input: Record<string, unknown>): string {
  const values = Object.entries(input).flatMap(([key, value]) =>
    typeof value === "string" && value.length <= 60 ? [`${key}=${value}`] : []
  );
  return [name, ...values.slice(0, 3)].join(" ");
}

/**
 * The hints of a read-only tool that is not built from an operation (the registry tools and tests); the
 * curated catalog tools take theirs from their operations (`tool_operation.ts`).
 */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

/**
 * JSON Schema (draft-07, which every MCP client validates) of a tool's input or output, as `tools/list`
 * lists it (trimmed by `listed_schema.ts`).
 */
export function toolJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  if (io === "output") return listedOutputSchema(json);
  dropSafeIntegerBounds(json);
  const input = listedInputSchema(json) as Record<string, unknown>;
  // The server refuses arguments a tool does not take (tool_arguments.ts); the schema says so to clients.
  if (input.type === "object") input.additionalProperties = false;
  return input;
}

/**
 * zod's `.int()` bounds an integer by ±Number.MAX_SAFE_INTEGER, which the JSON Schema repeats as
 * minimum/maximum ±9007199254740991 on every integer: noise for a model (43 of them in tools/list). The
 * bounds a tool sets itself (min(1), max(1000)) stay; the server still validates with zod.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach(dropSafeIntegerBounds);
  const record = node as Record<string, unknown>;
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    if (Math.abs(Number(record[key])) === Number.MAX_SAFE_INTEGER) delete record[key];
  }
  for (const value of Object.values(record)) dropSafeIntegerBounds(value);
}
