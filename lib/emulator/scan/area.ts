/**
 * The scanning API of the emulator (2023-09-01), mounted at the server root: data sources
 * (`/scan/datasources/{dataSourceName}`), their scans, scan runs and history, scan triggers and
 * classification rules. Create-or-replace answers 201 for a new resource and 200 for a replaced one;
 * deletes answer 200 with the deleted resource, as Microsoft's recorded traffic shows the service doing
 * (the contract says 204; each delete route cites its recording); lists are paged as
 * `{value, count, nextLink}`. Errors use the `{"error": {code, message, target, details}}` shape.
 *
 * Data sources are checked by `kind` (the contract's discriminator values); a scan's kind must belong to
 * its data source's kind (`AzureStorageMsi` under `AzureStorage`). `properties.collection.referenceName`
 * must name an existing collection; left out, the data source goes to the root collection and a scan to
 * its data source's collection. Deleting a data source deletes its scans, their runs and triggers. A scan's
 * ruleset must exist (a custom one of its data source's kind, or the system one of that kind) and so must
 * the credential and integration runtime it names (rulesets.ts, credentials.ts,
 * runtimes.ts).
 *
 * @example
 * ```ts
 * import { createScanArea } from "./area.ts";
 * // Small pages and instant runs, for tests.
 * const area = createScanArea({ pageSize: 2, runDurationMs: 0 });
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import { CollectionStore } from "../collections/store.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteDefinition } from "../router.ts";
import { classificationRuleRoutes, triggerRoutes } from "./extras.ts";
import { checkCredentialReference, credentialRoutes, keyVaultRoutes } from "./credentials.ts";
import { filterRoutes } from "./filters.ts";
import { AZURE_RESOURCE_KINDS, DATA_SOURCE_KINDS, dataSourceKindOfScan, SCAN_KINDS } from "./kinds.ts";
import { runRoutes } from "./runs.ts";
import { checkScanRuleset, scanRulesetRoutes } from "./rulesets.ts";
import { systemRulesetRoutes } from "./system_rulesets.ts";
import { checkConnectedVia, integrationRuntimeRoutes } from "./runtimes.ts";
import { managedNetworkRoutes } from "./managed_networks.ts";
import { childParent, ScanStore, type StoredScanResource } from "./store.ts";
import {
  checkName,
  iso,
  isRecord,
  optionalObject,
  optionalString,
  readObjectBody,
  scanBadRequest,
  scanConflict,
  scanNotFound,
  scanPage,
} from "./support.ts";

/** Items per page of the list routes unless the area is built with another size. */
export const DEFAULT_SCAN_PAGE_SIZE = 100;
/**
 * How long a scan run takes, from its start to Succeeded, unless the area is built with another: long
 * enough to read a run's progress and cancel it by hand (or from a test's govcat subprocesses), short
 * enough to watch it succeed.
 */
export const DEFAULT_RUN_DURATION_MS = 30_000;

/** How to build the area. */
export interface ScanAreaOptions {
  pageSize?: number;
  /** Milliseconds from a run's start to its success; the status advances when the run is next read. */
  runDurationMs?: number;
}

/** What the route modules of the scanning area share. */
export interface ScanContext {
  deps: AreaDependencies;
  store: ScanStore;
  collections: CollectionStore;
  pageSize: number;
  runDurationMs: number;
  /** The data source, or a 404. */
  dataSource(name: string): StoredScanResource;
  /** The scan of a data source, or a 404 (for the data source first). */
  scan(dataSource: string, scan: string): StoredScanResource;
}

/** Builds the scanning area; {@link scanArea} is the one the emulator mounts. */
export function createScanArea(options: ScanAreaOptions = {}): ApiArea {
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? DEFAULT_SCAN_PAGE_SIZE));
  const runDurationMs = Math.max(0, options.runDurationMs ?? DEFAULT_RUN_DURATION_MS);
  return (deps) => {
    const store = ScanStore.open(deps.store);
    const collections = CollectionStore.open(deps.store, deps.now());
    const context: ScanContext = {
      deps,
      store,
      collections,
      pageSize,
      runDurationMs,
      dataSource: (name) =>
        store.get("datasource", "", name) ?? fail(scanNotFound("Data source", name, "DataSourceNotFound")),
      scan: (ds, scan) => {
        context.dataSource(ds);
        return store.get("scan", childParent("", ds), scan) ??
          fail(scanNotFound("Scan", scan, "ScanNotFound"));
      },
    };
    return [
      ...dataSourceRoutes(context),
      ...scanRoutes(context),
      ...runRoutes(context),
      ...triggerRoutes(context),
      ...classificationRuleRoutes(context),
      ...filterRoutes(context),
      ...keyVaultRoutes(context),
      ...credentialRoutes(context),
      ...scanRulesetRoutes(context),
      ...systemRulesetRoutes(context),
      ...integrationRuntimeRoutes(context),
      ...managedNetworkRoutes(context),
    ];
  };
}

/** Routes of the scanning API, relative to the server root (no data-map prefix). */
export const scanArea: ApiArea = createScanArea();

const DS = "/scan/datasources";

function dataSourceRoutes(c: ScanContext): RouteDefinition[] {
  return [
    {
      method: "GET",
      path: DS,
      handler: ({ url }) =>
        jsonResponse(scanPage(url, c.store.list("datasource", "").map(dataSourceWire), c.pageSize)),
    },
    {
      method: "GET",
      path: `${DS}/{dataSourceName}`,
      handler: ({ params }) => jsonResponse(dataSourceWire(c.dataSource(params.dataSourceName))),
    },
    {
      method: "PUT",
      path: `${DS}/{dataSourceName}`,
      handler: async (ctx) => {
        const name = ctx.params.dataSourceName;
        await checkName(ctx, name, "data source");
        const current = c.store.get("datasource", "", name);
        const body = await readObjectBody(ctx, '{"kind": "AzureStorage", "properties": {…}}');
        const kind = requiredKind(body, DATA_SOURCE_KINDS, "data source");
        if (current && current.body.kind !== kind && c.store.list("scan", childParent("", name)).length > 0) {
          throw scanConflict(
            `Data source '${current.name}' is of kind ${current.body.kind} and has scans; ` +
              `delete its scans before changing its kind to ${kind}.`,
            "DataSourceKindChangeNotAllowed",
            "kind",
          );
        }
        const properties = { ...optionalObject(body, "properties", "properties") };
        for (const readOnly of ["createdAt", "lastModifiedAt", "dataSourceCollectionMovingState"]) {
          delete properties[readOnly];
        }
        optionalString(properties, "resourceId", "properties.resourceId");
        optionalString(properties, "dataUseGovernance", "properties.dataUseGovernance", DATA_USE_GOVERNANCE);
        const collection = collectionReference(c, properties, c.collections.root().name);
        const now = c.deps.now();
        const stored = c.store.put("datasource", "", name, {
          kind,
          creationType:
            optionalString(body, "creationType", "creationType", ["Manual", "AutoNative", "AutoManaged"]) ??
              "Manual",
          properties: {
            ...properties,
            collection: { type: "CollectionReference", referenceName: collection },
          },
        }, now);
        return jsonResponse(dataSourceWire(stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path: `${DS}/{dataSourceName}`,
      handler: ({ params }) => {
        const source = c.dataSource(params.dataSourceName);
        c.store.delete("datasource", "", source.name);
        // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
        // DataSourceClientTest/DataSourceOperations.json (DELETE answers 200 with the data source).
        return jsonResponse(dataSourceWire(source), 200);
      },
    },
  ];
}

function scanRoutes(c: ScanContext): RouteDefinition[] {
  const scans = `${DS}/{dataSourceName}/scans`;
  return [
    {
      method: "GET",
      path: scans,
      handler: ({ params, url }) => {
        const source = c.dataSource(params.dataSourceName);
        const list = c.store.list("scan", childParent("", source.name)).map((s) => scanWire(source, s));
        return jsonResponse(scanPage(url, list, c.pageSize));
      },
    },
    {
      method: "GET",
      path: `${scans}/{scanName}`,
      handler: ({ params }) => {
        const source = c.dataSource(params.dataSourceName);
        return jsonResponse(scanWire(source, c.scan(params.dataSourceName, params.scanName)));
      },
    },
    {
      method: "PUT",
      path: `${scans}/{scanName}`,
      handler: async (ctx) => {
        const source = c.dataSource(ctx.params.dataSourceName);
        const name = ctx.params.scanName;
        await checkName(ctx, name, "scan");
        const parent = childParent("", source.name);
        const current = c.store.get("scan", parent, name);
        const body = await readObjectBody(ctx, '{"kind": "AzureStorageMsi", "properties": {…}}');
        const kind = requiredKind(body, SCAN_KINDS, "scan");
        const sourceKind = String(source.body.kind);
        if (dataSourceKindOfScan(kind) !== sourceKind) {
          const fitting = SCAN_KINDS.filter((k) => dataSourceKindOfScan(k) === sourceKind);
          throw scanBadRequest(
            `Scan kind ${kind} does not fit data source '${source.name}' of kind ${sourceKind}; ` +
              `use one of ${fitting.join(", ")}.`,
            "kind",
          );
        }
        const properties = { ...optionalObject(body, "properties", "properties") };
        for (const readOnly of ["createdAt", "lastModifiedAt"]) delete properties[readOnly];
        const ruleset = checkScanRuleset(c, properties, sourceKind);
        checkCredentialReference(c, properties);
        checkConnectedVia(c, properties);
        const sourceCollection = (source.body.properties as { collection: { referenceName: string } })
          .collection.referenceName;
        const collection = collectionReference(c, properties, sourceCollection);
        const stored = c.store.put("scan", parent, name, {
          kind,
          properties: {
            ...properties,
            ...ruleset,
            collection: { type: "CollectionReference", referenceName: collection },
          },
        }, c.deps.now());
        return jsonResponse(scanWire(source, stored), current ? 200 : 201);
      },
    },
    {
      method: "DELETE",
      path: `${scans}/{scanName}`,
      handler: ({ params }) => {
        const source = c.dataSource(params.dataSourceName);
        const scan = c.scan(params.dataSourceName, params.scanName);
        c.store.delete("scan", childParent("", params.dataSourceName), scan.name);
        // Recorded: Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/SessionRecords/
        // ScanClientTest/ScanOperations.json (DELETE answers 200 with the scan).
        return jsonResponse(scanWire(source, scan), 200);
      },
    },
  ];
}

function requiredKind(body: Record<string, unknown>, kinds: readonly string[], what: string): string {
  const kind = body.kind;
  if (kind === undefined || kind === null || kind === "") {
    throw scanBadRequest(`The ${what} needs a kind, one of ${kinds.join(", ")}.`, "kind");
  }
  if (typeof kind !== "string" || !kinds.includes(kind)) {
    throw scanBadRequest(
      `Unknown ${what} kind ${JSON.stringify(kind)}; use one of ${kinds.join(", ")}.`,
      "kind",
    );
  }
  return kind;
}

/** The collection `properties.collection.referenceName` names (it must exist), or `fallback`. */
function collectionReference(c: ScanContext, properties: Record<string, unknown>, fallback: string): string {
  const reference = properties.collection;
  if (reference === undefined || reference === null) return fallback;
  const target = "properties.collection.referenceName";
  if (!isRecord(reference) || typeof reference.referenceName !== "string" || reference.referenceName === "") {
    throw scanBadRequest(`properties.collection must be {"referenceName": "<collection name>"}.`, target);
  }
  const collection = c.collections.get(reference.referenceName);
  if (!collection) {
    throw scanBadRequest(`Collection '${reference.referenceName}' does not exist.`, target);
  }
  return collection.name;
}

/** The contract's `dataUseGovernance` values. */
const DATA_USE_GOVERNANCE = ["Disabled", "DisabledByAnotherAccount", "Enabled", "EnabledAtAncestorScope"];

/**
 * A data source as the service answers it. Beyond what was sent: `parentCollection` (null) and, as a
 * number, `dataSourceCollectionMovingState` (0; the contract says a string such as "Active") on every
 * kind; `resourceId` (null) and `dataUseGovernance` ("Disabled") unless sent on an Azure resource kind;
 * `roleARN` (null) unless sent on AmazonS3. Recorded: Azure/azure-sdk-for-js sdk/purview/
 * purview-scanning-rest/recordings/node/list_data_sources/recording_should_list_all_available_data_sources.json
 * (AzureStorage) and Azure/azure-sdk-for-net sdk/purview/Azure.Analytics.Purview.Scanning/tests/
 * SessionRecords/DataSourceClientTest/DataSourceOperations.json (AmazonS3).
 */
export function dataSourceWire(source: StoredScanResource): Record<string, unknown> {
  const properties = source.body.properties as Record<string, unknown> & { collection: object };
  const kind = String(source.body.kind);
  const defaults: Record<string, unknown> = {};
  if (AZURE_RESOURCE_KINDS.includes(kind)) {
    Object.assign(defaults, { resourceId: null, dataUseGovernance: "Disabled" });
  }
  if (kind === "AmazonS3") defaults.roleARN = null;
  return {
    id: `datasources/${source.name}`,
    name: source.name,
    kind,
    creationType: source.body.creationType ?? "Manual",
    properties: {
      ...defaults,
      ...properties,
      createdAt: iso(source.createdAt),
      lastModifiedAt: iso(source.modifiedAt),
      parentCollection: properties.parentCollection ?? null,
      collection: { ...properties.collection, lastModifiedAt: iso(source.modifiedAt) },
      dataSourceCollectionMovingState: 0,
    },
  };
}

/**
 * A scan in the contract's shape; an AmazonS3 scan also carries `roleARN` (null unless sent) and
 * `isMauiScan` (false), as the service answers (recorded: Azure/azure-sdk-for-net sdk/purview/
 * Azure.Analytics.Purview.Scanning/tests/SessionRecords/ScanClientTest/ScanOperations.json and
 * DataSourceClientTest/GetScans.json).
 */
export function scanWire(source: StoredScanResource, scan: StoredScanResource): Record<string, unknown> {
  const properties = scan.body.properties as Record<string, unknown> & { collection: object };
  const amazonS3 = String(scan.body.kind).startsWith("AmazonS3") ? { roleARN: null, isMauiScan: false } : {};
  return {
    id: `datasources/${source.name}/scans/${scan.name}`,
    name: scan.name,
    dataSourceName: source.name,
    kind: scan.body.kind,
    creationType: "Manual",
    properties: {
      ...amazonS3,
      ...properties,
      createdAt: iso(scan.createdAt),
      lastModifiedAt: iso(scan.modifiedAt),
      collection: { ...properties.collection, lastModifiedAt: iso(scan.modifiedAt) },
    },
  };
}

export function fail(error: EmulatorError): never {
  throw error;
}
