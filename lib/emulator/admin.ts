/**
 * The emulator's own control endpoints under `/_emulator`. They are never faulted and never counted, so a
 * test can change faults and read statistics without disturbing what it measures.
 *
 * | Method and path             | Body / answer                                                          |
 * | --------------------------- | ---------------------------------------------------------------------- |
 * | `GET /_emulator/health`     | `{status: "ok"}`                                                       |
 * | `GET /_emulator/faults`     | the current {@link FaultSettings}                                      |
 * | `PUT /_emulator/faults`     | partial settings in, all settings out; a bad field is a 400 naming it  |
 * | `GET /_emulator/faults/script`  | the pending steps                                                  |
 * | `POST /_emulator/faults/script` | an array of {@link FaultStep} (or `{steps}`), replacing the script |
 * | `GET /_emulator/stats`      | `{total, byRoute, log}`                                                |
 * | `GET /_emulator/writes?kind=K` | `{kind, counts: {id: writes}}`: writes of each record (`write_counts.ts`) |
 * | `POST /_emulator/reset`     | clears faults, script and stats; see below for `?data=true`            |
 *
 * `POST /_emulator/reset?data=true` also empties the catalog (see `data_reset.ts`): entities,
 * relationships, the glossary, created type definitions (business metadata included), collections but the
 * root, scanning resources and the unified catalog; the built-in types and the root collection stay. The
 * answer is `{status: "reset", dataCleared: true, cleared: {entities: 12, glossaryTerms: 3, ...}, kept:
 * [...], entityCount: 0}`, `cleared` counting what each kind lost; without `data=true` it is
 * `{status: "reset", dataCleared: false, entityCount}`.
 *
 * @example
 * ```ts
 * import { Router } from "./router.ts";
 * import { EntityStore } from "./store.ts";
 * import { FaultInjector } from "./faults.ts";
 * import { adminArea, ADMIN_PREFIX } from "./admin.ts";
 * const store = EntityStore.open();
 * const router = new Router().mount(ADMIN_PREFIX, adminArea({ store, faults: new FaultInjector() }));
 * console.log(router.match("GET", "/_emulator/health").kind); // "found"
 * store.close();
 * ```
 *
 * @module
 */
import { isObject } from "./entity/model.ts";
import { EmulatorError, jsonResponse } from "./errors.ts";
import { type FaultSettings, FaultSettingsError, type FaultStep } from "./fault_settings.ts";
import type { FaultInjector } from "./faults.ts";
import { queryFlag, type RouteContext, type RouteDefinition } from "./router.ts";
import type { TypeSystem } from "./area.ts";
import { clearCatalogData } from "./data_reset.ts";
import type { EntityStore } from "./store.ts";
import { writeCounts } from "./write_counts.ts";

/** Where the admin endpoints live. */
export const ADMIN_PREFIX = "/_emulator";

/** What the admin endpoints act on. */
export interface AdminDependencies {
  store: EntityStore;
  faults: FaultInjector;
  /** The type system, re-read after a data reset so the built-in types are back as shipped. */
  types?: TypeSystem;
}

/** The admin routes, relative to {@link ADMIN_PREFIX}. */
export function adminArea({ store, faults, types }: AdminDependencies): RouteDefinition[] {
  return [
    { method: "GET", path: "/health", handler: () => jsonResponse({ status: "ok" }) },
    { method: "GET", path: "/faults", handler: () => jsonResponse(faults.get()) },
    {
      method: "PUT",
      path: "/faults",
      handler: async (ctx) => {
        const changes = await ctx.readJson();
        return jsonResponse(validated(() => faults.set(changes as Partial<FaultSettings>)));
      },
    },
    { method: "GET", path: "/faults/script", handler: () => jsonResponse({ steps: faults.pendingSteps() }) },
    { method: "POST", path: "/faults/script", handler: (ctx) => replaceScript(faults, ctx) },
    { method: "GET", path: "/stats", handler: () => jsonResponse(faults.stats()) },
    {
      method: "GET",
      path: "/writes",
      handler: (ctx) => {
        const kind = ctx.url.searchParams.get("kind") ?? "";
        return jsonResponse({ kind, counts: writeCounts(store.database, kind) });
      },
    },
    {
      method: "POST",
      path: "/reset",
      handler: async (ctx) => {
        await ctx.request.body?.cancel();
        const clearData = queryFlag(ctx.url, "data");
        faults.reset();
        if (!clearData) {
          return jsonResponse({ status: "reset", dataCleared: false, entityCount: store.count() });
        }
        const { cleared, kept } = clearCatalogData(store, types);
        return jsonResponse({
          status: "reset",
          dataCleared: true,
          cleared,
          kept,
          entityCount: store.count(),
        });
      },
    },
  ];
}

async function replaceScript(faults: FaultInjector, ctx: RouteContext): Promise<Response> {
  const body = await ctx.readJson();
  const steps = isObject(body) && "steps" in body ? body.steps : body;
  validated(() => faults.script(steps as FaultStep[]));
  return jsonResponse({ steps: faults.pendingSteps() });
}

function validated<T>(apply: () => T): T {
  try {
    return apply();
  } catch (error) {
    if (error instanceof FaultSettingsError) {
      throw new EmulatorError(400, "InvalidFaultSettings", error.message, { target: error.field });
    }
    throw error;
  }
}
