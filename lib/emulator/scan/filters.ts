/**
 * The custom scan filter of a scan (`…/scans/{scanName}/filters/custom`: create or replace, get) and the
 * versions of the account's classification rules (`/scan/classificationrules/{name}/versions`: list, newest
 * first; `POST …/versions/{version}:tag?action=Keep|Delete`, or `…/versions/{version}/:tag` as Microsoft's
 * SDK sends it: 202, sets the version's `classificationAction`) of the emulator's scanning API.
 *
 * A filter needs `includeUriPrefixes` and `excludeUriPrefixes` (either may be empty), each a list of
 * distinct strings; `includeRegexes` and `excludeRegexes` must be valid regular expressions. It goes with
 * its scan when the scan is deleted. Every write of a classification rule keeps a copy as that version
 * ({@link keepRuleVersion}); deleting the rule deletes its versions.
 *
 * @module
 */
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { childParent, type StoredScanResource } from "./store.ts";
import { iso, optionalObject, readObjectBody, scanBadRequest, scanNotFound, scanPage } from "./support.ts";

const TAG_ACTIONS = ["Keep", "Delete"];

export function filterRoutes(c: ScanContext): RouteDefinition[] {
  const path = "/scan/datasources/{dataSourceName}/scans/{scanName}/filters/custom";
  const locate = (ds: string, scan: string) => {
    const source = c.dataSource(ds);
    const stored = c.scan(ds, scan);
    return {
      parent: childParent(childParent("", source.name), stored.name),
      ds: source.name,
      scan: stored.name,
    };
  };
  const wire = (filter: StoredScanResource, ds: string, scan: string) => ({
    id: `datasources/${ds}/scans/${scan}/filters/custom`,
    name: "custom",
    properties: {
      ...filter.body.properties as Record<string, unknown>,
      createdAt: iso(filter.createdAt),
      lastModifiedAt: iso(filter.modifiedAt),
    },
  });
  return [
    {
      method: "GET",
      path,
      handler: ({ params }) => {
        const at = locate(params.dataSourceName, params.scanName);
        const filter = c.store.get("filter", at.parent, "custom") ??
          fail(scanNotFound("Custom filter of scan", at.scan, "FilterNotFound"));
        return jsonResponse(wire(filter, at.ds, at.scan));
      },
    },
    {
      method: "PUT",
      path,
      handler: async (ctx) => {
        const at = locate(ctx.params.dataSourceName, ctx.params.scanName);
        const current = c.store.get("filter", at.parent, "custom");
        const body = await readObjectBody(
          ctx,
          '{"properties": {"includeUriPrefixes": […], "excludeUriPrefixes": […]}}',
        );
        const sent = optionalObject(body, "properties", "properties") ?? {};
        const properties: Record<string, unknown> = {};
        for (
          const field of ["includeUriPrefixes", "excludeUriPrefixes", "includeRegexes", "excludeRegexes"]
        ) {
          const required = field.endsWith("UriPrefixes");
          const list = strings(sent[field], `properties.${field}`, required);
          if (list === undefined) continue;
          if (field.endsWith("Regexes")) {
            for (const pattern of list) {
              try {
                new RegExp(pattern);
              } catch (error) {
                throw scanBadRequest(
                  `properties.${field} holds an invalid regular expression: ${(error as Error).message}`,
                  `properties.${field}`,
                );
              }
            }
          }
          properties[field] = list;
        }
        const stored = c.store.put("filter", at.parent, "custom", { properties }, c.deps.now());
        return jsonResponse(wire(stored, at.ds, at.scan), current ? 200 : 201);
      },
    },
  ];
}

function strings(value: unknown, target: string, required: boolean): string[] | undefined {
  if (value === undefined || value === null) {
    if (required) throw scanBadRequest(`${target} is required (it may be an empty list).`, target);
    return undefined;
  }
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw scanBadRequest(`${target} must be an array of strings.`, target);
  }
  if (new Set(value).size !== value.length) throw scanBadRequest(`${target} lists a value twice.`, target);
  return value as string[];
}

/** Where the versions of a classification rule are kept (apart from data sources' children). */
function versionsOf(rule: string): string {
  return `rule:${rule.toLowerCase()}`;
}

/** Keeps a copy of a classification rule as written, as its version `properties.version`. */
export function keepRuleVersion(c: ScanContext, rule: StoredScanResource): void {
  const version = String((rule.body.properties as Record<string, unknown>).version);
  c.store.put(
    "ruleversion",
    versionsOf(rule.name),
    version,
    { ...rule.body, ruleName: rule.name },
    rule.modifiedAt,
  );
}

/** Deletes the versions of a classification rule. */
export function deleteRuleVersions(c: ScanContext, rule: string): void {
  for (const version of c.store.list("ruleversion", versionsOf(rule))) {
    c.store.delete("ruleversion", versionsOf(rule), version.name);
  }
}

export function ruleVersionRoutes(
  c: ScanContext,
  ruleWire: (rule: StoredScanResource) => Record<string, unknown>,
): RouteDefinition[] {
  const rules = "/scan/classificationrules";
  const rule = (name: string) =>
    c.store.get("rule", "", name) ??
      fail(scanNotFound("Classification rule", name, "ClassificationRuleNotFound"));
  const asRule = (version: StoredScanResource): StoredScanResource => ({
    ...version,
    name: String(version.body.ruleName),
    body: { kind: version.body.kind, properties: version.body.properties },
  });
  return [
    {
      method: "GET",
      path: `${rules}/{classificationRuleName}/versions`,
      handler: ({ params, url }) => {
        const current = rule(params.classificationRuleName);
        const versions = c.store.list("ruleversion", versionsOf(current.name))
          .sort((a, b) => Number(b.name) - Number(a.name))
          .map((version) => ruleWire(asRule(version)));
        return jsonResponse(scanPage(url, versions, c.pageSize));
      },
    },
    {
      method: "POST",
      path: `${rules}/{classificationRuleName}/versions/{versionAction}`,
      handler: (ctx) => {
        const match = /^(.+):tag$/.exec(ctx.params.versionAction);
        if (!match) throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        return tag(ctx, match[1]);
      },
    },
    {
      // The form Microsoft's SDK sends, `…/versions/2/:tag` (recorded: Azure/azure-sdk-for-net sdk/purview/
      // Azure.Analytics.Purview.Scanning/tests/SessionRecords/ClassificationRuleClientTest/
      // ClassificationRuleOperations.json, answered 202), which the contract's own Operation-Location names.
      method: "POST",
      path: `${rules}/{classificationRuleName}/versions/{classificationRuleVersion}/{tagAction}`,
      handler: (ctx) => {
        if (ctx.params.tagAction !== ":tag") throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        return tag(ctx, ctx.params.classificationRuleVersion);
      },
    },
  ];

  /** Tags version `versionText` of the route's rule with the `action` query parameter (Keep or Delete). */
  async function tag(ctx: RouteContext, versionText: string): Promise<Response> {
    await ctx.request.body?.cancel();
    const current = rule(ctx.params.classificationRuleName);
    if (!/^\d{1,9}$/.test(versionText)) {
      throw scanBadRequest(`Version '${versionText}' is not a whole number.`, "classificationRuleVersion");
    }
    const action = ctx.url.searchParams.get("action");
    if (!action || !TAG_ACTIONS.includes(action)) {
      throw scanBadRequest(
        `The action query parameter must be ${TAG_ACTIONS.join(" or ")}${action ? `, not '${action}'` : ""}.`,
        "action",
      );
    }
    const parent = versionsOf(current.name);
    const number = Number(versionText);
    const version = c.store.get("ruleversion", parent, String(number)) ??
      fail(
        scanNotFound(
          `Version ${number} of classification rule`,
          current.name,
          "ClassificationRuleVersionNotFound",
        ),
      );
    const tagged = (body: Record<string, unknown>) => ({
      ...body,
      properties: { ...body.properties as Record<string, unknown>, classificationAction: action },
    });
    c.store.put("ruleversion", parent, version.name, tagged(version.body), c.deps.now());
    if (String((current.body.properties as Record<string, unknown>).version) === version.name) {
      c.store.put("rule", "", current.name, tagged(current.body), current.modifiedAt);
    }
    const location = new URL(
      `${rules}/${encodeURIComponent(current.name)}/versions/${version.name}/:tag`,
      ctx.url.origin,
    );
    const apiVersion = ctx.url.searchParams.get("api-version");
    if (apiVersion) location.searchParams.set("api-version", apiVersion);
    // The service answers the whole OperationResponse, its other fields null (the recording above).
    const response = jsonResponse(
      { scanResultId: null, startTime: null, endTime: null, status: "Accepted", error: null },
      202,
    );
    response.headers.set("Operation-Location", location.toString());
    return response;
  }
}

function fail(error: Error): never {
  throw error;
}
