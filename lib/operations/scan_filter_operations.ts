/**
 * Operations on the custom filter of a scan and on the versions of classification rules, in the `scan`
 * group: `putScanFilter` sets which paths a scan reads (`includeUriPrefixes`, `excludeUriPrefixes`, and
 * optional regular expressions) from a JSON payload file, `getScanFilter` reads it;
 * `listClassificationRuleVersions` lists a rule's versions (each write of a rule is one), and
 * `tagClassificationRuleVersion` tags one with what to do with the classifications it applied: Keep, or
 * Delete (destructive, so it asks for --confirm).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { isPlainObject } from "./payload_files.ts";
import {
  checkClassificationRuleName,
  checkName,
  classificationRuleName,
  collect,
  dataSourceName,
  hinted,
  NOT_FOUND_HINT,
  payloadFile,
  readPayload,
  scanName,
} from "./scan_inputs.ts";
import { defineOperation, type Operation, READ, UPSERT } from "./types.ts";

const FILTER_SHAPE = 'a scan filter {"properties": {"includeUriPrefixes": […], "excludeUriPrefixes": […]}}';

export const putScanFilter = defineOperation({
  id: "scan.put-scan-filter",
  group: "scan",
  command: "putScanFilter",
  aliases: ["put-scan-filter"],
  summary: "Set the custom filter of a scan (which paths it reads and skips) from a JSON payload file",
  description:
    'The payload is {"properties": {"includeUriPrefixes": ["https://<account>.blob.core.windows.net/' +
    'sales/"], "excludeUriPrefixes": [], "includeRegexes": […], "excludeRegexes": […]}}; both prefix lists ' +
    "are required (either may be empty).",
  input: z.object({ dataSourceName, scanName, payloadFile: payloadFile("scan filter") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkName("--data-source-name", input.dataSourceName);
    checkName("--scan-name", input.scanName);
    const body = await readPayload(ctx, input.payloadFile, FILTER_SHAPE);
    const properties = isPlainObject(body.properties) ? body.properties : {};
    for (const field of ["includeUriPrefixes", "excludeUriPrefixes"]) {
      if (!Array.isArray(properties[field])) {
        throw new UsageError(
          `${input.payloadFile} has no properties.${field}: the payload needs both includeUriPrefixes and ` +
            "excludeUriPrefixes (either may be an empty list).",
        );
      }
    }
    const result = await hinted(
      NOT_FOUND_HINT.scan,
      () => ctx.catalog().scan.putScanFilter(input.dataSourceName, input.scanName, body, ctx.signal),
    );
    return { created: result.created, filter: result.value };
  },
});

export const getScanFilter = defineOperation({
  id: "scan.get-scan-filter",
  group: "scan",
  command: "getScanFilter",
  aliases: ["get-scan-filter"],
  summary: "Get the custom filter of a scan: the paths it reads and skips",
  input: z.object({ dataSourceName, scanName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NOT_FOUND_HINT.scan + " A scan has a filter only once `govcat scan putScanFilter` has given it one.",
      () => ctx.catalog().scan.getScanFilter(input.dataSourceName, input.scanName, ctx.signal),
    ),
});

export const listClassificationRuleVersions = defineOperation({
  id: "scan.list-classification-rule-versions",
  group: "scan",
  command: "listClassificationRuleVersions",
  aliases: ["list-classification-rule-versions"],
  summary: "List every version of a classification rule, newest first (each write of the rule is one)",
  input: z.object({ classificationRuleName }),
  annotations: READ,
  run: (ctx, input) => {
    checkClassificationRuleName("--classification-rule-name", input.classificationRuleName);
    return hinted(
      NOT_FOUND_HINT.rule,
      () =>
        collect(
          ctx.catalog().scan.listClassificationRuleVersions(input.classificationRuleName, {
            signal: ctx.signal,
          }),
        ),
    );
  },
});

export const tagClassificationRuleVersion = defineOperation({
  id: "scan.tag-classification-rule-version",
  group: "scan",
  command: "tagClassificationRuleVersion",
  aliases: ["tag-classification-rule-version"],
  summary: "Tag a version of a classification rule: keep the classifications it applied, or delete them",
  input: z.object({
    classificationRuleName,
    version: z.number().int().positive().describe("Version to tag, as listClassificationRuleVersions shows"),
    action: z.enum(["Keep", "Delete"]).describe("Keep the version's classifications, or Delete them"),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
  run: (ctx, input) => {
    checkClassificationRuleName("--classification-rule-name", input.classificationRuleName);
    return hinted(
      NOT_FOUND_HINT.rule + " Its versions: `govcat scan listClassificationRuleVersions`.",
      () =>
        ctx.catalog().scan.tagClassificationRuleVersion(
          input.classificationRuleName,
          input.version,
          input.action,
          ctx.signal,
        ),
    );
  },
});

/** The filter and rule version operations, in the order `scan --help` lists them. */
export const SCAN_FILTER_OPERATIONS: Operation[] = [
  putScanFilter,
  getScanFilter,
  listClassificationRuleVersions,
  tagClassificationRuleVersion,
];
