/**
 * Replays every example of the 2023-10-01-preview account contract (account properties and keys,
 * collections, contact group definitions and contact assignments, domains, feature flags, resource set
 * rules) against a fresh seeded emulator, as account_examples_test.ts does for 2019-11-01-preview: the
 * scenario prepares what the example names, then (a) the status is the example's own, (b) a 2xx body
 * validates against the operation's response schema, (c) an error body validates against the contract's
 * `ErrorResponseModel`, both for unexpected errors and for the ERROR_CASES at the end.
 *
 * Contract errata handled by the scenarios (a client would send none of these):
 * - Accounts_UpdateAccountProperties passes `accountName`, and the resource set rule examples `accountId`
 *   and `resourceSetRuleConfigName`, which their operations do not declare: dropped.
 * - Domains_GetDomain names `myDomain1`; the API cannot create domains, and the emulated account's one
 *   domain is its default (named like the root collection), so the replay asks for that one.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { EmulatorApi, Json } from "../support/contract/emulator_api.ts";
import { type Contract, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { ACCOUNT_2023_API_VERSION, loadAccount2023Contract } from "../support/contract/preview_contracts.ts";
import {
  assertScenariosCoverExamples,
  azureErrorSchema,
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";

/** The root collection of the emulator (named after the account), also its default domain. */
const ROOT = "emulator";
const V = { "api-version": ACCOUNT_2023_API_VERSION };
const RULE_PATH = "/resourceSetRuleConfigs/defaultResourceSetRuleConfig";
const ASSIGNMENT_ID = "92da5bf4-f7ed-4118-bce7-df3807017cce";
const PRINCIPAL = "12341234-1234-4379-8609-9572491ea3e0";

/** Examples that answer several statuses, replayed at this one (the 204 one is a test of its own). */
const STATUS: Record<string, number> = { "ResourceSetRules_DeleteResourceSetRule.json": 200 };

function putCollection(api: EmulatorApi, name: string, parent = ROOT): Promise<unknown> {
  return api.ok(
    `create collection ${name} under ${parent}`,
    "PUT",
    `/collections/${encodeURIComponent(name)}`,
    {
      query: V,
      body: { friendlyName: name, parentCollection: { referenceName: parent } },
    },
  );
}

function putGroup(api: EmulatorApi, name: string): Promise<unknown> {
  return api.ok(`create contact group ${name}`, "PUT", `/contactGroupDefinitions/${name}`, {
    query: V,
    body: { description: `${name} of the replay` },
  });
}

/** The assignment of the create example: group `experts` on collection `coll1`. */
async function putAssignment(api: EmulatorApi, scope = "coll1", id = ASSIGNMENT_ID): Promise<void> {
  await api.ok(`assign ${PRINCIPAL} as expert of ${scope}`, "PUT", `/contactAssignments/${id}`, {
    query: V,
    body: {
      principalId: PRINCIPAL,
      contactGroup: { type: "ContactGroupDefinitionReference", referenceName: "experts" },
      scope: { type: "CollectionReference", referenceName: scope },
    },
  });
}

const NO_SETUP: ReplayScenario = {
  steps: ["none: the example needs nothing beyond the seed"],
  prepare: () => {},
};

const dropParams = (...names: string[]): ReplayScenario => ({
  steps: [`drop the undeclared parameters ${names.join(", ")}`],
  prepare: ({ params }) => names.forEach((name) => delete params[name]),
});

const RULE_EXAMPLE = dropParams("accountId", "resourceSetRuleConfigName");

const EXISTING_RULE: ReplayScenario = {
  steps: [
    "put the configuration of ResourceSetRules_CreateOrUpdateResourceSetRule.json",
    ...RULE_EXAMPLE.steps,
  ],
  prepare: async (context) => {
    const create = context.contract.examples.get("ResourceSetRules_CreateOrUpdateResourceSetRule.json")!;
    await context.api.ok("put the resource set rule configuration", "PUT", RULE_PATH, {
      query: V,
      body: create.parameters.body,
    });
    await RULE_EXAMPLE.prepare(context);
  },
};

const EXISTING_COLLECTION: ReplayScenario = {
  steps: ["create the example's collection under the root collection"],
  prepare: ({ api, params }) => putCollection(api, String(params.collectionName)).then(() => {}),
};

const EXISTING_GROUP: ReplayScenario = {
  steps: ["create the example's contact group definition"],
  prepare: ({ api, params }) => putGroup(api, String(params.contactGroupDefinitionName)).then(() => {}),
};

const GROUP_AND_COLLECTION: ReplayScenario = {
  steps: ["create contact group experts and collection coll1"],
  prepare: async ({ api }) => {
    await putGroup(api, "experts");
    await putCollection(api, "coll1");
  },
};

const EXISTING_ASSIGNMENT: ReplayScenario = {
  steps: [...GROUP_AND_COLLECTION.steps, "assign the create example's principal as expert of coll1"],
  prepare: async (context) => {
    await GROUP_AND_COLLECTION.prepare(context);
    await putAssignment(context.api);
  },
};

const ASSIGNMENT_ON_SCOPE: ReplayScenario = {
  steps: [
    "create contact group experts and the example's scope collection",
    "assign a principal as expert of that collection",
  ],
  prepare: async ({ api, params }) => {
    await putGroup(api, "experts");
    await putCollection(api, String(params.scope));
    await putAssignment(api, String(params.scope));
  },
};

const SCENARIOS: Record<string, ReplayScenario> = {
  "Accounts_GetAccountProperties.json": NO_SETUP,
  "Accounts_UpdateAccountProperties.json": dropParams("accountName"),
  "Accounts_GetAccessKeys.json": NO_SETUP,
  "Accounts_RegenerateAccessKeys.json": NO_SETUP,
  "Collections_ListCollections.json": NO_SETUP,
  "Collections_CreateOrUpdateCollection.json": {
    steps: ["create the parent collection the body names under the root collection"],
    prepare: async ({ api, params }) => {
      const parent = ((params.body as Json).parentCollection as Json).referenceName;
      await putCollection(api, String(parent));
    },
  },
  "Collections_GetCollection.json": EXISTING_COLLECTION,
  "Collections_GetCollectionPath.json": EXISTING_COLLECTION,
  "Collections_DeleteCollection.json": EXISTING_COLLECTION,
  "Collections_ListChildCollectionNames.json": {
    steps: ["create the example's collection under the root collection, and child1 under it"],
    prepare: async ({ api, params }) => {
      await putCollection(api, String(params.collectionName));
      await putCollection(api, "child1", String(params.collectionName));
    },
  },
  "ContactGroupDefinitions_CreateOrUpdateContactGroupDefinition.json": NO_SETUP,
  "ContactGroupDefinitions_GetContactGroupDefinition.json": EXISTING_GROUP,
  "ContactGroupDefinitions_DeleteContactGroupDefinition.json": EXISTING_GROUP,
  "ContactGroupDefinitions_ListContactGroupDefinitions.json": {
    steps: ["create contact group myOwnerGroup1"],
    prepare: ({ api }) => putGroup(api, "myOwnerGroup1").then(() => {}),
  },
  "ContactAssignments_CreateOrUpdateContactAssignment.json": GROUP_AND_COLLECTION,
  "ContactAssignments_GetContactAssignment.json": EXISTING_ASSIGNMENT,
  "ContactAssignments_DeleteContactAssignment.json": EXISTING_ASSIGNMENT,
  "ContactAssignments_ListContactAssignments.json": ASSIGNMENT_ON_SCOPE,
  "ContactAssignments_ListScopedContactGroupNames.json": ASSIGNMENT_ON_SCOPE,
  "Domains_ListDomains.json": NO_SETUP,
  "Domains_GetDomain.json": {
    steps: [
      `ask for the account's default domain, ${ROOT}, instead of myDomain1 (the API creates no domains)`,
    ],
    prepare: ({ params }) => {
      params.domainName = ROOT;
    },
  },
  "ExposureControl_GetFeatures.json": NO_SETUP,
  "ResourceSetRules_CreateOrUpdateResourceSetRule.json": RULE_EXAMPLE,
  "ResourceSetRules_GetResourceSetRule.json": EXISTING_RULE,
  "ResourceSetRules_ListResourceSetRules.json": EXISTING_RULE,
  "ResourceSetRules_DeleteResourceSetRule.json": EXISTING_RULE,
};

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: ACCOUNT_2023_API_VERSION, errorSchema: azureErrorSchema };
}

/** Error answers of the 2023-10-01-preview operations, in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "ContactGroupDefinitions_GetContactGroupDefinition of an unknown group",
    operationId: "ContactGroupDefinitions_GetContactGroupDefinition",
    status: 404,
    send: (api) => api.send("GET", "/contactGroupDefinitions/nosuchgroup", { query: V }),
  },
  {
    name: "ContactGroupDefinitions_CreateOrUpdateContactGroupDefinition of the system group Expert",
    operationId: "ContactGroupDefinitions_CreateOrUpdateContactGroupDefinition",
    status: 400,
    send: (api) =>
      api.send("PUT", "/contactGroupDefinitions/Expert", { query: V, body: { description: "x" } }),
  },
  {
    name: "ContactGroupDefinitions_DeleteContactGroupDefinition of a group still assigned",
    operationId: "ContactGroupDefinitions_DeleteContactGroupDefinition",
    status: 409,
    send: async (api) => {
      await putGroup(api, "experts");
      await putCollection(api, "coll1");
      await putAssignment(api);
      return api.send("DELETE", "/contactGroupDefinitions/experts", { query: V });
    },
  },
  {
    name: "ContactAssignments_CreateOrUpdateContactAssignment on an unknown collection",
    operationId: "ContactAssignments_CreateOrUpdateContactAssignment",
    status: 400,
    send: (api) =>
      api.send("PUT", `/contactAssignments/${ASSIGNMENT_ID}`, {
        query: V,
        body: {
          principalId: PRINCIPAL,
          contactGroup: { referenceName: "Expert" },
          scope: { type: "CollectionReference", referenceName: "nosuchcollection" },
        },
      }),
  },
  {
    name: "ContactAssignments_CreateOrUpdateContactAssignment with a principalId that is no GUID",
    operationId: "ContactAssignments_CreateOrUpdateContactAssignment",
    status: 400,
    send: (api) =>
      api.send("PUT", `/contactAssignments/${ASSIGNMENT_ID}`, {
        query: V,
        body: {
          principalId: "someone@example.com",
          contactGroup: { referenceName: "Expert" },
          scope: { type: "CollectionReference", referenceName: ROOT },
        },
      }),
  },
  {
    name: "ContactAssignments_GetContactAssignment of an unknown id",
    operationId: "ContactAssignments_GetContactAssignment",
    status: 404,
    send: (api) => api.send("GET", `/contactAssignments/${ASSIGNMENT_ID}`, { query: V }),
  },
  {
    name: "ContactAssignments_ListContactAssignments with an unknown referenceType",
    operationId: "ContactAssignments_ListContactAssignments",
    status: 400,
    send: (api) => api.send("GET", "/contactAssignments", { query: { ...V, referenceType: "Planet" } }),
  },
  {
    name: "Domains_GetDomain of an unknown domain",
    operationId: "Domains_GetDomain",
    status: 404,
    send: (api) => api.send("GET", "/domains/myDomain1", { query: V }),
  },
  {
    name: "ExposureControl_GetFeatures without features",
    operationId: "ExposureControl_GetFeatures",
    status: 400,
    send: (api) => api.send("POST", "/features", { query: V, body: { features: [] } }),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `account 2023-10-01-preview contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadAccount2023Contract();
  const examples = [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("account 2023-10-01-preview contract: every example has a scenario, and no stale entry", () => {
    assert.equal(new Set(examples.map((e) => e.file)).size, 26);
    assertScenariosCoverExamples(examples, SCENARIOS);
  });

  for (const example of examples) {
    Deno.test(`account 2023-10-01-preview contract example ${example.file}`, () =>
      replayExample(profileOf(contract), example, SCENARIOS[example.file], undefined, STATUS[example.file]));
  }

  Deno.test("account 2023-10-01-preview contract example ResourceSetRules_DeleteResourceSetRule.json at 204", () =>
    replayExample(
      profileOf(contract),
      contract.examples.get("ResourceSetRules_DeleteResourceSetRule.json")!,
      RULE_EXAMPLE,
      undefined,
      204,
    ));

  for (const errorCase of ERROR_CASES) {
    Deno.test(`account 2023-10-01-preview contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
