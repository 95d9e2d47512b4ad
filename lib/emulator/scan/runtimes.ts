/**
 * Integration runtimes of the emulator's scanning API (managed virtual networks and their private endpoints
 * are in `managed_networks.ts`).
 *
 * - `/scan/integrationruntimes/{name}`: create or replace, get, list, delete; `…/status`; and the actions
 *   `:listAuthKeys`, `:regenerateAuthKey` (`{"keyName": "authKey1" | "authKey2"}`; answers the new key, the
 *   other null, as the contract's example does), `:enableInteractiveQuery` (`{"autoTerminationMinutes"}`)
 *   and `:disableInteractiveQuery` (202 `{"status": "Accepted"}` with an `Operation-Location`). A runtime is
 *   `SelfHosted` (it has the auth keys a node registers with; with no node registered, its state is
 *   NeedRegistration) or `Managed` (it runs in a managed virtual network, which must exist, and has the
 *   interactive query switch; its state is Online). Auth keys are never part of a runtime's own answer.
 *
 * @module
 */
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { namedResourceRoutes, writableProperties } from "./credentials.ts";
import type { StoredScanResource } from "./store.ts";
import {
  iso,
  isRecord,
  optionalObject,
  optionalString,
  readObjectBody,
  scanBadRequest,
  scanNotFound,
} from "./support.ts";

const RUNTIMES = "/scan/integrationruntimes";
const KEY_NAMES = ["authKey1", "authKey2"];

export function integrationRuntimeRoutes(c: ScanContext): RouteDefinition[] {
  const existing = (name: string) =>
    c.store.get("runtime", "", name) ??
      fail(scanNotFound("Integration runtime", name, "IntegrationRuntimeNotFound"));
  const save = (runtime: StoredScanResource, changes: Record<string, unknown>) =>
    c.store.put("runtime", "", runtime.name, { ...runtime.body, ...changes }, c.deps.now());
  const actions = runtimeActions(save);
  return [
    ...namedResourceRoutes(c, {
      kind: "runtime",
      path: RUNTIMES,
      param: "integrationRuntimeName",
      what: "Integration runtime",
      notFoundCode: "IntegrationRuntimeNotFound",
      example: '{"kind": "SelfHosted", "properties": {"description": "…"}}',
      accept: (body, current) => acceptRuntime(c, body, current),
      wire: (stored) => ({
        id: `integrationruntimes/${stored.name}`,
        name: stored.name,
        kind: stored.body.kind,
        properties: stored.body.properties,
      }),
    }),
    {
      method: "GET",
      path: `${RUNTIMES}/{integrationRuntimeName}/status`,
      handler: ({ params }) => jsonResponse(statusWire(existing(params.integrationRuntimeName))),
    },
    {
      method: "POST",
      path: `${RUNTIMES}/{runtimeAction}`,
      handler: async (ctx) => {
        const match = /^(.+):([A-Za-z]+)$/.exec(ctx.params.runtimeAction);
        const action = match ? actions[match[2]] : undefined;
        if (!match || !action) throw EmulatorError.routeNotFound("POST", ctx.url.pathname);
        return await action(ctx, existing(match[1]));
      },
    },
  ];
}

/** The `POST …/{name}:{action}` actions of a runtime, by action name. */
function runtimeActions(
  save: (runtime: StoredScanResource, changes: Record<string, unknown>) => void,
): Record<string, (ctx: RouteContext, runtime: StoredScanResource) => Promise<Response>> {
  return {
    listAuthKeys: async (ctx, runtime) => {
      await ctx.request.body?.cancel();
      return jsonResponse(selfHostedKeys(runtime));
    },
    regenerateAuthKey: async (ctx, runtime) => {
      const keys = selfHostedKeys(runtime);
      const body = await readObjectBody(ctx, '{"keyName": "authKey1"}');
      const keyName = optionalString(body, "keyName", "keyName", KEY_NAMES);
      if (!keyName) throw scanBadRequest(`keyName is required: ${KEY_NAMES.join(" or ")}.`, "keyName");
      const fresh = { ...keys, [keyName]: newAuthKey(runtime.name) };
      save(runtime, { authKeys: fresh });
      return jsonResponse({ authKey1: null, authKey2: null, [keyName]: fresh[keyName] });
    },
    enableInteractiveQuery: async (ctx, runtime) => {
      managedOnly(runtime, "interactive query");
      const text = await ctx.request.text();
      let minutes: unknown = 60;
      if (text.trim() !== "") {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch (error) {
          throw scanBadRequest(`The request body is not valid JSON: ${(error as Error).message}`);
        }
        if (!isRecord(body)) throw scanBadRequest('The request body must be {"autoTerminationMinutes": 60}.');
        minutes = body.autoTerminationMinutes ?? 60;
      }
      if (!Number.isInteger(minutes) || Number(minutes) < 1) {
        throw scanBadRequest(
          "autoTerminationMinutes must be a positive whole number.",
          "autoTerminationMinutes",
        );
      }
      save(runtime, { interactiveQuery: { status: "Enabled", autoTerminationMinutes: minutes } });
      return accepted(ctx, runtime, "enableInteractiveQuery");
    },
    disableInteractiveQuery: async (ctx, runtime) => {
      managedOnly(runtime, "interactive query");
      await ctx.request.body?.cancel();
      save(runtime, { interactiveQuery: { status: "Disabled" } });
      return accepted(ctx, runtime, "disableInteractiveQuery");
    },
  };
}

/** A runtime's stored body from a create or replace: its kind fixed once created, its keys or query switch kept. */
function acceptRuntime(
  c: ScanContext,
  body: Record<string, unknown>,
  current: StoredScanResource | undefined,
): Record<string, unknown> {
  const kind = body.kind;
  if (kind !== "Managed" && kind !== "SelfHosted") {
    throw scanBadRequest(
      `Integration runtime kind ${JSON.stringify(kind ?? null)} is not Managed or SelfHosted.`,
      "kind",
    );
  }
  if (current && current.body.kind !== kind) {
    throw new EmulatorError(
      409,
      "IntegrationRuntimeKindChangeNotAllowed",
      `Integration runtime '${current.name}' is ${current.body.kind}; delete it to create a ${kind} one.`,
      { target: "kind" },
    );
  }
  const properties = writableProperties(body);
  optionalString(properties, "description", "properties.description");
  if (kind === "Managed") checkManaged(c, properties);
  return {
    kind,
    properties,
    ...(kind === "SelfHosted"
      ? { authKeys: current?.body.authKeys ?? { authKey1: newAuthKey(), authKey2: newAuthKey() } }
      : { interactiveQuery: current?.body.interactiveQuery ?? { status: "Disabled" } }),
  };
}

/** A Managed runtime's properties: its managed virtual network must exist. */
function checkManaged(c: ScanContext, properties: Record<string, unknown>): void {
  const reference = optionalObject(
    properties,
    "managedVirtualNetworkReference",
    "properties.managedVirtualNetworkReference",
  );
  const target = "properties.managedVirtualNetworkReference.referenceName";
  if (reference) {
    const name = optionalString(reference, "referenceName", target);
    if (!name || !c.store.get("vnet", "", name)) {
      throw scanBadRequest(
        `Managed virtual network '${name ?? ""}' does not exist; create it first ` +
          "(PUT /scan/managedvirtualnetworks/defaultv2).",
        target,
      );
    }
  }
  const typeProperties = optionalObject(properties, "typeProperties", "properties.typeProperties");
  const compute = typeProperties &&
    optionalObject(typeProperties, "computeProperties", "properties.typeProperties.computeProperties");
  if (compute) optionalString(compute, "location", "properties.typeProperties.computeProperties.location");
}

function managedOnly(runtime: StoredScanResource, what: string): void {
  if (runtime.body.kind !== "Managed") {
    throw scanBadRequest(
      `Integration runtime '${runtime.name}' is ${runtime.body.kind}; ${what} is for Managed runtimes.`,
      "integrationRuntimeName",
    );
  }
}

function selfHostedKeys(runtime: StoredScanResource): Record<string, string> {
  if (runtime.body.kind !== "SelfHosted") {
    throw scanBadRequest(
      `Integration runtime '${runtime.name}' is Managed; only SelfHosted runtimes have auth keys.`,
      "integrationRuntimeName",
    );
  }
  return runtime.body.authKeys as Record<string, string>;
}

/** A fresh auth key, in the service's `IR@<id>@<runtime>@<region>@<secret>` form. */
function newAuthKey(runtime = "runtime"): string {
  const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  return `IR@${crypto.randomUUID()}@${runtime}@emulator@${secret}`;
}

function accepted(ctx: RouteContext, runtime: StoredScanResource, action: string): Response {
  const location = new URL(`${RUNTIMES}/${encodeURIComponent(runtime.name)}/${action}`, ctx.url.origin);
  const apiVersion = ctx.url.searchParams.get("api-version");
  if (apiVersion) location.searchParams.set("api-version", apiVersion);
  const response = jsonResponse({ status: "Accepted" }, 202);
  response.headers.set("Operation-Location", location.toString());
  return response;
}

function statusWire(runtime: StoredScanResource): Record<string, unknown> {
  const base = {
    id: `integrationruntimes/${runtime.name}/status`,
    name: runtime.name,
    kind: runtime.body.kind,
  };
  if (runtime.body.kind === "SelfHosted") {
    return {
      ...base,
      properties: {
        state: "NeedRegistration",
        typeProperties: { createTime: iso(runtime.createdAt), nodes: [], autoUpdate: "On" },
      },
    };
  }
  return {
    ...base,
    properties: {
      state: "Online",
      typeProperties: { createTime: iso(runtime.createdAt), interactiveQuery: runtime.body.interactiveQuery },
    },
  };
}

export function fail(error: Error): never {
  throw error;
}

/** A scan's `properties.connectedVia`, when it names an integration runtime, must name one that exists. */
export function checkConnectedVia(c: ScanContext, properties: Record<string, unknown>): void {
  const via = properties.connectedVia;
  if (via === undefined || via === null) return;
  const target = "properties.connectedVia.referenceName";
  if (!isRecord(via)) {
    throw scanBadRequest('properties.connectedVia must be {"referenceName": "<runtime>"}.', target);
  }
  const name = optionalString(via, "referenceName", target);
  if (name && !c.store.get("runtime", "", name)) {
    throw scanBadRequest(
      `Integration runtime '${name}' does not exist; create it first (PUT /scan/integrationruntimes/{name}).`,
      target,
    );
  }
}
