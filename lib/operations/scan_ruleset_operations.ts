/**
 * Operations on scan rulesets, in the `scan` group: the account's custom rulesets (put from a JSON payload
 * file, get, list, delete; a scan names one with `"scanRulesetName": <name>, "scanRulesetType": "Custom"`)
 * and the service's system rulesets (list, by data source type, the versions of one, one version, the
 * latest), which are read-only.
 *
 * @module
 */
import { DATA_SOURCE_KINDS } from "../catalog/scan_types.ts";
import type { ScanRuleset } from "../catalog/scan_resource_types.ts";
import { z } from "../deps/zod.ts";
import { collect, hinted } from "./scan_inputs.ts";
import { resourceOperations } from "./scan_resource_operations.ts";
import { defineOperation, type Operation, READ } from "./types.ts";

const SYSTEM_HINT = "A system scan ruleset exists for each data source kind: " +
  "`govcat scan listSystemScanRulesets` lists them.";

const dataSourceType = z.string().min(1).describe(
  "Data source type whose system scan ruleset to read (AzureStorage, AdlsGen2, AzureSqlDatabase, …)",
);

export const CUSTOM_RULESET_OPERATIONS: Operation[] = resourceOperations<ScanRuleset>({
  kebab: "scan-ruleset",
  camel: "ScanRuleset",
  camelPlural: "ScanRulesets",
  nameField: "scanRulesetName",
  noun: "scan ruleset",
  summaries: {
    put: "Create a custom scan ruleset (file types to read, classifications to apply), or replace the " +
      "one with this name, from a JSON payload file",
    get: "Get a custom scan ruleset: its kind, scanning rule, classifications and version",
    list: "List every custom scan ruleset of the account (all pages)",
    delete: "Delete a custom scan ruleset",
  },
  description: 'The payload is {"kind": "<data source kind>", "properties": {"scanningRule": ' +
    '{"fileExtensions": ["CSV", "PARQUET"]}, "excludedSystemClassifications": […], ' +
    '"includedCustomClassificationRuleNames": […]}}. A scan uses it with "scanRulesetName": "<name>", ' +
    '"scanRulesetType": "Custom"; its data source must be of the same kind. Each write raises its version.',
  shape: 'a scan ruleset {"kind": …, "properties": {…}}',
  kinds: DATA_SOURCE_KINDS,
  hint: "Check the name with `govcat scan listScanRulesets`.",
  api: {
    put: (scan, name, body, signal) => scan.putScanRuleset(name, body, signal),
    get: (scan, name, signal) => scan.getScanRuleset(name, signal),
    list: (scan, signal) => scan.listScanRulesets({ signal }),
    delete: (scan, name, signal) => scan.deleteScanRuleset(name, signal),
  },
});

export const listSystemScanRulesets = defineOperation({
  id: "scan.list-system-scan-rulesets",
  group: "scan",
  command: "listSystemScanRulesets",
  aliases: ["list-system-scan-rulesets"],
  summary: "List the service's system scan rulesets, the latest of each data source type (all pages)",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => collect(ctx.catalog().scan.listSystemScanRulesets({ signal: ctx.signal })),
});

export const getSystemScanRuleset = defineOperation({
  id: "scan.get-system-scan-ruleset",
  group: "scan",
  command: "getSystemScanRuleset",
  aliases: ["get-system-scan-ruleset"],
  summary: "Get the system scan ruleset of a data source type",
  input: z.object({ dataSourceType }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(SYSTEM_HINT, () => ctx.catalog().scan.getSystemScanRuleset(input.dataSourceType, ctx.signal)),
});

export const listSystemScanRulesetVersions = defineOperation({
  id: "scan.list-system-scan-ruleset-versions",
  group: "scan",
  command: "listSystemScanRulesetVersions",
  aliases: ["list-system-scan-ruleset-versions"],
  summary: "List every version of the system scan ruleset of a data source type, newest first",
  input: z.object({ dataSourceType }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      SYSTEM_HINT,
      () =>
        collect(
          ctx.catalog().scan.listSystemScanRulesetVersions(input.dataSourceType, { signal: ctx.signal }),
        ),
    ),
});

export const getSystemScanRulesetVersion = defineOperation({
  id: "scan.get-system-scan-ruleset-version",
  group: "scan",
  command: "getSystemScanRulesetVersion",
  aliases: ["get-system-scan-ruleset-version"],
  summary: "Get one version of the system scan ruleset of a data source type",
  input: z.object({
    dataSourceType,
    version: z.number().int().positive().describe(
      "Version number, as listSystemScanRulesetVersions shows",
    ),
  }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      SYSTEM_HINT,
      () => ctx.catalog().scan.getSystemScanRulesetVersion(input.version, input.dataSourceType, ctx.signal),
    ),
});

export const getLatestSystemScanRuleset = defineOperation({
  id: "scan.get-latest-system-scan-ruleset",
  group: "scan",
  command: "getLatestSystemScanRuleset",
  aliases: ["get-latest-system-scan-ruleset"],
  summary: "Get the latest version of the system scan ruleset of a data source type",
  input: z.object({ dataSourceType }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      SYSTEM_HINT,
      () => ctx.catalog().scan.getLatestSystemScanRuleset(input.dataSourceType, ctx.signal),
    ),
});

/** The scan ruleset operations, in the order `scan --help` lists them. */
export const SCAN_RULESET_OPERATIONS: Operation[] = [
  ...CUSTOM_RULESET_OPERATIONS,
  listSystemScanRulesets,
  getSystemScanRuleset,
  listSystemScanRulesetVersions,
  getSystemScanRulesetVersion,
  getLatestSystemScanRuleset,
];
