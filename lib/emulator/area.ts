/**
 * What every API area of the emulator receives, so areas (entities, search, and later glossary, lineage,
 * types, collections, scanning) stay independent of the server and of each other.
 *
 * @example
 * ```ts
 * import type { ApiArea } from "./area.ts";
 * const healthArea: ApiArea = () => [
 *   { method: "GET", path: "/ping", handler: () => Response.json({ ok: true }) },
 * ];
 * ```
 *
 * @module
 */
import type { RouteDefinition } from "./router.ts";
import type { EntityStore } from "./store.ts";

/** Shared state handed to each area when the server builds its routes. */
export interface AreaDependencies {
  store: EntityStore;
  /** Current time in epoch milliseconds; replaceable so tests can pin timestamps. */
  now(): number;
}

/** Builds the routes of one API area, with paths relative to the API prefix. */
export type ApiArea = (dependencies: AreaDependencies) => RouteDefinition[];
