/**
 * The account commands as a user runs them: govcat as a subprocess, over real HTTP, against the emulator,
 * which answers the account with the fields Microsoft's recorded live answers carry (identity, tags, cloud
 * connectors, managed resources; Azure/azure-sdk-for-net
 * `sdk/purview/Azure.Analytics.Purview.Account/tests/SessionRecords/AccountsClientTest/GetTask.json`).
 */
import assert from "node:assert/strict";
import { withCliSetup } from "../support/cli_harness.ts";

Deno.test("account get shows the account's identity, tags and managed resources", async () => {
  await withCliSetup({}, async (setup) => {
    const json = await setup.govcat("account", "get");
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.json.identity.type, "SystemAssigned");
    assert.deepEqual(json.json.tags, {});
    assert.equal(json.json.properties.managedResourceGroupName, "managed-rg-emulator");

    const table = await setup.govcatText("account", "get", "--output=table");
    assert.equal(table.code, 0, table.stderr);
    for (
      const row of [
        /^identity\.type\s+SystemAssigned$/m,
        /^identity\.principalId\s+\S+$/m,
        /^tags\s+\{\}$/m,
        /^properties\.cloudConnectors\.awsExternalId\s+\S+$/m,
        /^properties\.managedResources\.resourceGroup\s+\/subscriptions\//m,
        /^properties\.managedResources\.storageAccount\s+\/subscriptions\//m,
        /^properties\.managedResources\.eventHubNamespace\s+\/subscriptions\//m,
        /^properties\.managedResourceGroupName\s+managed-rg-emulator$/m,
      ]
    ) {
      assert.match(table.stdout, row);
    }
  });
});
