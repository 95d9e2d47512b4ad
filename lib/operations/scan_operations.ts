/**
 * Operations of the `scan` group: register data sources (`putDataSource`), read, list and
 * delete them; create, read, list and delete their scans; and the scanning API's JSON payload templates
 * (`templates`, `template`). {@link SCAN_OPERATIONS} gathers them with the group's other modules: runs
 * (`scan_run_operations.ts`), triggers (`scan_trigger_operations.ts`), classification rules
 * (`scan_rule_operations.ts`), scan filters and rule versions (`scan_filter_operations.ts`), key vault
 * connections and credentials (`scan_credential_operations.ts`), scan rulesets
 * (`scan_ruleset_operations.ts`), integration runtimes (`scan_runtime_operations.ts`) and the managed
 * virtual network with its private endpoints (`scan_network_operations.ts`).
 *
 * Payload files are checked before anything is sent: a missing or invalid file, a payload that is not an
 * object, an unknown data source kind or a `<placeholder>` left from a template is a usage error (exit 2)
 * naming the file and the problem.
 *
 * @module
 */
import { DATA_SOURCE_KINDS, type DataSource, type Scan } from "../catalog/scan_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { SCAN_TEMPLATE_NAMES, scanTemplate, scanTemplates } from "../templates/scan_templates.ts";
import {
  checkKind,
  checkName,
  collect,
  dataSourceName,
  deletedOutput,
  hinted,
  NOT_FOUND_HINT,
  payloadFile,
  readPayload,
  scanName,
} from "./scan_inputs.ts";
import { CREDENTIAL_OPERATIONS, KEY_VAULT_OPERATIONS } from "./scan_credential_operations.ts";
import { SCAN_FILTER_OPERATIONS } from "./scan_filter_operations.ts";
import { SCAN_RULE_OPERATIONS } from "./scan_rule_operations.ts";
import { SCAN_RULESET_OPERATIONS } from "./scan_ruleset_operations.ts";
import { SCAN_RUNTIME_OPERATIONS } from "./scan_runtime_operations.ts";
import { SCAN_NETWORK_OPERATIONS } from "./scan_network_operations.ts";
import { SCAN_RUN_OPERATIONS } from "./scan_run_operations.ts";
import { SCAN_TRIGGER_OPERATIONS } from "./scan_trigger_operations.ts";
import { defineOperation, DELETE, type Operation, type OperationAnnotations, READ, UPSERT } from "./types.ts";

/** Templates are built into govcat: nothing is read from or written to the catalog. */
const LOCAL: OperationAnnotations = {
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
};

const DATA_SOURCE_SHAPE = 'a data source object {"kind": …, "properties": {…}}';
const SCAN_SHAPE = 'a scan object {"kind": …, "properties": {…}}';

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
    const body = await readPayload(ctx, input.payloadFile, DATA_SOURCE_SHAPE) as DataSource;
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
    const deleted = await hinted(
      NOT_FOUND_HINT.dataSource,
      () => ctx.catalog().scan.deleteDataSource(input.dataSourceName, ctx.signal),
    );
    return deletedOutput(input.dataSourceName, "dataSource", deleted);
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
    const body = await readPayload(ctx, input.payloadFile, SCAN_SHAPE) as Scan;
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
    const deleted = await hinted(
      NOT_FOUND_HINT.scan,
      () => ctx.catalog().scan.deleteScan(input.dataSourceName, input.scanName, ctx.signal),
    );
    return deletedOutput(input.scanName, "scan", deleted, { dataSourceName: input.dataSourceName });
  },
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
    "in angle brackets and pass it to the command the template names (`scan templates` lists them): " +
    "putDataSource, putScan, putTrigger or putClassificationRule --payload-file.",
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
  ...SCAN_RUN_OPERATIONS,
  ...SCAN_TRIGGER_OPERATIONS,
  ...SCAN_RULE_OPERATIONS,
  ...SCAN_FILTER_OPERATIONS,
  ...KEY_VAULT_OPERATIONS,
  ...CREDENTIAL_OPERATIONS,
  ...SCAN_RULESET_OPERATIONS,
  ...SCAN_RUNTIME_OPERATIONS,
  ...SCAN_NETWORK_OPERATIONS,
  listScanTemplates,
  getScanTemplate,
];
