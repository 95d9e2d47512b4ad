/**
 * The set-up parts of the untyped data quality contract: a domain's alerts, schedules (and the scans that
 * run them), data sources (with connectivity tests and the credential an integration runtime fetches),
 * runtime configuration, and the data integration runtimes (with registration keys, registration and
 * health). Their bodies are untyped, so they are stored as sent (`generic.ts`); what they do beyond
 * that is said at each route.
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { KIND as ENGINE_KIND, QUALITY_ACCOUNT_ID, type QualityEngine } from "./engine.ts";
import { conflict, invalidField, notFound, objectBody, optionalObjectBody, qualityError } from "./errors.ts";
import { collectionRoutes, type GenericKit, singletonRoutes } from "./generic.ts";
import type { Doc } from "./store.ts";

const DOMAIN = "/business-domains/{businessDomainId}";
const DIRS = "/data-integration-runtimes";
const SECRET_KEY = /password|secret|key|token/i;

const KIND = {
  alert: "alert",
  schedule: "schedule",
  scan: "schedule-scan",
  dataSource: "data-source",
  runtime: "integration-runtime",
  runtimeKey: "integration-runtime-key",
  runtimeConfig: "runtime-config",
} as const;

/** The kind data sources are stored under. */
export const DATA_SOURCE_KIND: string = KIND.dataSource;

const byDomain = (ctx: RouteContext) => ctx.params.businessDomainId;

/** Alerts, schedules, scans, data sources, runtime configuration and integration runtimes. */
export function adminRoutes(engine: QualityEngine): RouteDefinition[] {
  const kit: GenericKit = { store: engine.store, now: engine.now };
  return [
    ...collectionRoutes(kit, {
      kind: KIND.alert,
      label: "alert",
      path: `${DOMAIN}/alerts`,
      idParam: "alertId",
      scope: byDomain,
      itemMethods: ["GET", "PUT", "PATCH", "DELETE"],
    }),
    ...collectionRoutes(kit, {
      kind: KIND.schedule,
      label: "schedule",
      path: `${DOMAIN}/schedules`,
      idParam: "scheduleId",
      scope: byDomain,
    }),
    ...scanRoutes(engine),
    ...collectionRoutes(kit, {
      kind: KIND.dataSource,
      label: "data source",
      path: `${DOMAIN}/data-sources`,
      idParam: "dataSourceId",
      scope: byDomain,
      present: maskSecrets,
    }),
    ...dataSourceActions(engine),
    ...singletonRoutes(kit, {
      kind: KIND.runtimeConfig,
      label: "runtime configuration",
      path: `${DOMAIN}/runtime-config`,
      scope: byDomain,
      methods: ["GET", "PUT", "POST", "DELETE"],
      fill: (ctx) => ({ businessDomainId: ctx.params.businessDomainId }),
    }),
    ...collectionRoutes(kit, {
      kind: KIND.runtime,
      label: "data integration runtime",
      path: DIRS,
      idParam: "dataIntegrationRuntimeId",
      scope: () => "",
      listFilter: (doc, query) => {
        const domain = query.get("businessDomainId");
        return !domain || doc.businessDomainId === domain;
      },
    }),
    ...runtimeActions(engine),
  ];
}

/** A data source as answered: credential values whose names say they are secret are replaced by `***`. */
function maskSecrets(doc: Doc): Doc {
  const credential = doc.credential as Doc | undefined;
  const properties = credential?.typeProperties as Doc | undefined;
  if (!properties || typeof properties !== "object") return doc;
  const masked = Object.fromEntries(
    Object.entries(properties).map(([k, v]) => [k, SECRET_KEY.test(k) && v !== null ? "***" : v]),
  );
  return { ...doc, credential: { ...credential, typeProperties: masked } };
}

function dataSourceActions(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const dataSource = (domain: string, id: string) => {
    const doc = store.get(KIND.dataSource, domain, id);
    if (!doc) throw notFound("data source", id);
    return doc;
  };
  return [
    {
      method: "POST",
      path: `${DOMAIN}/datasource-connectivity`,
      // TestConnectionRequest: the data source to try must say what it is (`type`).
      handler: async (ctx) => {
        const body = await objectBody(ctx, '{"datasource": {"type": "...", "typeProperties": {...}}}');
        const source = body.datasource as Doc | undefined;
        if (!source || typeof source !== "object" || typeof source.type !== "string" || source.type === "") {
          throw invalidField("datasource.type", "The data source to test needs a type.");
        }
        return jsonResponse("Succeeded");
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/datasource-connectivity/{datasourceID}`,
      handler: (ctx) => {
        dataSource(byDomain(ctx), ctx.params.datasourceID);
        return jsonResponse("Succeeded");
      },
    },
    {
      method: "GET",
      path: `/datasource-credentials${DIRS}/{dirId}${DOMAIN}/data-sources/{dataSourceId}`,
      // What a registered runtime fetches to connect: the data source's credential, unmasked.
      handler: (ctx) => {
        const runtime = store.get(KIND.runtime, "", ctx.params.dirId);
        if (!runtime) throw notFound("data integration runtime", ctx.params.dirId);
        if (runtime.registrationStatus !== "Registered") {
          throw qualityError(403, "RuntimeNotRegistered", `Runtime '${ctx.params.dirId}' is not registered.`);
        }
        const source = dataSource(byDomain(ctx), ctx.params.dataSourceId);
        return jsonResponse({ dataSourceId: source.id, credential: source.credential ?? null });
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/data-sources/{dataSourceId}/fetch-schema`,
      handler: async (ctx) => {
        dataSource(byDomain(ctx), ctx.params.dataSourceId);
        const body = await optionalObjectBody(ctx);
        return jsonResponse(
          JSON.stringify({ dataSourceId: ctx.params.dataSourceId, type: body.type ?? null, columns: [] }),
        );
      },
    },
  ];
}

function scanRoutes(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const SCHEDULE = `${DOMAIN}/schedules/{scheduleId}`;
  const scan = (ctx: RouteContext) => {
    const doc = store.get(KIND.scan, byDomain(ctx), ctx.params.scanId);
    if (!doc || doc.scheduleId !== ctx.params.scheduleId) throw notFound("scan", ctx.params.scanId);
    return doc;
  };
  return [
    {
      method: "POST",
      path: `${SCHEDULE}/scans`,
      handler: (ctx) => startScan(engine, ctx),
    },
    { method: "GET", path: `${SCHEDULE}/scans/{scanId}`, handler: (ctx) => jsonResponse(scan(ctx)) },
    {
      method: "POST",
      path: `${SCHEDULE}/scans/{scanId}/cancel`,
      handler: (ctx) => {
        const doc = scan(ctx);
        throw conflict(
          "ScanNotCancellable",
          `Scan '${doc.scanId}' has already finished (${doc.status}).`,
          "scanId",
        );
      },
    },
    {
      method: "GET",
      path: `${SCHEDULE}/scans/{scanId}/runs`,
      handler: (ctx) => {
        scan(ctx);
        const offset = Number(ctx.url.searchParams.get("offset") ?? 0);
        if (!Number.isInteger(offset) || offset < 0) {
          throw invalidField("offset", "offset must be a whole number ≥ 0.");
        }
        const runs = store.list(ENGINE_KIND.run, byDomain(ctx)).filter((run) =>
          run.scanId === ctx.params.scanId
        );
        return jsonResponse({ runs: runs.slice(offset), count: runs.length });
      },
    },
    {
      method: "POST",
      path: `${DOMAIN}/scans`,
      handler: async (ctx) => {
        const filter = await objectBody(ctx, '{"startTime": <epoch ms>, "endTime": <epoch ms>}');
        for (const field of ["startTime", "endTime"]) {
          if (!Number.isInteger(filter[field])) {
            throw invalidField(field, `${field} (epoch milliseconds) is required.`);
          }
        }
        const scans = store.list(KIND.scan, byDomain(ctx)).filter((s) => {
          const at = Date.parse(String(s.startTime));
          return at >= (filter.startTime as number) && at <= (filter.endTime as number);
        });
        return jsonResponse({ scans });
      },
    },
  ];
}

function runtimeActions(engine: QualityEngine): RouteDefinition[] {
  const { store } = engine;
  const ITEM = `${DIRS}/{dataIntegrationRuntimeId}`;
  const runtime = (ctx: RouteContext) => {
    const doc = store.get(KIND.runtime, "", ctx.params.dataIntegrationRuntimeId);
    if (!doc) throw notFound("data integration runtime", ctx.params.dataIntegrationRuntimeId);
    return doc;
  };
  const save = (doc: Doc, change: Doc) => {
    const next = { ...doc, ...change, lastModifiedAt: new Date(engine.now()).toISOString() };
    store.put(KIND.runtime, "", String(doc.id), next);
    return next;
  };
  return [
    {
      method: "POST",
      path: `${ITEM}/registration-key`,
      handler: (ctx) => {
        const doc = runtime(ctx);
        const key = { registrationKey: `IR@${crypto.randomUUID()}@${doc.id}@emulator` };
        store.put(KIND.runtimeKey, "", String(doc.id), key);
        return jsonResponse(key);
      },
    },
    {
      method: "POST",
      path: `${ITEM}/revoke-registration-key`,
      handler: (ctx) => {
        const doc = runtime(ctx);
        const revoked = store.remove(KIND.runtimeKey, "", String(doc.id));
        return jsonResponse({ revoked });
      },
    },
    {
      method: "POST",
      path: `${ITEM}/registration`,
      // Registers with the key `registration-key` made; a wrong or revoked key is refused.
      handler: async (ctx) => {
        const doc = runtime(ctx);
        const body = await objectBody(ctx, '{"registrationKey": "<key from registration-key>"}');
        const key = store.get(KIND.runtimeKey, "", String(doc.id));
        if (!key || body.registrationKey !== key.registrationKey) {
          throw invalidField("registrationKey", "The registration key is not this runtime's current key.");
        }
        return jsonResponse(save(doc, { registrationStatus: "Registered", nodeName: body.nodeName ?? null }));
      },
    },
    {
      method: "POST",
      path: `${ITEM}/de-registration`,
      handler: (ctx) => jsonResponse(save(runtime(ctx), { registrationStatus: "NotRegistered" })),
    },
    {
      method: "PUT",
      path: `${ITEM}/health`,
      handler: async (ctx) => {
        const doc = runtime(ctx);
        const body = await objectBody(ctx, '{"healthStatus": "Healthy", "dirVersion": "..."}');
        if (typeof body.healthStatus !== "string" || body.healthStatus === "") {
          throw invalidField("healthStatus", "healthStatus is required (e.g. Healthy).");
        }
        return jsonResponse(
          save(doc, { healthStatus: body.healthStatus, dirVersion: body.dirVersion ?? null }),
        );
      },
    },
  ];
}

/**
 * Starts a scan of a schedule: runs every asset the schedule lists in `dataAssets: [{dataProductId,
 * dataAssetId}]`, now, and stores the scan with its counts (a disabled or malformed entry is skipped).
 */
async function startScan(engine: QualityEngine, ctx: RouteContext): Promise<Response> {
  const { store } = engine;
  const domain = byDomain(ctx);
  const schedule = store.get(KIND.schedule, domain, ctx.params.scheduleId);
  if (!schedule) throw notFound("schedule", ctx.params.scheduleId);
  const body = await optionalObjectBody(ctx);
  const scanId = crypto.randomUUID();
  const at = new Date(engine.now()).toISOString();
  const assets = Array.isArray(schedule.dataAssets) ? schedule.dataAssets as Doc[] : [];
  const counts = { succeeded: 0, failed: 0, skipped: 0 };
  for (const asset of assets) {
    if (typeof asset?.dataProductId !== "string" || typeof asset?.dataAssetId !== "string") {
      counts.skipped++;
      continue;
    }
    const scope = {
      businessDomainId: domain,
      dataProductId: asset.dataProductId,
      dataAssetId: asset.dataAssetId,
    };
    try {
      const run = engine.run(scope, { scheduleId: schedule.id, scanId });
      if (run.status === "Succeeded") counts.succeeded++;
      else counts.failed++;
    } catch {
      counts.skipped++; // a disabled asset
    }
  }
  store.put(KIND.scan, domain, scanId, {
    scanId,
    scheduleId: schedule.id,
    scheduleName: schedule.name ?? null,
    businessDomainId: domain,
    accountId: QUALITY_ACCOUNT_ID,
    scanType: typeof body.scanType === "string" ? body.scanType : "Manual",
    startedBy: "emulator",
    startTime: at,
    endTime: at,
    ...counts,
    totalJobCount: assets.length,
    status: counts.failed > 0 ? "Failed" : "Succeeded",
  });
  return jsonResponse(scanId);
}
