/**
 * Every operation of the published contracts is served by the emulator. The operations are read from
 * the contract files themselves (Data Map 2023-09-01, Catalog 2023-02-01-preview, Account
 * 2019-11-01-preview, Scanning 2023-09-01, and the later Account 2023-10-01-preview, Data Map
 * 2024-03-01-preview, MetadataPolicies 2021-07-01-preview, Workflow 2023-10-01-preview and both Data Quality
 * 2025-09-01-preview files in TARGETS, with the operation lines of the unified catalog 2026-03-20-preview
 * notes, which have no OpenAPI document), never from a list written here, so an operation nobody thought
 * of cannot hide: one request per operation goes to an in-process emulator on 127.0.0.1, and the operation
 * counts as not served when the answer is the router's own "No API is served" 404 or a 405 (the path is
 * known, the method is not). Any other answer, a 400 for the probe's placeholder body or a 404 for its
 * placeholder name included, means a route serves the operation.
 *
 * Each contract's figure (served/total) is printed as a summary line. The only gaps allowed are the
 * scanning operations in KNOWN_UNSERVED: an operation missing from any other contract fails, and
 * an allowed gap that is now served fails too until its entry is removed, so the list only shrinks.
 *
 * The contracts live in ../shared/reference beside CI's clone only (see reference.ts for what happens
 * without them).
 */
import assert from "node:assert/strict";
import { EmulatorError } from "../../lib/emulator/errors.ts";
import { EmulatorApi, excerpt, type Json, type Reply } from "../support/contract/emulator_api.ts";
import {
  ACCOUNT_API_VERSION,
  CATALOG_API_VERSION,
  type Contract,
  type ContractOperation,
  type ContractParameter,
  DATAMAP_API_VERSION,
  loadAccountContract,
  loadCatalogContract,
  loadDataMapContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { withEmulator } from "../support/contract/replay.ts";
import {
  ACCOUNT_2023_API_VERSION,
  DATAMAP_2024_API_VERSION,
  loadAccount2023Contract,
  loadDataMap2024Contract,
} from "../support/contract/preview_contracts.ts";
import { loadScanningContract, SCAN_API_VERSION } from "../support/contract/scanning.ts";
import { loadPolicyContract, POLICY_API_VERSION } from "../support/contract/metadata_policies.ts";
import { loadUnified2026Contract, UNIFIED_2026_API_VERSION } from "../support/contract/unified_2026.ts";
import { loadWorkflowContract, WORKFLOW_API_VERSION } from "../support/contract/workflow.ts";
import {
  loadTypedQualityContract,
  loadUntypedQualityContract,
  QUALITY_API_VERSION,
} from "../support/contract/quality.ts";

/**
 * The operations known not to be served yet, by contract and operationId, each with what is missing.
 * When this list was first written 225 of 277 were served (Data Map 96/96, Catalog 101/109, Account
 * 7/14, Scanning 21/58); what is left are the 37 scanning operations. Only scanning operations may be listed. Remove an entry in the change
 * that serves it (the test fails on an entry that is served).
 */
export const KNOWN_UNSERVED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "Scanning 2023-09-01": {},
};

/** A contract to enumerate, its name in reports and the api-version its requests carry. */
interface Target {
  name: string;
  apiVersion: string;
  load(): Promise<Contract>;
}

const TARGETS: Target[] = [
  { name: "Data Map 2023-09-01", apiVersion: DATAMAP_API_VERSION, load: loadDataMapContract },
  { name: "Catalog 2023-02-01-preview", apiVersion: CATALOG_API_VERSION, load: loadCatalogContract },
  { name: "Account 2019-11-01-preview", apiVersion: ACCOUNT_API_VERSION, load: loadAccountContract },
  { name: "Scanning 2023-09-01", apiVersion: SCAN_API_VERSION, load: loadScanningContract },
  { name: "Account 2023-10-01-preview", apiVersion: ACCOUNT_2023_API_VERSION, load: loadAccount2023Contract },
  {
    name: "Data Map 2024-03-01-preview",
    apiVersion: DATAMAP_2024_API_VERSION,
    load: loadDataMap2024Contract,
  },
  { name: "MetadataPolicies 2021-07-01-preview", apiVersion: POLICY_API_VERSION, load: loadPolicyContract },
  // No OpenAPI document: the operation lines of the contract notes unified-catalog-2026.md.
  {
    name: "Unified catalog 2026-03-20-preview",
    apiVersion: UNIFIED_2026_API_VERSION,
    load: loadUnified2026Contract,
  },
  { name: "Workflow 2023-10-01-preview", apiVersion: WORKFLOW_API_VERSION, load: loadWorkflowContract },
  {
    name: "Data Quality 2025-09-01-preview",
    apiVersion: QUALITY_API_VERSION,
    load: loadUntypedQualityContract,
  },
  {
    name: "Data Quality rules 2025-09-01-preview",
    apiVersion: QUALITY_API_VERSION,
    load: loadTypedQualityContract,
  },
];

const PROBE_GUID = "00000000-0000-4000-8000-0000000000fe";

/** A placeholder for a path or query parameter: a guid where one is expected, else a plain name. */
function placeholder(parameter: ContractParameter): string {
  if (parameter.enum?.length) return String(parameter.enum[0]);
  if (parameter.type === "integer" || parameter.type === "number") return "1";
  if (parameter.type === "boolean") return "false";
  if (/guid|Id$/i.test(parameter.name)) return PROBE_GUID;
  return "probe";
}

/** The one request sent for an operation: its path filled with placeholders, its body a minimal one. */
export function probeRequest(operation: ContractOperation): {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  form?: FormData;
} {
  let path = operation.path;
  const query: Record<string, string> = {};
  let body: unknown;
  let form: FormData | undefined;
  for (const parameter of operation.parameters) {
    if (parameter.in === "path" && path.includes(`{${parameter.name}}`)) {
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(placeholder(parameter)));
    } else if (parameter.in === "query" && parameter.required && parameter.name !== "api-version") {
      query[parameter.name.replace(/^attr_N:/, "attr_1:")] = placeholder(parameter);
    } else if (parameter.in === "body") {
      body = parameter.schema?.type === "array" ? [] : {};
    } else if (parameter.in === "formData") {
      form ??= new FormData();
      form.append(parameter.name, new Blob(["Name\nprobe\n"], { type: "text/csv" }), "probe.csv");
    }
  }
  return { method: operation.method, path, query, body, form };
}

/**
 * Whether an answer says no route serves the request: a 405, or the router's own 404 (the message
 * {@link EmulatorError.routeNotFound} writes, in the Atlas or the azure error shape).
 */
export function unservedReason(method: string, fullPath: string, reply: Reply): string | undefined {
  if (reply.status === 405) return `405 ${excerpt(reply.text, 200)}`;
  if (reply.status !== 404) return undefined;
  const json = (reply.json ?? {}) as Json;
  const azure = (json.error ?? {}) as Json;
  const message = String(json.errorMessage ?? azure.message ?? "");
  const routeMissing = EmulatorError.routeNotFound(method, fullPath).message;
  return message === routeMissing || message.startsWith("No API is served")
    ? `404 ${excerpt(message, 200)}`
    : undefined;
}

/** The operations of a contract the emulator does not serve, with the answer each got. */
async function unservedOperations(
  url: string,
  contract: Contract,
  apiVersion: string,
): Promise<Map<string, string>> {
  const api = new EmulatorApi(url, contract, apiVersion);
  const unserved = new Map<string, string>();
  const operations = [...contract.operations.values()].sort((a, b) =>
    a.operationId.localeCompare(b.operationId)
  );
  for (const operation of operations) {
    const request = probeRequest(operation);
    const reply = await api.send(request.method, request.path, {
      query: request.query,
      body: request.body,
      form: request.form,
    });
    const reason = unservedReason(request.method, new URL(api.base + request.path).pathname, reply);
    if (reason) unserved.set(operation.operationId, `${request.method} ${operation.path} -> ${reason}`);
  }
  return unserved;
}

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `every operation of the four contracts is served by the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  Deno.test("operations served: the probe tells a served route from the router's 404 and 405", async () => {
    const contract = await loadDataMapContract();
    await withEmulator(async (emulator) => {
      const api = new EmulatorApi(emulator.url, contract, DATAMAP_API_VERSION);
      const missing = await api.send("GET", "/atlas/v2/nosuchroute");
      assert.ok(unservedReason("GET", "/datamap/api/atlas/v2/nosuchroute", missing), missing.text);
      const wrongMethod = await api.send("PATCH", `/atlas/v2/entity/guid/${PROBE_GUID}`);
      assert.ok(unservedReason("PATCH", `/datamap/api/atlas/v2/entity/guid/${PROBE_GUID}`, wrongMethod));
      // A served route answering 404 for an unknown guid is served.
      const unknown = await api.send("GET", `/atlas/v2/entity/guid/${PROBE_GUID}`);
      assert.equal(unknown.status, 404);
      assert.equal(
        unservedReason("GET", `/datamap/api/atlas/v2/entity/guid/${PROBE_GUID}`, unknown),
        undefined,
      );
    });
  });

  Deno.test("operations served: the known gaps are operations of the scanning contract only", async () => {
    assert.deepEqual(Object.keys(KNOWN_UNSERVED), ["Scanning 2023-09-01"], "only scanning gaps are allowed");
    for (const [name, gaps] of Object.entries(KNOWN_UNSERVED)) {
      const target = TARGETS.find((t) => t.name === name);
      assert.ok(target, `${name} is not one of the contracts`);
      const contract = await target.load();
      for (const operationId of Object.keys(gaps)) {
        assert.ok(contract.operations.has(operationId), `${operationId} is not an operation of ${name}`);
      }
    }
  });

  for (const target of TARGETS) {
    Deno.test(`operations served: every operation of the ${target.name} contract`, async () => {
      const contract = await target.load();
      const allowed = KNOWN_UNSERVED[target.name] ?? {};
      const unserved = await withEmulator((emulator) =>
        unservedOperations(emulator.url, contract, target.apiVersion)
      );
      const total = contract.operations.size;
      const gaps = [...unserved.keys()];
      console.log(
        `${target.name}: ${total - unserved.size} of ${total} operations served` +
          (unserved.size ? ` (not served: ${gaps.join(", ")})` : ""),
      );
      const unexpected = gaps.filter((id) => !(id in allowed)).map((id) => `${id}: ${unserved.get(id)}`);
      assert.deepEqual(unexpected, [], `${target.name}: operations the emulator does not serve`);
      const stale = Object.keys(allowed).filter((id) => !unserved.has(id));
      assert.deepEqual(stale, [], `${target.name}: served now, remove from KNOWN_UNSERVED`);
    });
  }
}
