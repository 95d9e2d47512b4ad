/**
 * Managed virtual networks and their managed private endpoints, in the emulator's scanning API.
 *
 * - `/scan/managedvirtualnetworks/{name}`: create or replace, get, list. The contract allows one name,
 *   `defaultv2`; its `vNetId` and `alias` are the service's (read-only).
 * - `/scan/managedvirtualnetworks/{name}/managedprivateendpoints/{endpoint}`: create or replace, get, list,
 *   delete, under an existing managed virtual network. An endpoint needs `privateLinkResourceId` and
 *   `groupId`; the emulator provisions it at once, its connection Pending until the resource's owner approves
 *   it (which no one does here).
 *
 * @module
 */
import { jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import type { ScanContext } from "./area.ts";
import { namedResourceRoutes } from "./credentials.ts";
import { fail } from "./runtimes.ts";
import type { StoredScanResource } from "./store.ts";
import {
  optionalObject,
  optionalString,
  readObjectBody,
  scanBadRequest,
  scanNotFound,
  scanPage,
} from "./support.ts";

const NETWORKS = "/scan/managedvirtualnetworks";
/** The only managed virtual network name the contract allows. */
export const MANAGED_NETWORK_NAMES: readonly string[] = ["defaultv2"];
const ENDPOINT_NAME = /^([_A-Za-z0-9]|([_A-Za-z0-9][-_A-Za-z0-9]{0,125}[_A-Za-z0-9]))$/;

function network(c: ScanContext, name: string): StoredScanResource {
  return c.store.get("vnet", "", name) ??
    fail(scanNotFound("Managed virtual network", name, "ManagedVirtualNetworkNotFound"));
}

const parentOf = (vnet: StoredScanResource) => `vnet:${vnet.name.toLowerCase()}`;

function endpointWire(stored: StoredScanResource): Record<string, unknown> {
  return {
    id: `managedvirtualnetworks/${stored.body.network}/managedprivateendpoints/${stored.name}`,
    name: stored.name,
    properties: {
      ...stored.body.properties as Record<string, unknown>,
      provisioningState: "Succeeded",
      connectionState: {
        status: "Pending",
        actionsRequired: "None",
        description: "Awaiting approval by the owner of the private link resource.",
      },
    },
  };
}

export function managedNetworkRoutes(c: ScanContext): RouteDefinition[] {
  const endpoints = `${NETWORKS}/{managedVirtualNetworkName}/managedprivateendpoints`;
  const endpoint = (vnetName: string, name: string) => {
    const vnet = network(c, vnetName);
    const stored = c.store.get("endpoint", parentOf(vnet), name) ??
      fail(scanNotFound("Managed private endpoint", name, "ManagedPrivateEndpointNotFound"));
    return { vnet, stored };
  };
  const routes = namedResourceRoutes(c, {
    kind: "vnet",
    path: NETWORKS,
    param: "managedVirtualNetworkName",
    what: "Managed virtual network",
    notFoundCode: "ManagedVirtualNetworkNotFound",
    example: '{"properties": {}}',
    checkName: (name) =>
      MANAGED_NETWORK_NAMES.includes(name)
        ? undefined
        : `the only name allowed is ${MANAGED_NETWORK_NAMES.join(", ")}`,
    accept: (_body, current) => ({
      vNetId: current?.body.vNetId ?? crypto.randomUUID(),
      alias: current?.body.alias ?? `${MANAGED_NETWORK_NAMES[0]}-${crypto.randomUUID().slice(0, 8)}`,
    }),
    wire: (stored) => ({
      id: `managedvirtualnetworks/${stored.name}`,
      name: stored.name,
      properties: { vNetId: stored.body.vNetId, alias: stored.body.alias },
    }),
  }).filter((route) => route.method !== "DELETE");
  return [
    ...routes,
    {
      method: "GET",
      path: endpoints,
      handler: ({ params, url }) => {
        const vnet = network(c, params.managedVirtualNetworkName);
        return jsonResponse(
          scanPage(url, c.store.list("endpoint", parentOf(vnet)).map(endpointWire), c.pageSize),
        );
      },
    },
    {
      method: "GET",
      path: `${endpoints}/{managedPrivateEndpointName}`,
      handler: ({ params }) =>
        jsonResponse(
          endpointWire(endpoint(params.managedVirtualNetworkName, params.managedPrivateEndpointName).stored),
        ),
    },
    {
      method: "PUT",
      path: `${endpoints}/{managedPrivateEndpointName}`,
      handler: (ctx) => putEndpoint(c, ctx),
    },
    {
      method: "DELETE",
      path: `${endpoints}/{managedPrivateEndpointName}`,
      handler: ({ params }) => {
        const { vnet, stored } = endpoint(
          params.managedVirtualNetworkName,
          params.managedPrivateEndpointName,
        );
        c.store.delete("endpoint", parentOf(vnet), stored.name);
        return new Response(null, { status: 204 });
      },
    },
  ];
}

/** Creates or replaces a private endpoint of an existing network: a valid name, the two required fields. */
async function putEndpoint(c: ScanContext, ctx: RouteContext): Promise<Response> {
  const vnet = network(c, ctx.params.managedVirtualNetworkName);
  const name = ctx.params.managedPrivateEndpointName;
  if (!ENDPOINT_NAME.test(name)) {
    await ctx.request.body?.cancel();
    throw scanBadRequest(
      `'${name}' is not a valid managed private endpoint name: 1 to 127 letters, digits, underscores ` +
        "and hyphens, not starting or ending with a hyphen.",
      name,
    );
  }
  const current = c.store.get("endpoint", parentOf(vnet), name);
  const body = await readObjectBody(ctx, '{"properties": {"privateLinkResourceId": …, "groupId": …}}');
  const properties = { ...optionalObject(body, "properties", "properties") };
  for (const readOnly of ["provisioningState", "connectionState"]) delete properties[readOnly];
  for (const field of ["privateLinkResourceId", "groupId"]) {
    if (!optionalString(properties, field, `properties.${field}`)) {
      throw scanBadRequest(`properties.${field} is required.`, `properties.${field}`);
    }
  }
  const fqdns = properties.fqdns;
  if (
    fqdns !== undefined && fqdns !== null &&
    !(Array.isArray(fqdns) && fqdns.every((f) => typeof f === "string"))
  ) {
    throw scanBadRequest("properties.fqdns must be an array of host names.", "properties.fqdns");
  }
  const stored = c.store.put(
    "endpoint",
    parentOf(vnet),
    name,
    { network: vnet.name, properties },
    c.deps.now(),
  );
  return jsonResponse(endpointWire(stored), current ? 200 : 201);
}
