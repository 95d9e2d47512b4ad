/**
 * The operation value type. An operation is one thing govcat can do against the catalog, described once
 * and read by the CLI parser, `--help`, the MCP registry tools, read-only mode and the generated docs.
 *
 * @module
 */
import type { z } from "../deps/zod.ts";
import type { CatalogClient } from "../catalog/client.ts";
import type { UnifiedCatalogClient } from "../catalog/unified_api.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../core/log.ts";
import type { ProgressSink } from "../core/progress.ts";
import type { FileAccess } from "../files/file_access.ts";
import type { Confirmation } from "./confirmation.ts";

/** Behaviour hints, the same four MCP tool annotations use. */
export interface OperationAnnotations {
  /** Changes nothing in the catalog. */
  readOnly: boolean;
  /**
   * May delete or overwrite data that cannot be recovered. Such an operation runs only when confirmed
   * (`--confirm`, `"confirm": true`, or a "yes" on a terminal); the registry adds that input.
   */
  destructive: boolean;
  /** Repeating it with the same input has no further effect. */
  idempotent: boolean;
  /** Talks to a system outside govcat (the catalog service). */
  openWorld: boolean;
  /**
   * The input fields naming a local file the operation writes (an export, a report, a reject file, a
   * checkpoint). Writing a local file is a change: an operation that always writes one is not `readOnly`;
   * one marked `readOnly` writes only when one of these fields is given (`validate.csv`'s `reportFile`),
   * and is read-only only without them: the MCP server's read-only mode refuses a call that gives one and
   * lists the operation without those fields, and its `readOnlyHint` is false otherwise.
   */
  writesLocalFile?: readonly string[];
  /**
   * Its answer holds credentials (the account's access keys). Such an operation is for a person at a
   * terminal only: the MCP server neither lists nor runs it, so no key ever reaches a model's context.
   */
  returnsSecrets?: boolean;
  /**
   * It manages the command line's own state (its connection profiles), which an MCP session has none of:
   * the MCP server neither lists nor runs it, so `list_available_operations` offers only what
   * `invoke_operation` runs.
   */
  commandLineOnly?: boolean;
}

/** True when a call of `operation` with `input` changes nothing: not the catalog, not a local file. */
export function callIsReadOnly(
  annotations: OperationAnnotations,
  input: Record<string, unknown>,
): boolean {
  return annotations.readOnly &&
    !(annotations.writesLocalFile ?? []).some((field) => input[field] !== undefined && input[field] !== null);
}

/** What an operation's `run` gets: lazily built clients, so operations that need none need no config. */
export interface OperationContext {
  /** Validated configuration; throws ConfigError when it is missing or invalid. */
  config(): Config;
  /** Client of the data map (Atlas v2, search, glossary, lineage), account and scan APIs. */
  catalog(): CatalogClient;
  /** Client of the unified catalog API (domains, terms, data products, CDEs, OKRs, policies). */
  unified(): UnifiedCatalogClient;
  /** Where the operation logs (stderr for the CLI, log notifications for MCP). */
  logger: Logger;
  /** Reads a file the user named, with a clear error naming the option when it fails. */
  readTextFile(path: string, option: string): Promise<string>;
  /**
   * Which local files this front end may read and write. The CLI allows any; the MCP server confines
   * file arguments to CATALOG_MCP_FILE_ROOT. Absent means unrestricted.
   */
  files?: FileAccess;
  /** Where long jobs report progress (a bar on a terminal, MCP progress notifications); optional. */
  progress?: ProgressSink;
  /** Ends the operation: Ctrl-C, an MCP cancellation, a client gone away. */
  signal?: AbortSignal;
  /**
   * How this front end confirms destructive operations (see `confirmation.ts`): the command line asks
   * on a terminal and names `--confirm`; absent, nobody is asked and `"confirm": true` is named.
   */
  confirmation?: Confirmation;
}

/**
 * The schema of an operation's input: a zod object schema.
 *
 * @internal zod's types stay out of the documented API; read an input's fields with `inputFields`.
 */
export type OperationInputSchema = z.ZodType<Record<string, unknown>>;

/**
 * The input `run` receives: the schema's output, after defaults and coercion.
 *
 * @internal See {@link OperationInputSchema}.
 */
export type OperationInput<S extends OperationInputSchema> = z.output<S>;

/** One operation. `S` is its zod input schema (an object). */
export interface Operation<S extends OperationInputSchema = OperationInputSchema> {
  /** Stable id, `group.command` in kebab case, e.g. `glossary.list-terms`. */
  id: string;
  /** The command group it belongs to (`glossary`). */
  group: string;
  /** The command within the group, as `--help` shows it (`list-terms`, or two words: `term create`). */
  command: string;
  /** Other spellings users type: `read-terms`, `importBusinessMetadata`. */
  aliases?: string[];
  /** One line for lists: `--help`, `list_available_operations`. */
  summary: string;
  /** Longer text for `--help`, written for people and models alike. */
  description?: string;
  /** The zod schema of its input: the CLI's options, the MCP arguments, and their validation. */
  input: S;
  /** Input fields that may also be given as positional arguments, in order (`profile remove <name>`). */
  positionals?: string[];
  /** What the operation does to the catalog, read by read-only mode, confirmation and MCP hints. */
  annotations: OperationAnnotations;
  /** Does the work; the result is JSON-serialisable. */
  run(context: OperationContext, input: OperationInput<S>): Promise<unknown>;
}

/** Annotation presets for the common kinds of operation. */
export const READ: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: true,
};
/** Creates or replaces, and running it twice changes nothing more. */
export const UPSERT: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: true,
};
/** Creates something new each time it runs. */
export const CREATE: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
};
/** Removes something that cannot be recovered: it runs only when confirmed. */
export const DELETE: OperationAnnotations = {
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: true,
};

/**
 * Helper that keeps the input type of `run` tied to the schema.
 *
 * @internal For the operation modules of this package; the schema type is zod's.
 */
export function defineOperation<S extends z.ZodType<Record<string, unknown>>>(
  operation: Operation<S>,
): Operation {
  return operation as unknown as Operation;
}
