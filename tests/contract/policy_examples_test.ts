/**
 * Replays the published metadata policies contract's examples (2021-07-01-preview: metadata roles and
 * policies, under `/policyStore`) against the emulator. For every example: prepare what it refers to
 * (SCENARIOS), build the request from the example's parameters and the operation's method and path
 * template, send it to a fresh seeded emulator, and check that
 *   (a) the status is the example's own,
 *   (b) a 2xx body validates against the operation's response schema,
 *   (c) an error body validates against the contract's `ErrorResponseModel`, for the ERROR_CASES at the end.
 *
 * The examples name the policy of `mycollection` (child of `myparentcollection`) by the id the service gave
 * it; the emulator gives its own ids, so the scenarios make both collections and put the emulator's id of
 * mycollection's policy where the example has the recorded one (path and body).
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { EmulatorApi, Json } from "../support/contract/emulator_api.ts";
import { loadPolicyContract, POLICY_API_VERSION } from "../support/contract/metadata_policies.ts";
import { type Contract, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import {
  assertScenariosCoverExamples,
  azureErrorSchema,
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";

const ACCOUNT_API_VERSION = "2019-11-01-preview";
const V = { "api-version": POLICY_API_VERSION };

async function putCollection(api: EmulatorApi, name: string, parent: string): Promise<void> {
  const base = api.base.replace(/\/policyStore$/, "");
  const response = await fetch(`${base}/account/collections/${name}?api-version=${ACCOUNT_API_VERSION}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ friendlyName: name, parentCollection: { referenceName: parent } }),
  });
  const text = await response.text();
  assert.ok(response.ok, `setup: create collection ${name} under ${parent} -> ${response.status} ${text}`);
}

/** The emulator's id of a collection's policy. */
async function policyIdOf(api: EmulatorApi, collection: string): Promise<string> {
  const reply = await api.ok(`read the policy of ${collection}`, "GET", "/metadataPolicies", {
    query: { ...V, collectionName: collection },
  });
  return String(((reply.json as Json).values as Json[])[0].id);
}

const NO_SETUP: ReplayScenario = { steps: ["none: the seed's collections have policies"], prepare: () => {} };

/** mycollection under myparentcollection, its policy's id put where the example has the service's. */
const EXAMPLE_COLLECTIONS: ReplayScenario = {
  steps: [
    "create collection myparentcollection under the root collection, and mycollection under it",
    "use the emulator's id of mycollection's policy for policyId (and the body's id)",
  ],
  prepare: async ({ api, params }) => {
    await putCollection(api, "myparentcollection", "emulator");
    await putCollection(api, "mycollection", "myparentcollection");
    const id = await policyIdOf(api, "mycollection");
    params.policyId = id;
    if (params.body) (params.body as Json).id = id;
  },
};

const SCENARIOS: Record<string, ReplayScenario> = {
  "MetadataRoles_List.json": NO_SETUP,
  "MetadataPolicy_ListAll.json": NO_SETUP,
  "MetadataPolicy_Get.json": EXAMPLE_COLLECTIONS,
  "MetadataPolicy_Update.json": EXAMPLE_COLLECTIONS,
};

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: POLICY_API_VERSION, errorSchema: azureErrorSchema };
}

/** Error answers the policy store must give in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "MetadataPolicy_Get of an unknown policy",
    operationId: "MetadataPolicy_Get",
    status: 404,
    send: (api) => api.send("GET", "/metadataPolicies/00000000-0000-4000-8000-000000000404", { query: V }),
  },
  {
    name: "MetadataPolicy_ListAll of an unknown collection",
    operationId: "MetadataPolicy_ListAll",
    status: 404,
    send: (api) =>
      api.send("GET", "/metadataPolicies", { query: { ...V, collectionName: "nosuchcollection" } }),
  },
  {
    name: "MetadataPolicy_Update naming a member that is not an object id",
    operationId: "MetadataPolicy_Update",
    status: 400,
    send: async (api) => {
      const id = await policyIdOf(api, "sales");
      const policy = (await api.ok("read sales's policy", "GET", `/metadataPolicies/${id}`, { query: V }))
        .json as Json;
      const rules = (policy.properties as Json).attributeRules as Json[];
      ((rules[0].dnfCondition as Json[][])[0][0] as Json).attributeValueIncludedIn = ["not-a-guid"];
      return api.send("PUT", `/metadataPolicies/${id}`, { query: V, body: policy });
    },
  },
];

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `metadata policies contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadPolicyContract();
  const examples = [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("metadata policies contract: every example has a setup entry, and no stale entry", () => {
    assert.equal(contract.prefix, "/policyStore");
    assertScenariosCoverExamples(examples, SCENARIOS);
  });

  for (const example of examples) {
    Deno.test(`metadata policies contract example ${example.file}`, () =>
      replayExample(profileOf(contract), example, SCENARIOS[example.file]));
  }

  Deno.test("metadata policies contract example MetadataPolicy_Update.json: the answer is the change, version 2", () =>
    replayExample(
      profileOf(contract),
      contract.examples.get("MetadataPolicy_Update.json")!,
      EXAMPLE_COLLECTIONS,
      (
        _operation,
        reply,
      ) => {
        const body = reply.json as Json;
        const rules = (body.properties as Json).attributeRules as Json[];
        const admins = (rules[0].dnfCondition as Json[][])[0][0] as Json;
        return [
          ...(body.version === 2 ? [] : [`version ${body.version}, expected 2 (1 sent, one update)`]),
          ...(JSON.stringify(admins.attributeValueIncludedIn) ===
              JSON.stringify(["69e520f2-5f26-4074-9fe1-5187d85ec005", "3f10f245-d5c4-4541-98ce-01a4580a30e0"])
            ? []
            : [
              `administrators ${JSON.stringify(admins.attributeValueIncludedIn)}, not the two the body named`,
            ]),
          ...((body.properties as Json).parentCollectionName === "myparentcollection"
            ? []
            : ["parentCollectionName is not myparentcollection"]),
        ];
      },
    ));

  for (const errorCase of ERROR_CASES) {
    Deno.test(`metadata policies contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
