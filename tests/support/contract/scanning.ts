/**
 * The published scanning contract (Azure.Analytics.Purview.Scanning, 2023-09-01) for the contract tests:
 * where it lives, its api-version, and the set-up steps its example replays need on an emulator (a
 * collection, a data source, a scan, a run, a trigger, a classification rule); its error shape is the
 * account contract's (`azureErrorSchema` of replay.ts). The contract's host is the account endpoint and its
 * `basePath` is `/scan`, so its paths sit below `/scan`.
 *
 * @module
 */
import type { EmulatorApi, Json, Reply } from "./emulator_api.ts";
import { type Contract, type ContractOperation, loadContract, REFERENCE_DIR } from "./reference.ts";

/** The scanning contract document. */
export const SCANNING_CONTRACT_FILE: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Scanning/stable/2023-09-01/" +
    "scanningService.json",
  REFERENCE_DIR,
);

/** The api-version of the scanning contract, which the client sends on every scanning request. */
export const SCAN_API_VERSION = "2023-09-01";

const ACCOUNT_API_VERSION = "2019-11-01-preview";
const V = { "api-version": SCAN_API_VERSION };

/** Loads (once per process) the scanning contract and its examples; its prefix is `/scan`. */
export function loadScanningContract(): Promise<Contract> {
  return loadContract(SCANNING_CONTRACT_FILE);
}

/**
 * Drops the parameters an example passes but its operation does not declare (`triggerName`, the
 * subscription of the classification rule examples), and those it sets to null (`skipToken: null`): a
 * client would send neither.
 */
export function dropUndeclared(params: Json, operation: ContractOperation): void {
  const declared = new Set(operation.parameters.map((p) => p.name));
  for (const name of Object.keys(params)) {
    if (!declared.has(name) && !["endpoint", "api-version"].includes(name)) delete params[name];
  }
  for (const [name, value] of Object.entries(params)) if (value === null) delete params[name];
}

/** Set-up steps on an emulator's scanning API; each raises a SetupError naming itself when refused. */
export const scanSetup = {
  /** A collection under the root collection (account API, beside `/scan`). */
  async collection(api: EmulatorApi, name: string): Promise<void> {
    const url = `${
      api.base.replace(/\/scan$/, "")
    }/account/collections/${name}?api-version=${ACCOUNT_API_VERSION}`;
    const response = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ parentCollection: { referenceName: "emulator" } }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`setup: create collection ${name} -> HTTP ${response.status} ${text}`);
  },
  source: (api: EmulatorApi, name: unknown): Promise<Reply> =>
    api.ok(`create data source ${name}`, "PUT", `/datasources/${name}`, {
      query: V,
      body: { kind: "AzureStorage", properties: { endpoint: "https://sales.blob.core.windows.net/" } },
    }),
  scan: (api: EmulatorApi, ds: unknown, name: unknown): Promise<Reply> =>
    api.ok(`create scan ${name} of ${ds}`, "PUT", `/datasources/${ds}/scans/${name}`, {
      query: V,
      body: { kind: "AzureStorageMsi" },
    }),
  run: (api: EmulatorApi, ds: unknown, name: unknown, runId: unknown): Promise<Reply> =>
    api.ok(`start run ${runId} of ${ds}/${name}`, "POST", `/datasources/${ds}/scans/${name}:run`, {
      query: { ...V, runId: String(runId) },
    }),
  trigger: (api: EmulatorApi, ds: unknown, name: unknown): Promise<Reply> =>
    api.ok(
      `create the trigger of ${ds}/${name}`,
      "PUT",
      `/datasources/${ds}/scans/${name}/triggers/default`,
      {
        query: V,
        body: {
          properties: {
            recurrence: {
              frequency: "Month",
              interval: 1,
              schedule: { hours: [23], minutes: [56], monthDays: [10] },
            },
          },
        },
      },
    ),
  rule: (api: EmulatorApi, name: unknown): Promise<Reply> =>
    api.ok(`create classification rule ${name}`, "PUT", `/classificationrules/${name}`, {
      query: V,
      body: {
        kind: "Custom",
        properties: {
          classificationName: "CUSTOM.TEST.TWO",
          dataPatterns: [{ kind: "Regex", pattern: "^data1$" }],
        },
      },
    }),
};
