/**
 * A small method + path-pattern router. Patterns use the contract's own notation (`/atlas/v2/entity/guid/{guid}`),
 * so a route can be checked against the OpenAPI paths by eye. Each API area exports a list of
 * {@link RouteDefinition}s and the server mounts it under the prefixes the service uses.
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * const router = new Router();
 * router.mount("/datamap/api", [
 *   { method: "GET", path: "/atlas/v2/entity/guid/{guid}", handler: (ctx) => Response.json(ctx.params) },
 * ]);
 * const match = router.match("GET", "/datamap/api/atlas/v2/entity/guid/abc");
 * if (match.kind === "found") console.log(match.params.guid); // "abc"
 * ```
 *
 * @module
 */
import { EmulatorError } from "./errors.ts";

/** What a handler gets for one request. */
export interface RouteContext {
  request: Request;
  url: URL;
  /** Path parameters, already percent-decoded. */
  params: Record<string, string>;
  /** The `x-ms-request-id` of this response. */
  requestId: string;
  /** Parses the body as JSON; an empty or malformed body raises a 400 {@link EmulatorError}. */
  readJson(): Promise<unknown>;
}

/** Answers one request. Throw {@link EmulatorError} for an error response. */
export type RouteHandler = (context: RouteContext) => Response | Promise<Response>;

/** One route of an API area, with its path relative to the area's prefix. */
export interface RouteDefinition {
  method: string;
  path: string;
  handler: RouteHandler;
}

/** The outcome of {@link Router.match}. */
export type RouteMatch =
  | { kind: "found"; handler: RouteHandler; params: Record<string, string>; pattern: string }
  | { kind: "method-not-allowed"; allowed: string[] }
  | { kind: "not-found" };

interface CompiledRoute {
  method: string;
  pattern: string;
  segments: string[];
  handler: RouteHandler;
}

/** Routes requests by method and path pattern; `{name}` segments capture one path segment. */
export class Router {
  readonly #routes: CompiledRoute[] = [];

  /** Adds one route. */
  add(method: string, pattern: string, handler: RouteHandler): this {
    this.#routes.push({ method: method.toUpperCase(), pattern, segments: splitPath(pattern), handler });
    return this;
  }

  /** Adds every route of an area under `prefix` (e.g. `/datamap/api`). */
  mount(prefix: string, routes: RouteDefinition[]): this {
    for (const route of routes) this.add(route.method, prefix + route.path, route.handler);
    return this;
  }

  /** Finds the handler for a request; tells a wrong method apart from an unknown path. */
  match(method: string, pathname: string): RouteMatch {
    const segments = splitPath(pathname);
    const allowed = new Set<string>();
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method.toUpperCase()) {
        return { kind: "found", handler: route.handler, params, pattern: route.pattern };
      }
      allowed.add(route.method);
    }
    return allowed.size > 0 ? { kind: "method-not-allowed", allowed: [...allowed] } : { kind: "not-found" };
  }
}

/**
 * `routes` plus, for each route the contract writes outside `/atlas/v2` (`/lineage/{guid}/next`,
 * `/glossary/name/{glossaryName}/terms/import`, `/glossary/terms/import/{operationGuid}`, ...), the same route
 * under `/atlas/v2`: Purview answers both spellings under both API prefixes and clients use either.
 */
export function withAtlasV2Aliases(routes: RouteDefinition[]): RouteDefinition[] {
  const known = new Set(routes.map((route) => `${route.method} ${route.path}`));
  const aliases = routes
    .filter((route) => !route.path.startsWith("/atlas/v2/"))
    .map((route) => ({ ...route, path: `/atlas/v2${route.path}` }))
    .filter((route) => !known.has(`${route.method} ${route.path}`));
  return [...routes, ...aliases];
}

/** `routes` with the leading `from` of each path replaced by `to` (routes not under `from` are left out). */
export function rebasedRoutes(routes: RouteDefinition[], from: string, to: string): RouteDefinition[] {
  return routes
    .filter((route) => route.path === from || route.path.startsWith(`${from}/`))
    .map((route) => ({ ...route, path: to + route.path.slice(from.length) }));
}

function splitPath(path: string): string[] {
  return path.split("/").filter((segment) => segment.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i];
    if (expected.startsWith("{") && expected.endsWith("}")) {
      params[expected.slice(1, -1)] = decodeSegment(actual[i]);
    } else if (expected !== actual[i]) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw EmulatorError.badRequest(`Malformed percent-encoding in path segment ${segment}`);
  }
}

/** Reads a request body as JSON, mapping empty and malformed bodies to the service's 400. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") {
    throw EmulatorError.badRequest("Request body is empty; a JSON document is required");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw EmulatorError.badRequest(`Request body is not valid JSON: ${reason}`);
  }
}

/** The values of a repeated query parameter (`?guid=a&guid=b`), ignoring empty ones. */
export function queryValues(url: URL, name: string): string[] {
  return url.searchParams.getAll(name).filter((value) => value !== "");
}

/** A boolean query flag: `true`/`1` is true, absent or anything else is false. */
export function queryFlag(url: URL, name: string): boolean {
  const value = url.searchParams.get(name);
  return value !== null && (value.toLowerCase() === "true" || value === "1");
}
