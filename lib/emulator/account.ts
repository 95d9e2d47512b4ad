/**
 * The account area (`GET /account/`, api-version 2019-11-01-preview): the properties of the emulated
 * catalog account, in the shape of the account contract, with endpoints pointing back at the emulator.
 *
 * @module
 */
import type { ApiArea } from "./area.ts";
import { jsonResponse } from "./errors.ts";

/** Name of the emulated account; `govcat serve --emulator` uses it when no account name is set. */
export const EMULATOR_ACCOUNT_NAME = "emulator";

/** Account properties. The endpoints are derived from the request, so they name the emulator's own URL. */
export const accountArea: ApiArea = (deps) => {
  const createdAt = new Date(deps.now()).toISOString();
  const handler = ({ url }: { url: URL }) => {
    const base = url.origin;
    return jsonResponse({
      id: `/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/govcat-emulator/providers/` +
        `Microsoft.Purview/accounts/${EMULATOR_ACCOUNT_NAME}`,
      name: EMULATOR_ACCOUNT_NAME,
      type: "Microsoft.Purview/accounts",
      location: "local",
      sku: { name: "Standard", capacity: 1 },
      systemData: {
        createdBy: "govcat emulator",
        createdByType: "Application",
        createdAt,
        lastModifiedBy: "govcat emulator",
        lastModifiedByType: "Application",
        lastModifiedAt: createdAt,
      },
      properties: {
        friendlyName: "govcat catalog emulator",
        createdBy: "govcat emulator",
        createdByObjectId: "00000000-0000-0000-0000-000000000000",
        createdAt,
        provisioningState: "Succeeded",
        publicNetworkAccess: "Enabled",
        endpoints: { catalog: `${base}/catalog`, scan: `${base}/scan`, guardian: `${base}/guardian` },
        privateEndpointConnections: [],
        managedResources: {},
      },
    });
  };
  // The router ignores a trailing slash, so this also answers the contract's `/account/`.
  return [{ method: "GET", path: "/account", handler }];
};
