/**
 * The integration runtime and managed network operations of the `scan` group against the emulator: a
 * self-hosted runtime is put, read, listed, its status read (NeedRegistration: no node registered), its
 * auth keys listed and one regenerated (the keys masked in everything logged afterwards), and deleted; the
 * managed virtual network is created, a managed runtime put in it, its interactive query switched on and
 * off (the status shows it); private endpoints are put, read, listed and deleted; the key operations carry
 * returnsSecrets and regenerating a key and the deletes are destructive.
 */
import assert from "node:assert/strict";
import { BadRequestError, NotFoundError } from "../../../lib/core/errors.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import {
  deleteManagedPrivateEndpoint,
  getManagedPrivateEndpoint,
  getManagedVirtualNetwork,
  listManagedPrivateEndpoints,
  listManagedVirtualNetworks,
  putManagedPrivateEndpoint,
  putManagedVirtualNetwork,
} from "../../../lib/operations/scan_network_operations.ts";
import {
  disableInteractiveQuery,
  enableInteractiveQuery,
  getIntegrationRuntimeStatus,
  listIntegrationRuntimeAuthKeys,
  regenerateIntegrationRuntimeAuthKey,
  RUNTIME_RESOURCE_OPERATIONS,
} from "../../../lib/operations/scan_runtime_operations.ts";
import type { Operation, OperationContext } from "../../../lib/operations/types.ts";
import { rejection, withScanSetup } from "./scan_harness.ts";

const [putRuntime, getRuntime, listRuntimes, deleteRuntime] = RUNTIME_RESOURCE_OPERATIONS;

Deno.test("scan operations: a self-hosted runtime, its status and auth keys (masked once read)", async () => {
  await withScanSetup({}, async ({ run, file, catalog }) => {
    const payloadFile = await file("runtime.json", {
      kind: "SelfHosted",
      properties: { description: "on prem" },
    });
    const created = await run(putRuntime, { integrationRuntimeName: "onprem", payloadFile });
    assert.equal(created.created, true);
    assert.equal(created.integrationRuntime.kind, "SelfHosted");
    assert.equal(
      (await run(getRuntime, { integrationRuntimeName: "onprem" })).properties.description,
      "on prem",
    );
    assert.equal((await run(listRuntimes, {})).count, 1);
    const status = await run(getIntegrationRuntimeStatus, { integrationRuntimeName: "onprem" });
    assert.equal(status.properties.state, "NeedRegistration");
    assert.ok(
      !JSON.stringify(await catalog.scan.getIntegrationRuntime("onprem")).includes("IR@"),
      "keys in get",
    );

    const lines: string[] = [];
    const ctx = {
      catalog: () => catalog,
      logger: createLogger("debug", { write: (line) => lines.push(line) }),
    } as unknown as OperationContext;
    const runWith = (operation: Operation, input: Record<string, unknown>) =>
      // deno-lint-ignore no-explicit-any
      operation.run(ctx, operation.input.parse(input)) as Promise<any>;
    const keys = await runWith(listIntegrationRuntimeAuthKeys, { integrationRuntimeName: "onprem" });
    assert.match(keys.authKey1, /^IR@/);
    assert.match(keys.authKey2, /^IR@/);
    const fresh = await runWith(regenerateIntegrationRuntimeAuthKey, {
      integrationRuntimeName: "onprem",
      keyName: "authKey1",
    });
    assert.notEqual(fresh.authKey1, keys.authKey1);
    assert.equal(fresh.authKey2, null);
    const after = await catalog.scan.listIntegrationRuntimeAuthKeys("onprem");
    assert.deepEqual(after, { authKey1: fresh.authKey1, authKey2: keys.authKey2 });
    ctx.logger.error(`keys ${keys.authKey1} ${keys.authKey2} ${fresh.authKey1}`);
    for (const key of [keys.authKey1, keys.authKey2, fresh.authKey1]) {
      assert.ok(!lines.join("\n").includes(key), "a key reached the log");
    }

    // Interactive query is for managed runtimes.
    const refused = await rejection(() => run(enableInteractiveQuery, { integrationRuntimeName: "onprem" }));
    assert.ok(refused instanceof BadRequestError, String(refused));

    assert.deepEqual(await run(deleteRuntime, { integrationRuntimeName: "onprem" }), { deleted: "onprem" });
    const gone = await rejection(() =>
      run(getIntegrationRuntimeStatus, { integrationRuntimeName: "onprem" })
    );
    assert.ok(gone instanceof NotFoundError);
    assert.match(gone.hint ?? "", /govcat scan listIntegrationRuntimes/);
  });
});

Deno.test("scan operations: the managed virtual network, a managed runtime's interactive query, private endpoints", async () => {
  await withScanSetup({}, async ({ run, file }) => {
    const missing = await rejection(() => run(getManagedVirtualNetwork, {}));
    assert.ok(missing instanceof NotFoundError);
    const network = await run(putManagedVirtualNetwork, {});
    assert.equal(network.created, true);
    assert.equal(network.managedVirtualNetwork.name, "defaultv2");
    assert.ok(network.managedVirtualNetwork.properties.vNetId);
    assert.equal((await run(listManagedVirtualNetworks, {})).count, 1);

    const payloadFile = await file("managed.json", {
      kind: "Managed",
      properties: { managedVirtualNetworkReference: { referenceName: "defaultv2" } },
    });
    await run(putRuntime, { integrationRuntimeName: "cloud", payloadFile });
    const enabled = await run(enableInteractiveQuery, {
      integrationRuntimeName: "cloud",
      autoTerminationMinutes: 30,
    });
    assert.equal(enabled.status, "Accepted");
    let status = await run(getIntegrationRuntimeStatus, { integrationRuntimeName: "cloud" });
    assert.deepEqual(status.properties.typeProperties.interactiveQuery, {
      status: "Enabled",
      autoTerminationMinutes: 30,
    });
    await run(disableInteractiveQuery, { integrationRuntimeName: "cloud" });
    status = await run(getIntegrationRuntimeStatus, { integrationRuntimeName: "cloud" });
    assert.equal(status.properties.typeProperties.interactiveQuery.status, "Disabled");

    const endpointFile = await file("endpoint.json", {
      properties: { privateLinkResourceId: "/subscriptions/x/storageAccounts/sales", groupId: "blob" },
    });
    const endpoint = await run(putManagedPrivateEndpoint, {
      managedPrivateEndpointName: "sales-blob",
      payloadFile: endpointFile,
    });
    assert.equal(endpoint.created, true);
    assert.equal(endpoint.managedPrivateEndpoint.properties.groupId, "blob");
    const got = await run(getManagedPrivateEndpoint, { managedPrivateEndpointName: "sales-blob" });
    assert.equal(got.properties.provisioningState, "Succeeded");
    assert.equal((await run(listManagedPrivateEndpoints, {})).count, 1);
    assert.deepEqual(await run(deleteManagedPrivateEndpoint, { managedPrivateEndpointName: "sales-blob" }), {
      deleted: "sales-blob",
    });
    assert.equal((await run(listManagedPrivateEndpoints, {})).count, 0);
  });
});

Deno.test("scan operations: auth key operations return secrets; regenerating and deleting are destructive", () => {
  const registry = createOperationRegistry();
  const list = registry.get("scan.list-integration-runtime-auth-keys")!;
  assert.equal(list.annotations.returnsSecrets, true);
  assert.equal(list.annotations.readOnly, true);
  const regenerate = registry.get("scan.regenerate-integration-runtime-auth-key")!;
  assert.equal(regenerate.annotations.returnsSecrets, true);
  assert.equal(regenerate.annotations.destructive, true);
  for (const id of ["scan.delete-integration-runtime", "scan.delete-managed-private-endpoint"]) {
    assert.equal(registry.get(id)?.annotations.destructive, true, id);
  }
  assert.equal(registry.get("scan.enable-interactive-query")?.annotations.destructive, false);
});
