/**
 * Starts the catalog emulator: an HTTP server on 127.0.0.1 serving the Purview data-map API under both
 * `/catalog/api` and `/datamap/api`, backed by SQLite, with fault injection on every API request and the
 * `/_emulator` admin endpoints beside it.
 *
 * @example
 * ```ts
 * import { startEmulator } from "./server.ts";
 * const emulator = await startEmulator({ seed: true });
 * const res = await fetch(`${emulator.url}/datamap/api/search/query?api-version=2023-09-01`, {
 *   method: "POST",
 *   body: JSON.stringify({ keywords: "customers" }),
 * });
 * console.log((await res.json())["@search.count"]);
 * await emulator.close();
 * ```
 *
 * @module
 */
import { type Logger, silentLogger } from "../core/log.ts";
import { accountArea } from "./account/area.ts";
import { collectionsArea } from "./collections/area.ts";
import { scanArea } from "./scan/area.ts";
import { workflowArea } from "./workflow/area.ts";
import { glossaryArea } from "./glossary/area.ts";
import { lineageArea } from "./lineage/area.ts";
import { ADMIN_PREFIX, adminArea } from "./admin.ts";
import type { AreaDependencies } from "./area.ts";
import { entityArea } from "./entity/area.ts";
import { searchArea } from "./search/area.ts";
import { relationshipArea } from "./relationship/area.ts";
import { policyArea } from "./policy/area.ts";
import { EmulatorError, errorResponse, errorStyleForPath, faultError } from "./errors.ts";
import type { FaultSettings } from "./fault_settings.ts";
import { type FaultController, type FaultDecision, FaultInjector } from "./faults.ts";
import {
  DEFAULT_LISTEN_LIMITS,
  type GuardedServer,
  type ListenLimits,
  serveGuarded,
} from "../net/net_guard.ts";
import { readJsonBody, rebasedRoutes, Router, withAtlasV2Aliases } from "./router.ts";
import { refusedResponse } from "./request_guard.ts";
import { CollectionPermissions } from "./collection_permissions.ts";
import { readSeedSource } from "./seed.ts";
import { loadSeedAreas } from "./seed_areas.ts";
import { EntityStore } from "./store.ts";
import { typedefArea } from "./types/area.ts";
import { createTypeSystem } from "./types/system.ts";
import { unifiedCatalogArea } from "./unified/area.ts";
import { QUALITY_PREFIX, qualityArea } from "./quality/area.ts";

/** The emulator's connection bounds: the MCP server's, with four times its requests in flight. */
export const EMULATOR_LISTEN_LIMITS: ListenLimits = {
  ...DEFAULT_LISTEN_LIMITS,
  maxInflight: 4 * DEFAULT_LISTEN_LIMITS.maxInflight,
};

/** How to start the emulator. */
export interface EmulatorOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** SQLite file holding the catalog; absent means in-memory (gone on close). */
  dataFile?: string;
  /** `true` seeds from `fixtures/emulator/seed.json`, a string from that file; only when the store is empty. */
  seed?: boolean | string;
  /** Faults active from the start. */
  faults?: Partial<FaultSettings>;
  /** Receives one debug line per request; silent by default. */
  logger?: Logger;
  /**
   * Team mode: each API request must carry a bearer token, and the collection roles of the policy store
   * decide what its caller (the token's `oid`) may do (lib/emulator/collection_permissions.ts). `admins`
   * (object ids) hold every role on the root collection from the start, beside the emulator's own user.
   */
  roles?: boolean | RolesOptions;
}

/** Team mode's start: who the account's first administrators are, and who calls without a token. */
export interface RolesOptions {
  /** Object ids given every role on the root collection, as the account's creator has them. */
  admins?: readonly string[];
  /**
   * The object id a request without a bearer token acts as; without it such a request gets 401. govcat
   * sends no token to a loopback catalog, so this is how its CLI acts as a given user against the emulator.
   */
  callerWithoutToken?: string;
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234`; API paths start with `/datamap/api` or `/catalog/api`. */
  url: string;
  port: number;
  /** The data file, or `:memory:`. */
  dataLocation: string;
  /** Fault injection and request statistics, in process. */
  faults: FaultController;
  /** Number of entities stored now. */
  entityCount(): number;
  /** Stops the server (waiting for requests in flight) and closes the database. */
  close(): Promise<void>;
}

/** The API prefixes the service serves the Atlas and discovery routes under. */
export const API_PREFIXES = ["/catalog/api", "/datamap/api"] as const;

/** Route families served, for start-up messages. */
export const ROUTE_FAMILIES = [
  "/atlas/v2/entity (create, bulk, guid, uniqueAttribute)",
  "/search/query, /search/suggest, /search/autocomplete, /browse",
  "/atlas/v2/types (typedefs, headers, {category}def by name and guid, bulk create, update, delete)",
  "/atlas/v2/relationship (create, update, guid)",
  "/atlas/v2/glossary (glossaries, categories, terms, assignments; term CSV import with status)",
  "/atlas/v2/lineage (guid, uniqueAttribute; next page under /lineage)",
  "/account (account properties; collections, child names, path; no prefix), /collections (the same collections)",
  "/, /listkeys, /regeneratekeys (the account and its keys at the root, as the service answers them)",
  "/scan (data sources, scans, runs, filters, triggers, rule sets, classification rules, credentials, key vaults, " +
  "integration runtimes, managed virtual networks; no prefix)",
  "/datagovernance/catalog (unified catalog: domains, terms, data products, critical data elements, OKRs, " +
  "policies, data assets and columns; no prefix)",
  "/policyStore (metadata roles; each collection's metadata policy: list, get, update)",
  "/workflow (workflows, user requests, runs, tasks and approvals)",
  "/purviewdataquality/api (data quality: rules, runs, scores, observations, schedules, data sources, ...)",
] as const;

/**
 * Starts the emulator and resolves once it listens. Throws when the port is taken, the data file cannot
 * be opened, the seed file is invalid or a fault setting is out of range.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const logger = options.logger ?? silentLogger;
  const faults = new FaultInjector(options.faults);
  const store = EntityStore.open(options.dataFile);
  let server: GuardedServer;
  const closing = new AbortController();
  try {
    const seedSource = options.seed && store.count() === 0 ? options.seed : undefined;
    const seedData = seedSource === undefined ? undefined : await readSeedSource(seedSource);
    // Entities first: the collection store adopts the collections they name when it is first opened.
    if (seedData) store.transaction(() => seedData.entities.forEach((entity) => store.put(entity)));
    const deps: AreaDependencies = {
      store,
      types: createTypeSystem(store.database, Date.now),
      now: Date.now,
    };
    if (seedData) {
      // Through routes of their own, so the seed's writes count against no throttle of the live ones.
      await loadSeedAreas(apiRoutes(deps), seedData.areas, seedData.file);
      logger.info(
        `emulator: seeded ${seedData.entities.length} entities and their catalog from ${seedData.file}`,
      );
    }
    const team = options.roles === true ? {} : options.roles || undefined;
    const permissions = team
      ? CollectionPermissions.open(store, Date.now, { callerWithoutToken: team.callerWithoutToken })
      : undefined;
    permissions?.addRootAdmins(team?.admins ?? []);
    const adminRouter = new Router().mount(ADMIN_PREFIX, adminArea({ store, faults, types: deps.types }));
    const handler = requestHandler({
      apiRouter: apiRoutes(deps),
      adminRouter,
      faults,
      logger,
      signal: closing.signal,
      permissions,
    });
    server = listen(options.port ?? 0, handler, logger);
  } catch (error) {
    store.close();
    if (error instanceof Deno.errors.AddrInUse) {
      throw new Error(
        `Port ${options.port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one)`,
        { cause: error },
      );
    }
    throw error;
  }

  const port = server.addr.port;
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataLocation: store.location,
    faults,
    entityCount: () => store.count(),
    close() {
      closed ??= (async () => {
        closing.abort();
        await server.shutdown();
        store.close();
      })();
      return closed;
    },
  };
}

/** Every API area, mounted where the service answers it. */
function apiRoutes(deps: AreaDependencies): Router {
  const apiRouter = new Router();
  for (const prefix of API_PREFIXES) {
    // Routes the contracts write outside /atlas/v2 (lineage next page, glossary import by name and its
    // status) are answered under /atlas/v2 too, as the service does.
    const glossary = withAtlasV2Aliases(glossaryArea(deps));
    const lineage = withAtlasV2Aliases(lineageArea(deps));
    apiRouter.mount(prefix, entityArea(deps)).mount(prefix, searchArea(deps))
      .mount(prefix, typedefArea(deps)).mount(prefix, relationshipArea(deps))
      .mount(prefix, glossary).mount(prefix, lineage);
  }
  // The account API (account properties, collections) has no /datamap/api prefix; collections are served
  // under /account/collections and, as the service also answers, under /collections.
  const collections = collectionsArea(deps);
  apiRouter.mount("", accountArea(deps)).mount("", collections).mount("", scanArea(deps))
    .mount("", rebasedRoutes(collections, "/account/collections", "/collections"));
  apiRouter.mount("", policyArea(deps));
  apiRouter.mount("/datagovernance/catalog", unifiedCatalogArea(deps));
  apiRouter.mount("", workflowArea(deps));
  apiRouter.mount(QUALITY_PREFIX, qualityArea(deps));
  return apiRouter;
}

/** Serves `handler` on 127.0.0.1 behind the guard of the MCP server too. */
function listen(port: number, handler: Deno.ServeHandler<Deno.NetAddr>, logger: Logger): GuardedServer {
  return serveGuarded({
    hostname: "127.0.0.1",
    port,
    // A local test bed that bulk imports and load tests drive hard: room for their connection pools,
    // still bounded (and fitted to the open-file limit by the guard).
    limits: EMULATOR_LISTEN_LIMITS,
    log: (message) => logger.warn(`emulator: ${message}`),
    onError: (error) => {
      logger.error(`emulator: unhandled error: ${(error as Error)?.stack ?? error}`);
      const internal = new EmulatorError(500, "ATLAS-500-00-001", "Internal server error");
      return errorResponse("atlas", internal, crypto.randomUUID());
    },
  }, handler);
}

interface HandlerParts {
  apiRouter: Router;
  adminRouter: Router;
  faults: FaultInjector;
  logger: Logger;
  signal: AbortSignal;
  /** The collection role check of team mode; absent when every request goes ahead. */
  permissions?: CollectionPermissions;
}

function requestHandler(parts: HandlerParts): (request: Request) => Promise<Response> {
  const { apiRouter, adminRouter, faults, logger, signal, permissions } = parts;
  return async (incoming) => {
    let request = incoming;
    const started = performance.now();
    const requestId = crypto.randomUUID();
    // What a web page could send (cross-site, DNS rebinding, admin writes without JSON) goes no further.
    const refused = await refusedResponse(request, requestId, logger);
    if (refused) return refused;
    const url = new URL(request.url);
    const path = url.pathname;
    const method = request.method.toUpperCase();
    const admin = path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`);

    let response: Response;
    let status: number;
    let fault: string | undefined;
    let denied: EmulatorError | undefined;
    if (!admin && permissions) {
      // The check may read the body (a data source's collection): it hands on a request that still has it.
      ({ refusal: denied, request } = await permissions.check(request));
    }
    if (admin) {
      response = await dispatch(adminRouter, request, url, requestId, logger);
      status = response.status;
    } else if (denied) {
      await request.body?.cancel().catch(() => {});
      response = errorResponse(errorStyleForPath(path), denied, requestId);
      status = response.status;
    } else {
      const decision = faults.plan(method, path, Date.now());
      fault = decision.fault;
      response = await faulted(decision, () => dispatch(apiRouter, request, url, requestId, logger), {
        request,
        path,
        requestId,
      });
      status = decision.drop && decision.status === undefined ? 0 : response.status;
      await sleep(decision.delayMs, signal);
      faults.record(fault ? { method, path, status, fault } : { method, path, status });
    }

    response.headers.set("x-ms-request-id", requestId);
    const clientRequestId = request.headers.get("x-ms-client-request-id");
    if (clientRequestId) response.headers.set("x-ms-client-request-id", clientRequestId);
    const elapsed = Math.round(performance.now() - started);
    logger.debug(
      `emulator: ${method} ${path}${url.search} -> ${status || "dropped"} ${elapsed}ms${
        fault ? ` [fault: ${fault}]` : ""
      }`,
    );
    return response;
  };
}

async function faulted(
  decision: FaultDecision,
  handle: () => Promise<Response>,
  context: { request: Request; path: string; requestId: string },
): Promise<Response> {
  const { request, path, requestId } = context;
  const injectsSomething = decision.status !== undefined || decision.drop;
  if (injectsSomething && !decision.afterHandling) {
    await request.body?.cancel();
    if (decision.status !== undefined) return injectedError(decision, path, requestId);
    return droppedResponse(200, '{"requestId":"' + requestId + '","value":[');
  }
  const real = await handle();
  if (!injectsSomething) return real;
  if (decision.status !== undefined) {
    await real.body?.cancel();
    return injectedError(decision, path, requestId);
  }
  return droppedResponse(real.status, await real.text());
}

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

function injectedError(decision: FaultDecision, path: string, requestId: string): Response {
  const response = errorResponse(errorStyleForPath(path), faultError(decision.status!), requestId);
  if (decision.retryAfterSeconds !== undefined) {
    response.headers.set("retry-after", String(Math.ceil(decision.retryAfterSeconds)));
  }
  if (decision.retryAfterMs !== undefined) {
    response.headers.set("retry-after-ms", String(decision.retryAfterMs));
    response.headers.set("x-ms-retry-after-ms", String(decision.retryAfterMs));
  }
  return response;
}

/**
 * A response that breaks off mid-body: it promises more bytes (Content-Length) than it sends, so the
 * connection closes early and the client's body read fails like a dropped connection. Erroring the stream
 * would do the same but makes Deno print the error on the server's stderr.
 */
function droppedResponse(realStatus: number, fullBody: string): Response {
  // A status without a body (204 after a delete or a label write) cannot carry a cut body; the connection
  // is lost all the same, so the cut answer says 200 and promises a byte it never sends.
  const status = NULL_BODY_STATUSES.has(realStatus) ? 200 : realStatus;
  const bytes = new TextEncoder().encode(fullBody);
  const partial = bytes.slice(0, Math.max(1, Math.floor(bytes.length / 2)));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(partial);
      controller.close();
    },
  });
  return new Response(body, {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Math.max(bytes.length, partial.length + 1)),
    },
  });
}

async function dispatch(
  router: Router,
  request: Request,
  url: URL,
  requestId: string,
  logger: Logger,
): Promise<Response> {
  const style = errorStyleForPath(url.pathname);
  try {
    const match = router.match(request.method, url.pathname);
    if (match.kind === "not-found") throw EmulatorError.routeNotFound(request.method, url.pathname);
    if (match.kind === "method-not-allowed") {
      throw EmulatorError.methodNotAllowed(request.method, url.pathname, match.allowed);
    }
    return await match.handler({
      request,
      url,
      params: match.params,
      requestId,
      readJson: () => readJsonBody(request),
    });
  } catch (error) {
    if (!request.bodyUsed) await request.body?.cancel().catch(() => {});
    if (error instanceof EmulatorError) return errorResponse(style, error, requestId);
    logger.error(`emulator: ${request.method} ${url.pathname} failed: ${(error as Error)?.stack ?? error}`);
    const internal = new EmulatorError(500, "ATLAS-500-00-001", `Internal server error ${String(error)}`);
    return errorResponse(style, internal, requestId);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}
