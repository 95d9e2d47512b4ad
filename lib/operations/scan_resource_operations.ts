/**
 * The four operations of a scanning resource that the account holds by name (create or replace from a JSON
 * payload file, get, list every page, delete), built from one description so that each family (key vault
 * connections, credentials, scan rulesets, integration runtimes…) reads the same from the command line and
 * through `invoke_operation`. Deletes are destructive, so the registry asks for `--confirm`.
 *
 * @module
 */
import type { PutResult } from "../catalog/scan_base_api.ts";
import type { ScanApi } from "../catalog/scan_api.ts";
import { z } from "../deps/zod.ts";
import {
  checkKind,
  checkName,
  collect,
  deletedOutput,
  hinted,
  NAME_RULE,
  payloadFile,
  readPayload,
} from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";

/** What the operations of one resource family need to know. */
export interface ResourceFamily<T> {
  /** Singular, in kebab case: `key-vault-connection`. */
  kebab: string;
  /** Singular, in camel case for commands: `KeyVaultConnection`. */
  camel: string;
  /** Plural camel case: `KeyVaultConnections`. */
  camelPlural: string;
  /** The input field naming it, e.g. `keyVaultName` (`--key-vault-name`). */
  nameField: string;
  /** Words for summaries: "key vault connection". */
  noun: string;
  summaries: { put: string; get: string; list: string; delete: string };
  description?: string;
  /** The payload's shape, for errors. */
  shape: string;
  /** Kinds a payload's `kind` must be one of; undefined when the resource has no kind. */
  kinds?: readonly string[];
  /** More checks of a payload before it is sent. */
  checkPayload?(ctx: OperationContext, path: string, body: Record<string, unknown>): void;
  /** Whether names follow the service's usual rule (checked before sending); true unless false. */
  checkNames?: boolean;
  hint: string;
  api: {
    put(scan: ScanApi, name: string, body: T, signal?: AbortSignal): Promise<PutResult<T>>;
    get(scan: ScanApi, name: string, signal?: AbortSignal): Promise<T>;
    list(scan: ScanApi, signal?: AbortSignal): AsyncGenerator<T>;
    /** The deleted resource as the service answered it; undefined for an empty answer. */
    delete(scan: ScanApi, name: string, signal?: AbortSignal): Promise<T | undefined>;
  };
}

/** The put, get, list and delete operations of a family, in the order `scan --help` lists them. */
export function resourceOperations<T>(f: ResourceFamily<T>): Operation[] {
  const option = `--${f.nameField.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const nameSchema = z.string().min(1).describe(
    `Name of the ${f.noun}` + (f.checkNames === false ? "" : ` (${NAME_RULE})`),
  );
  const named = z.object({ [f.nameField]: nameSchema });
  const nameOf = (input: Record<string, unknown>) => String(input[f.nameField]);
  const put = defineOperation({
    id: `scan.put-${f.kebab}`,
    group: "scan",
    command: `put${f.camel}`,
    aliases: [`put-${f.kebab}`],
    summary: f.summaries.put,
    description: f.description,
    input: z.object({ [f.nameField]: nameSchema, payloadFile: payloadFile(f.noun) }),
    annotations: UPSERT,
    run: async (ctx, input) => {
      const name = nameOf(input);
      if (f.checkNames !== false) checkName(option, name);
      const path = String(input.payloadFile);
      const body = await readPayload(ctx, path, f.shape);
      if (f.kinds) checkKind(path, body, f.kinds, f.noun);
      f.checkPayload?.(ctx, path, body);
      const result = await f.api.put(ctx.catalog().scan, name, body as T, ctx.signal);
      return { created: result.created, [lowerFirst(f.camel)]: result.value };
    },
  });
  const get = defineOperation({
    id: `scan.get-${f.kebab}`,
    group: "scan",
    command: `get${f.camel}`,
    aliases: [`get-${f.kebab}`],
    summary: f.summaries.get,
    input: named,
    annotations: READ,
    run: (ctx, input) => hinted(f.hint, () => f.api.get(ctx.catalog().scan, nameOf(input), ctx.signal)),
  });
  const list = defineOperation({
    id: `scan.list-${f.kebab}s`,
    group: "scan",
    command: `list${f.camelPlural}`,
    aliases: [`list-${f.kebab}s`],
    summary: f.summaries.list,
    input: z.object({}),
    annotations: READ,
    run: (ctx) => collect(f.api.list(ctx.catalog().scan, ctx.signal)),
  });
  const remove = defineOperation({
    id: `scan.delete-${f.kebab}`,
    group: "scan",
    command: `delete${f.camel}`,
    aliases: [`delete-${f.kebab}`],
    summary: f.summaries.delete,
    input: named,
    annotations: DELETE,
    run: async (ctx, input) => {
      const name = nameOf(input);
      const deleted = await hinted(f.hint, () => f.api.delete(ctx.catalog().scan, name, ctx.signal));
      return deletedOutput(name, lowerFirst(f.camel), deleted);
    },
  });
  return [put, get, list, remove] as Operation[];
}

function lowerFirst(text: string): string {
  return text[0].toLowerCase() + text.slice(1);
}
