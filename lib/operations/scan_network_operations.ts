/**
 * Operations on the account's managed virtual network and its managed private endpoints, in the `scan`
 * group. The contract allows one managed virtual network, `defaultv2` (the default of
 * `--managed-virtual-network-name`); it cannot be deleted. Private endpoints are put from a JSON payload
 * file (`{"properties": {"privateLinkResourceId": …, "groupId": …}}`), read, listed and deleted.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { collect, deletedOutput, hinted, payloadFile, readPayload } from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const NETWORK_HINT =
  "Create the managed virtual network first with `govcat scan putManagedVirtualNetwork`; " +
  "`govcat scan listManagedVirtualNetworks` lists it.";
const ENDPOINT_HINT = "Check the name with `govcat scan listManagedPrivateEndpoints`.";
const ENDPOINT_NAME = /^([_A-Za-z0-9]|([_A-Za-z0-9][-_A-Za-z0-9]{0,125}[_A-Za-z0-9]))$/;

const managedVirtualNetworkName = z.string().min(1).default("defaultv2").describe(
  "Name of the managed virtual network (the service allows defaultv2 only)",
);
const managedPrivateEndpointName = z.string().min(1).describe(
  "Name of the managed private endpoint (letters, digits, underscores and hyphens, up to 127)",
);

function checkEndpointName(name: string): void {
  if (!ENDPOINT_NAME.test(name)) {
    throw new UsageError(
      `--managed-private-endpoint-name "${name}" is not a valid name: 1 to 127 letters, digits, ` +
        "underscores and hyphens, not starting or ending with a hyphen.",
    );
  }
}

export const putManagedVirtualNetwork = defineOperation({
  id: "scan.put-managed-virtual-network",
  group: "scan",
  command: "putManagedVirtualNetwork",
  aliases: ["put-managed-virtual-network"],
  summary: "Create the account's managed virtual network (managed integration runtimes run in it), or " +
    "replace it",
  input: z.object({
    managedVirtualNetworkName,
    payloadFile: payloadFile("managed virtual network").optional().describe(
      'JSON file holding the managed virtual network; {"properties": {}} when left out',
    ),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const body = input.payloadFile
      ? await readPayload(ctx, input.payloadFile, 'a managed virtual network {"properties": {}}')
      : { properties: {} };
    const result = await ctx.catalog().scan.putManagedVirtualNetwork(
      input.managedVirtualNetworkName,
      body,
      ctx.signal,
    );
    return { created: result.created, managedVirtualNetwork: result.value };
  },
});

export const getManagedVirtualNetwork = defineOperation({
  id: "scan.get-managed-virtual-network",
  group: "scan",
  command: "getManagedVirtualNetwork",
  aliases: ["get-managed-virtual-network"],
  summary: "Get the managed virtual network: its id and alias",
  input: z.object({ managedVirtualNetworkName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NETWORK_HINT,
      () => ctx.catalog().scan.getManagedVirtualNetwork(input.managedVirtualNetworkName, ctx.signal),
    ),
});

export const listManagedVirtualNetworks = defineOperation({
  id: "scan.list-managed-virtual-networks",
  group: "scan",
  command: "listManagedVirtualNetworks",
  aliases: ["list-managed-virtual-networks"],
  summary: "List the account's managed virtual networks",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => collect(ctx.catalog().scan.listManagedVirtualNetworks({ signal: ctx.signal })),
});

export const putManagedPrivateEndpoint = defineOperation({
  id: "scan.put-managed-private-endpoint",
  group: "scan",
  command: "putManagedPrivateEndpoint",
  aliases: ["put-managed-private-endpoint"],
  summary: "Create a managed private endpoint to a resource's private link, or replace the one with this " +
    "name, from a JSON payload file",
  description:
    'The payload is {"properties": {"privateLinkResourceId": "/subscriptions/…/storageAccounts/…", ' +
    '"groupId": "blob", "fqdns": […]}}. The resource\'s owner approves the connection.',
  input: z.object({
    managedVirtualNetworkName,
    managedPrivateEndpointName,
    payloadFile: payloadFile("managed private endpoint"),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkEndpointName(input.managedPrivateEndpointName);
    const body = await readPayload(
      ctx,
      input.payloadFile,
      'a managed private endpoint {"properties": {"privateLinkResourceId": …, "groupId": …}}',
    );
    const result = await hinted(NETWORK_HINT, () =>
      ctx.catalog().scan.putManagedPrivateEndpoint(
        input.managedVirtualNetworkName,
        input.managedPrivateEndpointName,
        body,
        ctx.signal,
      ));
    return { created: result.created, managedPrivateEndpoint: result.value };
  },
});

export const getManagedPrivateEndpoint = defineOperation({
  id: "scan.get-managed-private-endpoint",
  group: "scan",
  command: "getManagedPrivateEndpoint",
  aliases: ["get-managed-private-endpoint"],
  summary: "Get a managed private endpoint: its target, group and connection state",
  input: z.object({ managedVirtualNetworkName, managedPrivateEndpointName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(ENDPOINT_HINT, () =>
      ctx.catalog().scan.getManagedPrivateEndpoint(
        input.managedVirtualNetworkName,
        input.managedPrivateEndpointName,
        ctx.signal,
      )),
});

export const listManagedPrivateEndpoints = defineOperation({
  id: "scan.list-managed-private-endpoints",
  group: "scan",
  command: "listManagedPrivateEndpoints",
  aliases: ["list-managed-private-endpoints"],
  summary: "List the managed private endpoints of the managed virtual network (all pages)",
  input: z.object({ managedVirtualNetworkName }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(
      NETWORK_HINT,
      () =>
        collect(
          ctx.catalog().scan.listManagedPrivateEndpoints(input.managedVirtualNetworkName, {
            signal: ctx.signal,
          }),
        ),
    ),
});

export const deleteManagedPrivateEndpoint = defineOperation({
  id: "scan.delete-managed-private-endpoint",
  group: "scan",
  command: "deleteManagedPrivateEndpoint",
  aliases: ["delete-managed-private-endpoint"],
  summary: "Delete a managed private endpoint; scans reaching the resource through it stop reaching it",
  input: z.object({ managedVirtualNetworkName, managedPrivateEndpointName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const deleted = await hinted(ENDPOINT_HINT, () =>
      ctx.catalog().scan.deleteManagedPrivateEndpoint(
        input.managedVirtualNetworkName,
        input.managedPrivateEndpointName,
        ctx.signal,
      ));
    return deletedOutput(input.managedPrivateEndpointName, "managedPrivateEndpoint", deleted);
  },
});

/** The managed network operations, in the order `scan --help` lists them. */
export const SCAN_NETWORK_OPERATIONS: Operation[] = [
  putManagedVirtualNetwork,
  getManagedVirtualNetwork,
  listManagedVirtualNetworks,
  putManagedPrivateEndpoint,
  getManagedPrivateEndpoint,
  listManagedPrivateEndpoints,
  deleteManagedPrivateEndpoint,
];
