/**
 * Operations of the `scan` group (spec §4.6): register data sources (`putDataSource`), read, list and
 * delete them; create, read, list and delete their scans; run a scan and read its run history; and the
 * JSON payload templates of §4.7 (`templates`, `template`).
 *
 * Payload files are checked before anything is sent: a missing or invalid file, a payload that is not an
 * object, an unknown data source kind or a `<placeholder>` left from a template is a usage error (exit 2)
 * naming the file and the problem.
 *
 * @module
 */
import { DATA_SOURCE_KINDS, type DataSource, type Scan } from "../catalog/scan_types.ts";
import { z } from "../deps/zod.ts";
import { CatalogError, NotFoundError, UsageError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import {
  findPlaceholder,
  SCAN_TEMPLATE_NAMES,
  scanTemplate,
  scanTemplates,
} from "../templates/scan_templates.ts";
import { withHint } from "./collections_support.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import {
  defineOperation,
  DELETE,
  type Operation,
  type OperationAnnotations,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

const NAME = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
const nameRule = "3 to 63 letters or digits, with single hyphens between them";

const dataSourceName = z.string().min(1).describe(`Name of the data source (${nameRule})`);
const scanName = z.string().min(1).describe(`Name of the scan of the data source (${nameRule})`);
const payloadFile = (what: string) => z.string().min(1).describe(`JSON file holding the ${what}`);

/** Templates are built into govcat: nothing is read from or written to the catalog. */
const LOCAL: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

/** A run starts work in the catalog; repeating it starts another. */
const RUN: OperationAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true };

const NOT_FOUND_HINT = {
  dataSource: "Check the data source name with `govcat scan listDataSources`.",
  scan: "Check the data source name with `govcat scan listDataSources` and the scan name with " +
    "`govcat scan listScans --data-source-name <name>`.",
};

export const putDataSource = defineOperation({
  id: "scan.put-data-source",
  group: "scan",
  command: "putDataSource",
  aliases: ["put-data-source"],
  summary: "Register a data source, or replace the one with this name, from a JSON payload file",
  description: `The payload is a data source: {"kind": "<kind>", "properties": {…, "collection": ` +
    `{"referenceName": "<collection>"}}}; \`govcat scan template --name=scan-source\` prints one. Kinds: ` +
    `${DATA_SOURCE_KINDS.join(", ")}.`,
  input: z.object({ dataSourceName, payloadFile: payloadFile("data source") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkName("--data-source-name", input.dataSourceName);
    const body = await readPayload(ctx, input.payloadFile, "data source") as DataSource;
    checkKind(input.payloadFile, body, DATA_SOURCE_KINDS);
    const result = await ctx.catalog().scan.putDataSource(input.dataSourceName, body, ctx.signal);
    return { created: result.created, dataSource: result.value };
  },
});

export const getDataSource = defineOperation({
  id: "scan.get-data-source",
  group: "scan",
  command: "getDataSource",
  aliases: ["get-data-source"],
  summary: "Get a data source: kind, properties, collection",
  input: z.object({ dataSourceName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.dataSource,
      () => ctx.catalog().scan.getDataSource(input.dataSourceName, ctx.signal),
    ),
});

export const listDataSources = defineOperation({
  id: "scan.list-data-sources",
  group: "scan",
  command: "listDataSources",
  aliases: ["list-data-sources"],
  summary: "List every data source of the account (all pages)",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => collect(ctx.catalog().scan.listDataSources({ signal: ctx.signal })),
});

export const deleteDataSource = defineOperation({
  id: "scan.delete-data-source",
  group: "scan",
  command: "deleteDataSource",
  aliases: ["delete-data-source"],
  summary: "Delete a data source with its scans and their run history",
  input: z.object({ dataSourceName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await hinted(
      NOT_FOUND_HINT.dataSource,
      () => ctx.catalog().scan.deleteDataSource(input.dataSourceName, ctx.signal),
    );
    return { deleted: input.dataSourceName };
  },
});

export const putScan = defineOperation({
  id: "scan.put-scan",
  group: "scan",
  command: "putScan",
  aliases: ["put-scan"],
  summary: "Create a scan of a data source, or replace the one with this name, from a JSON payload file",
  description: 'The payload is a scan: {"kind": "<data source kind><Msi|Credential|…>", "properties": ' +
    '{"scanRulesetName": …, "scanRulesetType": "System", …}}; `govcat scan template --name=scan` prints one.',
  input: z.object({ dataSourceName, scanName, payloadFile: payloadFile("scan") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkName("--data-source-name", input.dataSourceName);
    checkName("--scan-name", input.scanName);
    const body = await readPayload(ctx, input.payloadFile, "scan") as Scan;
    checkKind(input.payloadFile, body);
    const result = await hinted(
      NOT_FOUND_HINT.dataSource,
      () => ctx.catalog().scan.putScan(input.dataSourceName, input.scanName, body, ctx.signal),
    );
    return { created: result.created, scan: result.value };
  },
});

export const getScan = defineOperation({
  id: "scan.get-scan",
  group: "scan",
  command: "getScan",
  aliases: ["get-scan"],
  summary: "Get a scan of a data source",
  input: z.object({ dataSourceName, scanName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.scan,
      () => ctx.catalog().scan.getScan(input.dataSourceName, input.scanName, ctx.signal),
    ),
});

export const listScans = defineOperation({
  id: "scan.list-scans",
  group: "scan",
  command: "listScans",
  aliases: ["list-scans"],
  summary: "List the scans of a data source (all pages)",
  input: z.object({ dataSourceName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.dataSource,
      () => collect(ctx.catalog().scan.listScans(input.dataSourceName, { signal: ctx.signal })),
    ),
});

export const deleteScan = defineOperation({
  id: "scan.delete-scan",
  group: "scan",
  command: "deleteScan",
  aliases: ["delete-scan"],
  summary: "Delete a scan of a data source, with its run history and trigger",
  input: z.object({ dataSourceName, scanName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await hinted(
      NOT_FOUND_HINT.scan,
      () => ctx.catalog().scan.deleteScan(input.dataSourceName, input.scanName, ctx.signal),
    );
    return { deleted: input.scanName, dataSourceName: input.dataSourceName };
  },
});

export const runScan = defineOperation({
  id: "scan.run",
  group: "scan",
  command: "run",
  aliases: ["run-scan", "runScan"],
  summary: "Start a run of a scan; prints the accepted run (see `scan runs` for its progress)",
  input: z.object({
    dataSourceName,
    scanName,
    scanLevel: z.enum(["Full", "Incremental"]).optional().describe("Full or Incremental (the default)"),
    runId: z.string().uuid().optional().describe("GUID of the run; a new one when left out"),
  }),
  annotations: RUN,
  run: (ctx, input) =>
    hinted(NOT_FOUND_HINT.scan, () =>
      ctx.catalog().scan.runScan(input.dataSourceName, input.scanName, {
        scanLevel: input.scanLevel,
        runId: input.runId,
        signal: ctx.signal,
      })),
});

export const scanRuns = defineOperation({
  id: "scan.runs",
  group: "scan",
  command: "runs",
  aliases: ["history", "listScanHistory"],
  summary: "The run history of a scan, newest first, with each run's status",
  input: z.object({ dataSourceName, scanName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.scan,
      () =>
        collect(
          ctx.catalog().scan.listScanRuns(input.dataSourceName, input.scanName, { signal: ctx.signal }),
        ),
    ),
});

export const listScanTemplates = defineOperation({
  id: "scan.templates",
  group: "scan",
  command: "templates",
  summary: "List the JSON payload templates: scan source, scan, scan trigger, classification rule",
  input: z.object({}),
  annotations: LOCAL,
  run: () => Promise.resolve(scanTemplates().map(({ name, summary, usage }) => ({ name, summary, usage }))),
});

export const getScanTemplate = defineOperation({
  id: "scan.template",
  group: "scan",
  command: "template",
  summary: "Print a JSON payload template; replace its <placeholders> before using it",
  description:
    `Templates: ${SCAN_TEMPLATE_NAMES.join(", ")}. Save the output to a file, replace the values ` +
    "in angle brackets and pass it to putDataSource or putScan --payload-file.",
  input: z.object({
    name: z.string().min(1).describe(`One of ${SCAN_TEMPLATE_NAMES.join(", ")}`),
  }),
  annotations: LOCAL,
  run: (_ctx, input) => {
    const template = scanTemplate(input.name);
    if (!template) {
      return Promise.reject(
        new UsageError(
          `unknown scan template "${input.name}".${didYouMean(input.name, SCAN_TEMPLATE_NAMES)}`,
          `Templates: ${SCAN_TEMPLATE_NAMES.join(", ")}.`,
        ),
      );
    }
    return Promise.resolve(template.payload);
  },
});

/** Every operation of the `scan` group. */
export const SCAN_OPERATIONS: Operation[] = [
  putDataSource,
  getDataSource,
  listDataSources,
  deleteDataSource,
  putScan,
  getScan,
  listScans,
  deleteScan,
  runScan,
  scanRuns,
  listScanTemplates,
  getScanTemplate,
];

function checkName(option: string, name: string): void {
  if (name.length < 3 || name.length > 63 || !NAME.test(name)) {
    throw new UsageError(`${option} "${name}" is not a valid name: names have ${nameRule}.`);
  }
}

/** Reads a payload file that must hold a JSON object with no template placeholder left. */
async function readPayload(
  ctx: OperationContext,
  path: string,
  what: string,
): Promise<Record<string, unknown>> {
  const value = await readJsonFile(ctx, path, "--payload-file");
  if (!isPlainObject(value)) {
    throw payloadError(path, `a ${what} object {"kind": …, "properties": {…}}`, describeJson(value));
  }
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

function checkKind(path: string, body: { kind?: unknown }, kinds?: readonly string[]): void {
  const kind = body.kind;
  if (typeof kind !== "string" || kind.trim() === "") {
    throw new UsageError(
      `${path} has no kind: the payload needs "kind"${kinds ? `, one of ${kinds.join(", ")}` : ""}.`,
    );
  }
  if (kinds && !kinds.includes(kind)) {
    throw new UsageError(
      `${path} has the unknown data source kind "${kind}".${didYouMean(kind, kinds)}`,
      `Kinds: ${kinds.join(", ")}.`,
    );
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<{ count: number; value: T[] }> {
  const value: T[] = [];
  for await (const item of items) value.push(item);
  return { count: value.length, value };
}

/** Runs a call and, when the service answers 404, gives the hint that fits scanning. */
async function hinted<T>(hint: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundError) throw withHint(error as CatalogError, hint);
    throw error;
  }
}
