/**
 * The account API as the service answers it in Microsoft's recorded live sessions (Azure SDK session
 * records, api-version 2019-11-01-preview): the account, its keys and the change of its friendly name at
 * the root of the host (`GET /`, `PATCH /`, `POST /listkeys`, `POST /regeneratekeys`) as well as under
 * `/account`, the account's `identity`, `tags`, `cloudConnectors` and managed resources, and the root
 * collection's description. Over real HTTP on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { call, ok, withEmulator } from "../emulator_test_helpers.ts";

const V = "api-version=2019-11-01-preview";

Deno.test("account: GET / at the host's root answers the account, with the recorded fields", async () => {
  await withEmulator({}, async (emulator) => {
    const root = await ok(emulator, "GET", `/?${V}`);
    assert.match(root.headers.get("content-type") ?? "", /^application\/json/);
    const account = root.body;
    // As Azure/azure-sdk-for-net …/Azure.Analytics.Purview.Account/tests/SessionRecords/AccountsClientTest/GetTask.json
    assert.equal(account.identity.type, "SystemAssigned");
    assert.equal(typeof account.identity.principalId, "string");
    assert.equal(typeof account.identity.tenantId, "string");
    assert.deepEqual(account.tags, {});
    const properties = account.properties;
    assert.equal(typeof properties.cloudConnectors.awsExternalId, "string");
    assert.deepEqual(Object.keys(properties.managedResources).sort(), [
      "eventHubNamespace",
      "resourceGroup",
      "storageAccount",
    ]);
    assert.equal(properties.managedResourceGroupName, "managed-rg-emulator");
    assert.equal(
      properties.managedResources.resourceGroup.split("/").at(-1),
      properties.managedResourceGroupName,
      "the resource group id names the managed resource group",
    );
    assert.match(
      properties.managedResources.storageAccount,
      /\/providers\/Microsoft\.Storage\/storageAccounts\//,
    );
    assert.match(
      properties.managedResources.eventHubNamespace,
      /\/providers\/Microsoft\.EventHub\/namespaces\//,
    );

    const underAccount = await ok(emulator, "GET", `/account/?${V}`);
    assert.deepEqual(underAccount.body, account, "the /account spelling answers the same account");
  });
});

Deno.test("account: PATCH / renames the account, read back under /account", async () => {
  await withEmulator({}, async (emulator) => {
    // Azure/azure-sdk-for-net …/AccountsClientTest/UpdateTask.json sends PATCH / {friendlyName}.
    const patched = await ok(emulator, "PATCH", `/?${V}`, { friendlyName: "udpatedFriendlyName" });
    assert.equal(patched.body.properties.friendlyName, "udpatedFriendlyName");
    const read = await ok(emulator, "GET", `/account?${V}`);
    assert.equal(read.body.properties.friendlyName, "udpatedFriendlyName");
  });
});

Deno.test("account: POST /listkeys and /regeneratekeys at the root are the account's keys", async () => {
  await withEmulator({}, async (emulator) => {
    // Azure/azure-sdk-for-net …/AccountsClientTest/ListKeysTask.json: regenerate, then list, at the root.
    const before = await ok(emulator, "POST", `/account/listkeys?${V}`);
    const regenerated = await ok(emulator, "POST", `/regeneratekeys?${V}`, {
      keyType: "PrimaryAtlasKafkaKey",
    });
    assert.notEqual(regenerated.body.atlasKafkaPrimaryEndpoint, before.body.atlasKafkaPrimaryEndpoint);
    assert.equal(regenerated.body.atlasKafkaSecondaryEndpoint, before.body.atlasKafkaSecondaryEndpoint);
    const listed = await ok(emulator, "POST", `/listkeys?${V}`);
    assert.deepEqual(listed.body, regenerated.body);
    assert.deepEqual((await ok(emulator, "POST", `/account/listkeys?${V}`)).body, listed.body);
  });
});

Deno.test("account: a wrong method or body at the root answers in the account API's error shape", async () => {
  await withEmulator({}, async (emulator) => {
    const deleted = await call(emulator, "DELETE", `/?${V}`);
    assert.equal(deleted.status, 405);
    assert.equal(deleted.body.error.code, "MethodNotAllowed");
    const badKey = await call(emulator, "POST", `/regeneratekeys?${V}`, { keyType: "TertiaryKey" });
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.error.code, "InvalidKeyType");
    assert.equal(badKey.body.error.target, "keyType");
  });
});

Deno.test("account: the root collection has the service's description", async () => {
  await withEmulator({}, async (emulator) => {
    // Azure/azure-sdk-for-js …/purview-administration-rest/recordings/node/list_collections/…json
    const listed = await ok(emulator, "GET", `/collections?${V}`);
    const root = listed.body.value.find((c: { name: string }) => c.name === "emulator");
    assert.equal(root.description, "The root collection.");
    assert.equal(root.parentCollection, undefined);
  });
});
