/**
 * The scan trigger of a scan (`…/scans/{scanName}/triggers/default`: create or replace, get, delete, and
 * `POST …/triggers/default:enable` / `:disable`, which set its state and answer it) and the account's
 * classification rules (`/scan/classificationrules/{name}`: create or replace, get, delete, list) of the
 * emulator's scanning API. Deletes answer 200 with the deleted resource, as the service does. A classification rule's `properties.version` counts its writes; each write is
 * kept as that version (filters.ts serves the versions).
 *
 * A monthly trigger without `monthDays` or `monthlyOccurrences` is stored, as the service stores it, with
 * a `validationErrorInfo` saying why it cannot fire.
 *
 * @module
 */
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { deleteRuleVersions, keepRuleVersion, ruleVersionRoutes } from "./filters.ts";
import { classificationRuleNameProblem, SCAN_LEVELS } from "./kinds.ts";
import { childParent, type StoredScanResource } from "./store.ts";
import {
  checkName,
  iso,
  isRecord,
  optionalObject,
  optionalString,
  readObjectBody,
  scanBadRequest,
  scanNotFound,
  scanPage,
} from "./support.ts";

const FREQUENCIES = ["Week", "Month", "Day", "Hour"];
const WEEK_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
/** Fields of a schedule holding whole numbers, with the values that make sense for each. */
const SCHEDULE_NUMBERS: Record<string, [number, number]> = {
  minutes: [0, 59],
  hours: [0, 23],
  monthDays: [-31, 31],
};

export function triggerRoutes(c: ScanContext): RouteDefinition[] {
  const scanPath = "/scan/datasources/{dataSourceName}/scans/{scanName}";
  const path = `${scanPath}/triggers/default`;
  /** Where the trigger of a scan is stored, with the names of its data source and scan as first written. */
  const locate = (ds: string, scan: string) => {
    const source = c.dataSource(ds);
    const stored = c.scan(ds, scan);
    return {
      parent: childParent(childParent("", source.name), stored.name),
      ds: source.name,
      scan: stored.name,
    };
  };
  const existing = (ds: string, scan: string) => {
    const at = locate(ds, scan);
    const trigger = c.store.get("trigger", at.parent, "default") ??
      fail(scanNotFound("Trigger of scan", at.scan, "TriggerNotFound"));
    return { ...at, trigger };
  };
  return [
    {
      method: "GET",
      path,
      handler: ({ params }) => {
        const { trigger, ds, scan } = existing(params.dataSourceName, params.scanName);
        return jsonResponse(triggerWire(trigger, ds, scan));
      },
    },
    {
      method: "PUT",
      path,
      handler: async (ctx) => {
        const at = locate(ctx.params.dataSourceName, ctx.params.scanName);
        const current = c.store.get("trigger", at.parent, "default");
        const body = await readObjectBody(
          ctx,
          '{"properties": {"recurrence": {…}, "scanLevel": "Incremental"}}',
        );
        const properties = { ...optionalObject(body, "properties", "properties") };
        for (const readOnly of ["createdAt", "lastModifiedAt", "lastScheduled"]) delete properties[readOnly];
        checkTriggerProperties(properties);
        const stored = c.store.put("trigger", at.parent, "default", {
          properties: { state: "Enabled", ...properties },
        }, c.deps.now());
        return jsonResponse(triggerWire(stored, at.ds, at.scan), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path,
      handler: ({ params }) => {
        const { parent, trigger, ds, scan } = existing(params.dataSourceName, params.scanName);
        c.store.delete("trigger", parent, "default");
        // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
        // ScanClientTest/ScanTriggerOperations.json (DELETE answers 200 with the trigger; the contract: 204).
        return jsonResponse(triggerWire(trigger, ds, scan), 200);
      },
    },
    {
      method: "POST",
      path: `${scanPath}/triggers/{triggerAction}`,
      handler: (ctx) => {
        const match = /^default:(enable|disable)$/.exec(ctx.params.triggerAction);
        if (!match) throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        const { trigger, parent, ds, scan } = existing(ctx.params.dataSourceName, ctx.params.scanName);
        const state = match[1] === "enable" ? "Enabled" : "Disabled";
        const properties = { ...trigger.body.properties as Record<string, unknown>, state };
        const stored = c.store.put("trigger", parent, "default", { properties }, c.deps.now());
        return jsonResponse(triggerWire(stored, ds, scan));
      },
    },
  ];
}

function checkTriggerProperties(properties: Record<string, unknown>): void {
  optionalString(properties, "state", "properties.state", ["Enabled", "Disabled"]);
  optionalString(properties, "scanLevel", "properties.scanLevel", SCAN_LEVELS);
  optionalString(properties, "recurrenceInterval", "properties.recurrenceInterval");
  checkDateTime(properties.incrementalScanStartTime, "properties.incrementalScanStartTime");
  const recurrence = optionalObject(properties, "recurrence", "properties.recurrence");
  if (!recurrence) return;
  optionalString(recurrence, "frequency", "properties.recurrence.frequency", FREQUENCIES);
  optionalString(recurrence, "timeZone", "properties.recurrence.timeZone");
  const interval = recurrence.interval;
  if (interval !== undefined && interval !== null && !(Number.isInteger(interval) && Number(interval) > 0)) {
    throw scanBadRequest(
      "properties.recurrence.interval must be a positive integer.",
      "properties.recurrence.interval",
    );
  }
  for (const field of ["startTime", "endTime"]) {
    checkDateTime(recurrence[field], `properties.recurrence.${field}`);
  }
  const schedule = optionalObject(recurrence, "schedule", "properties.recurrence.schedule");
  if (!schedule) return;
  const target = (field: string) => `properties.recurrence.schedule.${field}`;
  for (const [field, [min, max]] of Object.entries(SCHEDULE_NUMBERS)) {
    for (const value of optionalArray(schedule, field, target(field))) {
      if (!Number.isInteger(value) || Number(value) < min || Number(value) > max) {
        throw scanBadRequest(
          `${target(field)} holds ${JSON.stringify(value)}, not a whole number from ${min} to ${max}.`,
          target(field),
        );
      }
    }
  }
  for (const day of optionalArray(schedule, "weekDays", target("weekDays"))) {
    if (typeof day !== "string" || !WEEK_DAYS.includes(day)) {
      throw scanBadRequest(
        `${target("weekDays")} holds ${JSON.stringify(day)}, not one of ${WEEK_DAYS.join(", ")}.`,
        target("weekDays"),
      );
    }
  }
  const occurrences = target("monthlyOccurrences");
  for (const occurrence of optionalArray(schedule, "monthlyOccurrences", occurrences)) {
    const valid = isRecord(occurrence) && typeof occurrence.day === "string" &&
      WEEK_DAYS.includes(occurrence.day) &&
      (occurrence.occurrence === undefined || occurrence.occurrence === null ||
        Number.isInteger(occurrence.occurrence));
    if (!valid) {
      throw scanBadRequest(
        `${occurrences} entries must be {"day": "<week day>", "occurrence": <whole number>}.`,
        occurrences,
      );
    }
  }
}

function optionalArray(parent: Record<string, unknown>, field: string, target: string): unknown[] {
  const value = parent[field];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw scanBadRequest(`${target} must be an array.`, target);
  return value;
}

function checkDateTime(value: unknown, target: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) {
    throw scanBadRequest(`${target} must be a date-time.`, target);
  }
}

export function classificationRuleRoutes(c: ScanContext): RouteDefinition[] {
  const rules = "/scan/classificationrules";
  const existing = (name: string) =>
    c.store.get("rule", "", name) ??
      fail(scanNotFound("Classification rule", name, "ClassificationRuleNotFound"));
  return [
    {
      method: "GET",
      path: rules,
      handler: ({ url }) => jsonResponse(scanPage(url, c.store.list("rule", "").map(ruleWire), c.pageSize)),
    },
    {
      method: "GET",
      path: `${rules}/{classificationRuleName}`,
      handler: ({ params }) => jsonResponse(ruleWire(existing(params.classificationRuleName))),
    },
    {
      method: "PUT",
      path: `${rules}/{classificationRuleName}`,
      handler: async (ctx) => {
        const name = ctx.params.classificationRuleName;
        await checkName(ctx, name, "classification rule", classificationRuleNameProblem);
        const current = c.store.get("rule", "", name);
        const body = await readObjectBody(ctx, '{"kind": "Custom", "properties": {"classificationName": …}}');
        const kind = body.kind;
        if (kind !== "Custom" && kind !== "System") {
          throw scanBadRequest(
            `Classification rule kind ${JSON.stringify(kind)} is not System or Custom.`,
            "kind",
          );
        }
        const properties = { ...optionalObject(body, "properties", "properties") };
        for (const readOnly of ["createdAt", "lastModifiedAt", "version", "classificationAction"]) {
          delete properties[readOnly];
        }
        if (kind === "Custom") checkCustomRule(properties);
        const version =
          Number((current?.body.properties as Record<string, unknown> | undefined)?.version ?? 0) + 1;
        const stored = c.store.put("rule", "", name, {
          kind,
          properties: { ruleStatus: "Enabled", ...properties, version, classificationAction: "Keep" },
        }, c.deps.now());
        keepRuleVersion(c, stored);
        return jsonResponse(ruleWire(stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path: `${rules}/{classificationRuleName}`,
      handler: ({ params }) => {
        const rule = existing(params.classificationRuleName);
        c.store.delete("rule", "", rule.name);
        deleteRuleVersions(c, rule.name);
        // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
        // ClassificationRuleClientTest/ClassificationRuleOperations.json (DELETE answers 200 with the rule).
        return jsonResponse(ruleWire(rule), 200);
      },
    },
    ...ruleVersionRoutes(c, ruleWire),
  ];
}

function checkCustomRule(properties: Record<string, unknown>): void {
  if (typeof properties.classificationName !== "string" || properties.classificationName.trim() === "") {
    throw scanBadRequest(
      "A custom classification rule needs properties.classificationName.",
      "properties.classificationName",
    );
  }
  optionalString(properties, "ruleStatus", "properties.ruleStatus", ["Enabled", "Disabled"]);
  optionalString(properties, "description", "properties.description");
  const minimum = properties.minimumPercentageMatch;
  if (
    minimum !== undefined && minimum !== null &&
    !(typeof minimum === "number" && minimum >= 0 && minimum <= 100)
  ) {
    throw scanBadRequest(
      "properties.minimumPercentageMatch must be a number from 0 to 100.",
      "properties.minimumPercentageMatch",
    );
  }
  let patterns = 0;
  for (const field of ["columnPatterns", "dataPatterns"]) {
    const list = properties[field];
    if (list === undefined || list === null) continue;
    const target = `properties.${field}`;
    if (!Array.isArray(list)) throw scanBadRequest(`${target} must be an array of patterns.`, target);
    list.forEach((pattern, i) => {
      if (!isRecord(pattern) || pattern.kind !== "Regex" || typeof pattern.pattern !== "string") {
        throw scanBadRequest(
          `${target}[${i}] must be {"kind": "Regex", "pattern": "<regular expression>"}.`,
          target,
        );
      }
      try {
        new RegExp(pattern.pattern);
      } catch (error) {
        throw scanBadRequest(
          `${target}[${i}] is not a valid regular expression: ${(error as Error).message}`,
          target,
        );
      }
    });
    patterns += list.length;
  }
  if (patterns === 0) {
    throw scanBadRequest(
      "A custom classification rule needs at least one pattern in properties.columnPatterns or dataPatterns.",
      "properties.dataPatterns",
    );
  }
}

function triggerWire(trigger: StoredScanResource, ds: string, scan: string): Record<string, unknown> {
  const properties = trigger.body.properties as Record<string, unknown>;
  const wire: Record<string, unknown> = {
    id: `datasources/${ds}/scans/${scan}/triggers/default`,
    name: "default",
    properties: {
      recurrenceInterval: null,
      ...properties,
      ...recurrenceWire(properties.recurrence),
      createdAt: iso(trigger.createdAt),
      lastModifiedAt: iso(trigger.modifiedAt),
      // The emulator runs no schedule, so no trigger has fired yet.
      lastScheduled: null,
    },
  };
  const problem = triggerProblem(properties);
  if (problem) wire.validationErrorInfo = `Trigger is invalid: ${problem}`;
  return wire;
}

/**
 * A trigger's recurrence as the service answers it: every field of the recurrence and of its schedule, null
 * when not set (recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/ScanClientTest/ScanTriggerOperations.json).
 */
function recurrenceWire(recurrence: unknown): Record<string, unknown> {
  if (!isRecord(recurrence)) return {};
  const schedule = isRecord(recurrence.schedule)
    ? {
      minutes: null,
      hours: null,
      weekDays: null,
      monthDays: null,
      monthlyOccurrences: null,
      ...recurrence.schedule,
    }
    : recurrence.schedule;
  return { recurrence: { endTime: null, ...recurrence, schedule } };
}

/** Why a stored trigger could never fire, as the service reports it in `validationErrorInfo`. */
function triggerProblem(properties: Record<string, unknown>): string | undefined {
  const recurrence = isRecord(properties.recurrence) ? properties.recurrence : undefined;
  if (recurrence?.frequency !== "Month") return undefined;
  const schedule = isRecord(recurrence.schedule) ? recurrence.schedule : {};
  const listed = (field: string) =>
    Array.isArray(schedule[field]) && (schedule[field] as unknown[]).length > 0;
  return listed("monthDays") || listed("monthlyOccurrences")
    ? undefined
    : "monthDays or monthlyOccurrences is required.";
}

/**
 * What the service answers for a custom rule's fields left out (recorded: Azure/azure-sdk-for-net
 * sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/ClassificationRuleClientTest/
 * ClassificationRuleOperations.json and ScanningServiceClientTest/GetClassificationRules.json).
 */
const CUSTOM_RULE_DEFAULTS = {
  minimumDistinctMatchCount: null,
  minimumPercentageMatch: null,
  dataPatterns: [],
  columnPatterns: [],
  classificationRuleBloomFilter: null,
  owner: null,
  collection: null,
};

function ruleWire(rule: StoredScanResource): Record<string, unknown> {
  return {
    id: `classificationRules/${rule.name}`,
    name: rule.name,
    kind: rule.body.kind,
    properties: {
      ...(rule.body.kind === "Custom" ? CUSTOM_RULE_DEFAULTS : {}),
      ...rule.body.properties as Record<string, unknown>,
      createdAt: iso(rule.createdAt),
      lastModifiedAt: iso(rule.modifiedAt),
    },
  };
}

function fail(error: Error): never {
  throw error;
}
