/**
 * The scan trigger of a scan (`…/scans/{scanName}/triggers/default`: create or replace, get, delete) and
 * the account's classification rules (`/scan/classificationrules/{name}`: create or replace, get, delete,
 * list) of the emulator's scanning API. A classification rule's `properties.version` counts its writes.
 *
 * @module
 */
import { jsonResponse } from "./errors.ts";
import type { RouteDefinition } from "./router.ts";
import type { ScanContext } from "./scan_area.ts";
import { SCAN_LEVELS } from "./scan_kinds.ts";
import { childParent, type StoredScanResource } from "./scan_store.ts";
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
} from "./scan_support.ts";

const FREQUENCIES = ["Week", "Month", "Day", "Hour"];

export function triggerRoutes(c: ScanContext): RouteDefinition[] {
  const path = "/scan/datasources/{dataSourceName}/scans/{scanName}/triggers/default";
  const parentOf = (ds: string, scan: string) => {
    const stored = c.scan(ds, scan);
    return childParent(childParent("", ds), stored.name);
  };
  const existing = (ds: string, scan: string) =>
    c.store.get("trigger", parentOf(ds, scan), "default") ??
      fail(scanNotFound("Trigger of scan", scan, "TriggerNotFound"));
  return [
    {
      method: "GET",
      path,
      handler: ({ params }) => jsonResponse(triggerWire(existing(params.dataSourceName, params.scanName))),
    },
    {
      method: "PUT",
      path,
      handler: async (ctx) => {
        const parent = parentOf(ctx.params.dataSourceName, ctx.params.scanName);
        const current = c.store.get("trigger", parent, "default");
        const body = await readObjectBody(
          ctx,
          '{"properties": {"recurrence": {…}, "scanLevel": "Incremental"}}',
        );
        const properties = { ...optionalObject(body, "properties", "properties") };
        for (const readOnly of ["createdAt", "lastModifiedAt", "lastScheduled"]) delete properties[readOnly];
        optionalString(properties, "state", "properties.state", ["Enabled", "Disabled"]);
        optionalString(properties, "scanLevel", "properties.scanLevel", SCAN_LEVELS);
        const recurrence = optionalObject(properties, "recurrence", "properties.recurrence");
        if (recurrence) {
          optionalString(recurrence, "frequency", "properties.recurrence.frequency", FREQUENCIES);
          const interval = recurrence.interval;
          if (
            interval !== undefined && interval !== null &&
            !(Number.isInteger(interval) && Number(interval) > 0)
          ) {
            throw scanBadRequest("properties.recurrence.interval must be a positive integer.", "interval");
          }
          for (const field of ["startTime", "endTime"]) {
            const value = recurrence[field];
            if (value !== undefined && value !== null && Number.isNaN(Date.parse(String(value)))) {
              throw scanBadRequest(`properties.recurrence.${field} must be a date-time.`, field);
            }
          }
        }
        const stored = c.store.put("trigger", parent, "default", {
          properties: { state: "Enabled", ...properties },
        }, c.deps.now());
        return jsonResponse(triggerWire(stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path,
      handler: ({ params }) => {
        existing(params.dataSourceName, params.scanName);
        c.store.delete("trigger", parentOf(params.dataSourceName, params.scanName), "default");
        return new Response(null, { status: 204 });
      },
    },
  ];
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
        await checkName(ctx, name, "classification rule");
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
        return jsonResponse(ruleWire(stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path: `${rules}/{classificationRuleName}`,
      handler: ({ params }) => {
        const rule = existing(params.classificationRuleName);
        c.store.delete("rule", "", rule.name);
        return new Response(null, { status: 204 });
      },
    },
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

function triggerWire(trigger: StoredScanResource): Record<string, unknown> {
  return {
    id: "default",
    name: "default",
    properties: {
      ...trigger.body.properties as Record<string, unknown>,
      createdAt: iso(trigger.createdAt),
      lastModifiedAt: iso(trigger.modifiedAt),
    },
  };
}

function ruleWire(rule: StoredScanResource): Record<string, unknown> {
  return {
    id: `classificationrules/${rule.name}`,
    name: rule.name,
    kind: rule.body.kind,
    properties: {
      ...rule.body.properties as Record<string, unknown>,
      createdAt: iso(rule.createdAt),
      lastModifiedAt: iso(rule.modifiedAt),
    },
  };
}

function fail(error: Error): never {
  throw error;
}
