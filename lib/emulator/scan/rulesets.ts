/**
 * The account's custom scan rulesets in the emulator's scanning API (`/scan/scanrulesets/{name}`: create or
 * replace, get, list, delete, which answers the deleted ruleset; `version` counts their writes); the
 * service's system ones are in system_rulesets.ts.
 *
 * A scan names its ruleset (`properties.scanRulesetName` and `scanRulesetType`): a custom ruleset must
 * exist and be of its data source's kind, a system ruleset is the one of its data source's kind
 * ({@link checkScanRuleset}); anything else is refused as the service refuses it, a 400 naming the field.
 *
 * @module
 */
import type { RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { namedResourceRoutes, writableProperties } from "./credentials.ts";
import { FILE_EXTENSIONS, RULESET_KINDS } from "./kinds.ts";
import type { StoredScanResource } from "./store.ts";
import { temporaryResourceFilters } from "./system_rulesets.ts";
import { iso, isRecord, optionalString, scanBadRequest } from "./support.ts";

export function scanRulesetRoutes(c: ScanContext): RouteDefinition[] {
  return namedResourceRoutes(c, {
    kind: "ruleset",
    path: "/scan/scanrulesets",
    param: "scanRulesetName",
    what: "Scan ruleset",
    notFoundCode: "ScanRulesetNotFound",
    example: '{"kind": "AzureStorage", "properties": {"scanningRule": {…}, …}}',
    // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
    // ScanningServiceClientTest/ScanRulesOperations.json (DELETE answers 200 with the ruleset).
    deleteAnswersResource: true,
    accept: (body, current) => {
      const kind = body.kind;
      if (typeof kind !== "string" || !RULESET_KINDS.includes(kind)) {
        throw scanBadRequest(
          `Scan ruleset kind ${JSON.stringify(kind ?? null)} is not one of ${RULESET_KINDS.join(", ")}.`,
          "kind",
        );
      }
      optionalString(body, "scanRulesetType", "scanRulesetType", ["Custom"]);
      const properties = writableProperties(body);
      optionalString(properties, "description", "properties.description");
      for (const field of ["excludedSystemClassifications", "includedCustomClassificationRuleNames"]) {
        stringList(properties[field], `properties.${field}`);
      }
      const rule = properties.scanningRule;
      if (rule !== undefined && rule !== null) {
        if (!isRecord(rule)) {
          throw scanBadRequest("properties.scanningRule must be an object.", "properties.scanningRule");
        }
        for (const extension of stringList(rule.fileExtensions, "properties.scanningRule.fileExtensions")) {
          if (!FILE_EXTENSIONS.includes(extension)) {
            throw scanBadRequest(
              `properties.scanningRule.fileExtensions holds '${extension}', not one of ${
                FILE_EXTENSIONS.join(", ")
              }.`,
              "properties.scanningRule.fileExtensions",
            );
          }
        }
        const custom = rule.customFileExtensions;
        if (custom !== undefined && custom !== null && !Array.isArray(custom)) {
          throw scanBadRequest(
            "properties.scanningRule.customFileExtensions must be an array.",
            "properties.scanningRule.customFileExtensions",
          );
        }
      }
      const version = Number(current?.body.version ?? 0) + 1;
      return { kind, version, properties };
    },
    wire: rulesetWire,
  });
}

function stringList(value: unknown, target: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw scanBadRequest(`${target} must be an array of strings.`, target);
  }
  if (new Set(value).size !== value.length) throw scanBadRequest(`${target} lists a value twice.`, target);
  return value as string[];
}

/**
 * A custom ruleset as the service answers it: besides what was sent, `collection` and (when unset)
 * `temporaryResourceFilters` as its kind's system ruleset has them, and `description`,
 * `excludedSystemClassifications`, `includedCustomClassificationRuleNames` and
 * `scanningRule.customFileExtensions` null when not sent (recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/ScanningServiceClientTest/ScanRulesOperations.json).
 */
function rulesetWire(stored: StoredScanResource): Record<string, unknown> {
  const kind = String(stored.body.kind);
  const properties = stored.body.properties as Record<string, unknown>;
  const rule = isRecord(properties.scanningRule)
    ? { scanningRule: { customFileExtensions: null, ...properties.scanningRule } }
    : {};
  return {
    id: `scanrulesets/${stored.name}`,
    name: stored.name,
    kind,
    scanRulesetType: "Custom",
    status: "Enabled",
    version: stored.body.version,
    properties: {
      collection: null,
      description: null,
      excludedSystemClassifications: null,
      includedCustomClassificationRuleNames: null,
      temporaryResourceFilters: temporaryResourceFilters(kind),
      ...properties,
      ...rule,
      createdAt: iso(stored.createdAt),
      lastModifiedAt: iso(stored.modifiedAt),
    },
  };
}

/**
 * Checks the ruleset a scan names and fills in what is left out: no name means the system ruleset of the
 * data source's kind; a name without a type is a custom ruleset when one has that name, else a system one.
 */
export function checkScanRuleset(
  c: ScanContext,
  properties: Record<string, unknown>,
  sourceKind: string,
): { scanRulesetName: string; scanRulesetType: string } {
  const name = optionalString(properties, "scanRulesetName", "properties.scanRulesetName");
  let type = optionalString(properties, "scanRulesetType", "properties.scanRulesetType", [
    "Custom",
    "System",
  ]);
  if (!name) {
    if (type === "Custom") {
      throw scanBadRequest(
        "A scan with a custom ruleset needs properties.scanRulesetName.",
        "properties.scanRulesetName",
      );
    }
    return { scanRulesetName: sourceKind, scanRulesetType: "System" };
  }
  const custom = c.store.get("ruleset", "", name);
  type ??= custom ? "Custom" : "System";
  const target = "properties.scanRulesetName";
  if (type === "Custom") {
    if (!custom) {
      throw scanBadRequest(
        `Scan ruleset '${name}' does not exist; create it first (PUT /scan/scanrulesets/{name}) or name ` +
          `the system ruleset ${sourceKind} with scanRulesetType System.`,
        target,
      );
    }
    if (custom.body.kind !== sourceKind) {
      throw scanBadRequest(
        `Scan ruleset '${custom.name}' is for ${custom.body.kind} data sources, not ${sourceKind}.`,
        target,
      );
    }
    return { scanRulesetName: custom.name, scanRulesetType: "Custom" };
  }
  if (name.toLowerCase() !== sourceKind.toLowerCase()) {
    throw scanBadRequest(
      `There is no system scan ruleset '${name}' for ${sourceKind} data sources; the system ruleset of ` +
        `this data source is ${sourceKind}.`,
      target,
    );
  }
  return { scanRulesetName: sourceKind, scanRulesetType: "System" };
}
