/**
 * The lineage area of the emulator: `GET /atlas/v2/lineage/{guid}`, its unique-attribute form
 * `GET /atlas/v2/lineage/uniqueAttribute/type/{typeName}?attr:qualifiedName=…` and the next page
 * `GET /lineage/{guid}/next` (the contract serves that one outside `/atlas/v2`). Answers are read from
 * the store on every request, from the entities the answer reaches only (see `graph.ts`,
 * `references.ts` and `answer.ts`), so a process written, changed or deleted shows at once.
 *
 * @example
 * ```ts
 * import { Router } from "../router.ts";
 * import { EntityStore } from "../store.ts";
 * import { lineageArea } from "./area.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * const router = new Router().mount("/datamap/api", lineageArea({ store, types, now: Date.now }));
 * console.log(router.match("GET", "/datamap/api/atlas/v2/lineage/abc").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import type { ApiArea, AreaDependencies } from "../area.ts";
import { entityByGuid, entityByUniqueAttribute } from "../entity/lookup.ts";
import type { AtlasEntity } from "../entity/model.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import { type LineageDirection, lineageInfo, type LineageQuery, nextPageInfo } from "./answer.ts";
import { DATASET_TYPE, LineageGraph, PROCESS_TYPE } from "./graph.ts";
import { queryFlag, type RouteContext } from "../router.ts";

/** Hops walked when the request gives no `depth` (Atlas's default). */
export const DEFAULT_LINEAGE_DEPTH = 3;
/** Neighbours each node expands when the request gives no `width`. */
export const DEFAULT_LINEAGE_WIDTH = 10;

const DIRECTIONS: ReadonlySet<string> = new Set(["INPUT", "OUTPUT", "BOTH"]);

/** Routes of the lineage area, relative to `/catalog/api` or `/datamap/api`. */
export const lineageArea: ApiArea = (deps) => [
  { method: "GET", path: "/atlas/v2/lineage/{guid}", handler: (ctx) => byGuid(deps, ctx) },
  {
    method: "GET",
    path: "/atlas/v2/lineage/uniqueAttribute/type/{typeName}",
    handler: (ctx) => byUniqueAttribute(deps, ctx),
  },
  { method: "GET", path: "/lineage/{guid}/next", handler: (ctx) => nextPage(deps, ctx) },
];

function byGuid(deps: AreaDependencies, ctx: RouteContext): Response {
  const query = lineageQuery(ctx.url);
  return jsonResponse(lineageOf(deps, entityByGuid(deps, ctx.params.guid), query));
}

function byUniqueAttribute(deps: AreaDependencies, ctx: RouteContext): Response {
  const query = lineageQuery(ctx.url);
  return jsonResponse(lineageOf(deps, entityByUniqueAttribute(deps, ctx), query));
}

function nextPage(deps: AreaDependencies, ctx: RouteContext): Response {
  const direction = directionOf(ctx.url);
  const offset = integerParameter(ctx.url, "offset", 0, 0);
  const limit = integerParameter(ctx.url, "limit", -1, -1);
  const base = lineageBase(deps, entityByGuid(deps, ctx.params.guid));
  const graph = LineageGraph.open(deps);
  return jsonResponse(nextPageInfo(graph, base, isAOf(deps), {
    direction,
    offset,
    // The contract: "by default there is no paging"; -1 says the same explicitly.
    limit: limit < 0 ? undefined : limit,
  }));
}

function lineageOf(deps: AreaDependencies, entity: AtlasEntity, query: LineageQuery) {
  const base = lineageBase(deps, entity);
  return lineageInfo(LineageGraph.open(deps), base, isAOf(deps), query);
}

/** Atlas answers lineage for data sets and processes only; any other type is its 404. */
function lineageBase(deps: AreaDependencies, entity: AtlasEntity): AtlasEntity {
  const isA = isAOf(deps);
  if (!isA(entity.typeName, DATASET_TYPE) && !isA(entity.typeName, PROCESS_TYPE)) {
    throw new EmulatorError(
      404,
      "ATLAS-404-00-011",
      `Given instance guid ${entity.guid} with type ${entity.typeName} is not a valid lineage entity type.`,
    );
  }
  return entity;
}

// The type system's methods use `this`, so they are called on it rather than passed around bare.
function isAOf(deps: AreaDependencies): (typeName: string, superType: string) => boolean {
  return (typeName, superType) => deps.types.isA(typeName, superType);
}

function lineageQuery(url: URL): LineageQuery {
  const depth = integerParameter(url, "depth", DEFAULT_LINEAGE_DEPTH, 0);
  const width = integerParameter(url, "width", DEFAULT_LINEAGE_WIDTH, -1);
  if (width === 0) throw invalidLineageParameter("width", "0");
  // getDerivedLineage (resource-set lineage) has nothing to derive from in the emulator; it is accepted.
  queryFlag(url, "getDerivedLineage");
  return {
    direction: directionOf(url),
    depth,
    // A negative width is "no limit", reported back as given.
    width: width < 0 ? Number.POSITIVE_INFINITY : width,
    includeParent: queryFlag(url, "includeParent"),
  };
}

/**
 * The contract marks `direction` required; Atlas's REST layer defaults it to BOTH, and so does the
 * emulator. A value other than INPUT, OUTPUT or BOTH is Atlas's INSTANCE_LINEAGE_INVALID_PARAMS.
 */
function directionOf(url: URL): LineageDirection {
  const value = url.searchParams.get("direction");
  if (value === null || value === "") return "BOTH";
  if (!DIRECTIONS.has(value)) throw invalidLineageParameter("direction", value);
  return value as LineageDirection;
}

function integerParameter(url: URL, name: string, fallback: number, minimum: number): number {
  const value = url.searchParams.get(name);
  if (value === null || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) throw invalidLineageParameter(name, value);
  return number;
}

function invalidLineageParameter(name: string, value: string): EmulatorError {
  return new EmulatorError(
    400,
    "ATLAS-400-00-026",
    `Invalid lineage query parameters passed ${name}: ${value}`,
    { target: name },
  );
}
