/**
 * What the operations of the `scan` group share: their input fields (`--data-source-name`, `--scan-name`,
 * `--run-id`, `--classification-rule-name`, `--payload-file`), the service's naming rule checked before
 * anything is sent, payload files read through the operation context (so the MCP server's file root
 * applies) and checked for shape and for template placeholders, the hints a 404 of each kind of resource
 * gives, and collecting every page of a list.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { CatalogError, NotFoundError, UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { findPlaceholder } from "../templates/scan_templates.ts";
import { withHint } from "../catalog/collections_support.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import type { OperationContext } from "./types.ts";

const NAME = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
export const NAME_RULE = "3 to 63 letters or digits, with single hyphens between them";
/** The contract's run id: a GUID, 36 characters. */
const RUN_ID = /^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/;

export const dataSourceName = z.string().min(1).describe(`Name of the data source (${NAME_RULE})`);
export const scanName = z.string().min(1).describe(`Name of the scan of the data source (${NAME_RULE})`);
export const runId = z.string().regex(RUN_ID, {
  message: "a run id is the GUID `scan run` printed, e.g. 138301e4-f4f9-4ab5-b734-bac446b236e7",
}).describe("GUID of the run: the runId `scan run` printed, or an id from `scan runs`");
/**
 * Classification rule names are looser than the others: the service created `test_classificationrule1009`
 * (recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
 * ClassificationRuleClientTest/ClassificationRuleOperations.json). Only what cannot be one URL path segment
 * is refused.
 */
export const RULE_NAME_RULE = "any characters but / and \\ and control characters, and not . or ..";
export const classificationRuleName = z.string().min(1).describe(
  `Name of the classification rule (${RULE_NAME_RULE})`,
);
export const payloadFile = (what: string) => z.string().min(1).describe(`JSON file holding the ${what}`);

/** Hints for a 404, by what was not found; each names the command that lists the right names. */
export const NOT_FOUND_HINT = {
  dataSource: "Check the data source name with `govcat scan listDataSources`.",
  scan: "Check the data source name with `govcat scan listDataSources` and the scan name with " +
    "`govcat scan listScans --data-source-name <name>`.",
  run: "Check the names with `govcat scan listScans --data-source-name <name>` and the run id with " +
    "`govcat scan runs --data-source-name <name> --scan-name <scan>`.",
  trigger: "Check the names with `govcat scan listScans --data-source-name <name>`; a scan has a trigger " +
    "only once `govcat scan putTrigger` has given it one.",
  rule: "Check the name with `govcat scan listClassificationRules`.",
};

/** Refuses a name the service would refuse, before anything is sent. */
export function checkName(option: string, name: string): void {
  if (name.length < 3 || name.length > 63 || !NAME.test(name)) {
    throw new UsageError(`${option} "${name}" is not a valid name: names have ${NAME_RULE}.`);
  }
}

/** Refuses a classification rule name that cannot be one URL path segment, before anything is sent. */
export function checkClassificationRuleName(option: string, name: string): void {
  const problem = name.trim() === ""
    ? "it is blank"
    : name === "." || name === ".."
    ? "a name of dots only would name another path"
    : /[\/\\]/.test(name)
    ? "it holds a / or \\, which would split the URL path"
    // deno-lint-ignore no-control-regex
    : /[\u0000-\u001f\u007f]/.test(name)
    ? "it holds a control character"
    : undefined;
  if (problem) {
    throw new UsageError(
      `${option} ${JSON.stringify(name)} is not a valid classification rule name: ${problem}.`,
      `Classification rule names may hold ${RULE_NAME_RULE}.`,
    );
  }
}

/**
 * Reads a payload file that must hold a JSON object (`expected` says which, for the error), whose
 * `properties`, if any, is an object, and with no template placeholder left.
 */
export async function readPayload(
  ctx: OperationContext,
  path: string,
  expected: string,
): Promise<Record<string, unknown>> {
  const value = await readJsonFile(ctx, path, "--payload-file");
  if (!isPlainObject(value)) throw payloadError(path, expected, describeJson(value));
  if (value.properties !== undefined && !isPlainObject(value.properties)) {
    throw payloadError(path, "properties to be an object", describeJson(value.properties));
  }
  const placeholder = findPlaceholder(value);
  if (placeholder) {
    throw new UsageError(
      `${path} still has the template placeholder ${placeholder.placeholder} at ${placeholder.path}.`,
      "Replace every value in angle brackets before sending the payload.",
    );
  }
  return value;
}

/** Refuses a payload without a `kind`, or (given `kinds`) with one outside them. */
export function checkKind(
  path: string,
  body: { kind?: unknown },
  kinds?: readonly string[],
  what = "data source",
): void {
  const kind = body.kind;
  if (typeof kind !== "string" || kind.trim() === "") {
    throw new UsageError(
      `${path} has no kind: the payload needs "kind"${kinds ? `, one of ${kinds.join(", ")}` : ""}.`,
    );
  }
  if (kinds && !kinds.includes(kind)) {
    throw new UsageError(
      `${path} has the unknown ${what} kind "${kind}".${didYouMean(kind, kinds)}`,
      `Kinds: ${kinds.join(", ")}.`,
    );
  }
}

/**
 * What a delete prints: the name deleted, `extra` (where it was), and the deleted resource under `key`,
 * as the service answers a scanning delete with 200 and the resource (recorded: Azure/azure-sdk-for-net
 * sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/DataSourceClientTest/
 * DataSourceOperations.json and the other scanning session records). An empty answer (the contract's
 * 204) prints the name alone.
 */
export function deletedOutput(
  name: string,
  key: string,
  resource: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return resource === undefined ? { deleted: name, ...extra } : { deleted: name, ...extra, [key]: resource };
}

/** Every item of a paged list, with their count. */
export async function collect<T>(items: AsyncIterable<T>): Promise<{ count: number; value: T[] }> {
  const value: T[] = [];
  for await (const item of items) value.push(item);
  return { count: value.length, value };
}

/** Runs a call and, when the service answers 404, gives the hint that fits scanning. */
export async function hinted<T>(hint: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) throw withHint(error as CatalogError, hint);
    throw error;
  }
}
