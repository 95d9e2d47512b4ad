/**
 * The emulated account's properties as the service answers `GET /` (and `GET /account/`): the fields and
 * value types of Microsoft's recorded live answers, with the emulator's own values. The recordings (Azure
 * SDK session records, api-version 2019-11-01-preview) carry, beside the contract's fields, the account's
 * managed `identity`, its `tags`, `properties.cloudConnectors` (`awsExternalId`), the Azure resource ids of
 * `properties.managedResources` (`resourceGroup`, `storageAccount`, `eventHubNamespace`) and
 * `properties.managedResourceGroupName`:
 * - Azure/azure-sdk-for-net `sdk/purview/Azure.Analytics.Purview.Account/tests/SessionRecords/AccountsClientTest/GetTask.json`
 * - Azure/azure-sdk-for-js `sdk/purview/purview-administration-rest/recordings/node/get_account_info/recording_should_get_the_account_info.json`
 *
 * @example
 * ```ts
 * import { accountBody } from "./body.ts";
 * const account = accountBody("http://127.0.0.1:8085", "2026-01-01T00:00:00.000Z", undefined);
 * console.log(account.properties.managedResourceGroupName); // "managed-rg-emulator"
 * ```
 *
 * @module
 */
import { EMULATOR_ACCOUNT_NAME } from "./name.ts";

/** The account's friendly name until `PATCH /account` changes it. */
export const DEFAULT_ACCOUNT_FRIENDLY_NAME = "govcat catalog emulator";

/** The last change of the friendly name, as stored. */
export interface AccountChange {
  friendlyName: string;
  at: string;
}

const SUBSCRIPTION = "/subscriptions/00000000-0000-0000-0000-000000000000";
const MANAGED_GROUP = `managed-rg-${EMULATOR_ACCOUNT_NAME}`;
const MANAGED_GROUP_ID = `${SUBSCRIPTION}/resourceGroups/${MANAGED_GROUP}`;
/** The emulator has no Azure identity: fixed placeholder ids in the recorded GUID form. */
const PRINCIPAL_ID = "00000000-0000-0000-0000-00000000e001";
const TENANT_ID = "00000000-0000-0000-0000-00000000e002";
const AWS_EXTERNAL_ID = "00000000-0000-0000-0000-00000000e003";

/** The account's properties; `base` is the emulator's origin, which every endpoint names. */
export function accountBody(base: string, createdAt: string, change: AccountChange | undefined) {
  return {
    id:
      `${SUBSCRIPTION}/resourceGroups/govcat-emulator/providers/Microsoft.Purview/accounts/${EMULATOR_ACCOUNT_NAME}`,
    name: EMULATOR_ACCOUNT_NAME,
    type: "Microsoft.Purview/accounts",
    location: "local",
    identity: { type: "SystemAssigned", principalId: PRINCIPAL_ID, tenantId: TENANT_ID },
    tags: {},
    sku: { name: "Standard", capacity: 1 },
    systemData: {
      createdBy: "govcat emulator",
      createdByType: "Application",
      createdAt,
      lastModifiedBy: change ? "emulator-user" : "govcat emulator",
      lastModifiedByType: change ? "User" : "Application",
      lastModifiedAt: change?.at ?? createdAt,
    },
    properties: {
      cloudConnectors: { awsExternalId: AWS_EXTERNAL_ID },
      friendlyName: change?.friendlyName ?? DEFAULT_ACCOUNT_FRIENDLY_NAME,
      createdBy: "govcat emulator",
      createdByObjectId: "00000000-0000-0000-0000-000000000000",
      createdAt,
      endpoints: { catalog: `${base}/catalog`, scan: `${base}/scan`, guardian: `${base}/guardian` },
      provisioningState: "Succeeded",
      privateEndpointConnections: [],
      managedResources: {
        resourceGroup: MANAGED_GROUP_ID,
        storageAccount:
          `${MANAGED_GROUP_ID}/providers/Microsoft.Storage/storageAccounts/scanlocal${EMULATOR_ACCOUNT_NAME}`,
        eventHubNamespace:
          `${MANAGED_GROUP_ID}/providers/Microsoft.EventHub/namespaces/Atlas-${EMULATOR_ACCOUNT_NAME}`,
      },
      publicNetworkAccess: "Enabled",
      managedResourceGroupName: MANAGED_GROUP,
    },
  };
}
