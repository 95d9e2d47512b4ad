/**
 * Replays the published account contract's examples (2019-11-01-preview: account properties and
 * collections) against the emulator. The account API has no `/datamap/api` prefix: its paths sit below the
 * account endpoint, `/account` (`/account/collections/{collectionName}`). For every example in scope:
 * prepare what it refers to (SCENARIOS), build the request from the example's parameters and the
 * operation's method and path template, send it to a fresh seeded emulator, and check that
 *   (a) the status is the example's own,
 *   (b) a 2xx body validates against the operation's response schema (204: no body),
 *   (c) an error body validates against the contract's `ErrorResponseModel`
 *       (`{"error": {code, message, target, details}}`, with code and message required), both for
 *       unexpected errors and for the ERROR_CASES at the end.
 *
 * SKIPPED would list examples not replayed, with the reason in the test name (none are); KNOWN_GAPS lists
 * examples the emulator answers against the contract (set GOVCAT_CONTRACT_RUN_GAPS=1 to run them anyway).
 * The resource set rule examples name an `accountId` and a `resourceSetRuleConfigName` their operations do
 * not declare (the path names the one configuration, defaultResourceSetRuleConfig): a client sends
 * neither, so the replay drops them.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { EmulatorApi, Json } from "../support/contract/emulator_api.ts";
import {
  ACCOUNT_API_VERSION,
  type Contract,
  loadAccountContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import {
  azureErrorSchema,
  envFlag,
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";

/** Examples the emulator answers against the contract, by file, with what is wrong (these are bugs). */
const KNOWN_GAPS: Record<string, string> = {};

/** Examples deliberately not replayed, with the reason (none: every account operation is served). */
const SKIPPED: Record<string, string> = {};

/**
 * Examples that answer several statuses, replayed at this one (the others are checked in the tests after
 * the replay): the resource set rule delete answers 200 for a configuration it deletes, 204 when none.
 */
const STATUS: Record<string, number> = { "ResourceSetRules_DeleteResourceSetRule.json": 200 };

/** The root collection of the emulator (named after the account). */
const ROOT = "emulator";

async function putCollection(api: EmulatorApi, name: string, parent: string): Promise<void> {
  await api.ok(
    `create collection ${name} under ${parent}`,
    "PUT",
    `/collections/${encodeURIComponent(name)}`,
    {
      query: { "api-version": ACCOUNT_API_VERSION },
      body: { friendlyName: name, parentCollection: { referenceName: parent } },
    },
  );
}

const NO_SETUP: ReplayScenario = {
  steps: ["none: the example needs nothing beyond the seed"],
  prepare: () => {},
};

/** The example's collection (path `collectionName`) exists under the root. */
const EXISTING_COLLECTION: ReplayScenario = {
  steps: ["create collection myCollection1 under the root collection"],
  prepare: ({ api, params }) => putCollection(api, String(params.collectionName), ROOT),
};

/** The parameters the resource set rule examples pass but their operations do not declare. */
const UNDECLARED_RULE_PARAMS = ["accountId", "resourceSetRuleConfigName"];

/** A resource set rule example: its undeclared parameters dropped (a client sends neither). */
const RULE_EXAMPLE: ReplayScenario = {
  steps: [`drop the undeclared parameters ${UNDECLARED_RULE_PARAMS.join(", ")}`],
  prepare: ({ params }) => {
    for (const name of UNDECLARED_RULE_PARAMS) delete params[name];
  },
};

/** The configuration of the create example, so get, list and delete find one. */
const EXISTING_RULE: ReplayScenario = {
  steps: [
    "put the resource set rule configuration of ResourceSetRules_CreateOrUpdateResourceSetRule.json",
    ...RULE_EXAMPLE.steps,
  ],
  prepare: async (context) => {
    const create = context.contract.examples.get("ResourceSetRules_CreateOrUpdateResourceSetRule.json")!;
    await context.api.ok("put the resource set rule configuration", "PUT", RULE_PATH, {
      query: V,
      body: create.parameters.resourceSetRuleConfig,
    });
    await RULE_EXAMPLE.prepare(context);
  },
};

const RULE_PATH = "/resourceSetRuleConfigs/defaultResourceSetRuleConfig";

const SCENARIOS: Record<string, ReplayScenario> = {
  "Accounts_GetAccountProperties.json": NO_SETUP,
  "Accounts_UpdateAccountProperties.json": {
    steps: ["drop the undeclared parameter accountName (the account is the endpoint's)"],
    prepare: ({ params }) => {
      delete params.accountName;
    },
  },
  "Accounts_GetAccessKeys.json": NO_SETUP,
  "Accounts_RegenerateAccessKey.json": NO_SETUP,
  "ResourceSetRules_CreateOrUpdateResourceSetRule.json": RULE_EXAMPLE,
  "ResourceSetRules_GetResourceSetRule.json": EXISTING_RULE,
  "ResourceSetRules_ListResourceSetRules.json": EXISTING_RULE,
  "ResourceSetRules_DeleteResourceSetRule.json": EXISTING_RULE,
  "Collections_ListCollections.json": NO_SETUP,
  "Collections_CreateOrUpdateCollection.json": {
    steps: ["create the parent collection the body names (myParentCollection1) under the root collection"],
    prepare: async ({ api, params }) => {
      const parent = ((params.collection as Json).parentCollection as Json).referenceName;
      await putCollection(api, String(parent), ROOT);
    },
  },
  "Collections_GetCollection.json": EXISTING_COLLECTION,
  "Collections_GetCollectionPath.json": EXISTING_COLLECTION,
  "Collections_DeleteCollection.json": EXISTING_COLLECTION,
  "Collections_ListChildCollectionNames.json": {
    steps: ["create collection myCollection1 under the root collection, and child1 under it"],
    prepare: async ({ api, params }) => {
      await putCollection(api, String(params.collectionName), ROOT);
      await putCollection(api, "child1", String(params.collectionName));
    },
  },
};

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: ACCOUNT_API_VERSION, errorSchema: azureErrorSchema };
}

const V = { "api-version": ACCOUNT_API_VERSION };

/** Error answers the account routes must give in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "Collections_GetCollection of an unknown collection",
    operationId: "Collections_GetCollection",
    status: 404,
    send: (api) => api.send("GET", "/collections/nosuchcollection", { query: V }),
  },
  {
    name: "Collections_GetCollectionPath of an unknown collection",
    operationId: "Collections_GetCollectionPath",
    status: 404,
    send: (api) => api.send("GET", "/collections/nosuchcollection/getCollectionPath", { query: V }),
  },
  {
    name: "Collections_CreateOrUpdateCollection under an unknown parent",
    operationId: "Collections_CreateOrUpdateCollection",
    status: 400,
    send: (api) =>
      api.send("PUT", "/collections/orphan", {
        query: V,
        body: { parentCollection: { referenceName: "nosuchparent" } },
      }),
  },
  {
    name: "Collections_CreateOrUpdateCollection with an invalid name",
    operationId: "Collections_CreateOrUpdateCollection",
    status: 400,
    send: (api) =>
      api.send("PUT", "/collections/a_b", { query: V, body: { parentCollection: { referenceName: ROOT } } }),
  },
  {
    name: "Accounts_UpdateAccountProperties with a friendlyName that is not a string",
    operationId: "Accounts_UpdateAccountProperties",
    status: 400,
    send: (api) => api.send("PATCH", "/", { query: V, body: { friendlyName: 42 } }),
  },
  {
    name: "Accounts_RegenerateAccessKey of an unknown key type",
    operationId: "Accounts_RegenerateAccessKey",
    status: 400,
    send: (api) => api.send("POST", "/regeneratekeys", { query: V, body: { keyType: "TertiaryKey" } }),
  },
  {
    name: "ResourceSetRules_GetResourceSetRule of an account without one",
    operationId: "ResourceSetRules_GetResourceSetRule",
    status: 404,
    send: (api) => api.send("GET", RULE_PATH, { query: V }),
  },
  {
    name: "ResourceSetRules_CreateOrUpdateResourceSetRule without pathPatternConfig.createdBy",
    operationId: "ResourceSetRules_CreateOrUpdateResourceSetRule",
    status: 400,
    send: (api) =>
      api.send("PUT", RULE_PATH, { query: V, body: { pathPatternConfig: { enableDefaultPatterns: true } } }),
  },
  {
    name: "Collections_DeleteCollection of the root collection",
    operationId: "Collections_DeleteCollection",
    status: 400,
    send: (api) => api.send("DELETE", `/collections/${ROOT}`, { query: V }),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

const AVAILABLE = referenceAvailable({ quiet: true });
const RUN_GAPS = envFlag("GOVCAT_CONTRACT_RUN_GAPS");

if (!AVAILABLE) {
  Deno.test({
    name: `account contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
  Deno.test({
    name: `account contract error shape of emulator error answers ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadAccountContract();
  const examples = [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("account contract: every example has a setup entry or a skip reason, and no stale entry", () => {
    assert.equal(contract.prefix, "/account");
    const files = new Set(examples.map((e) => e.file));
    for (const table of [SCENARIOS, KNOWN_GAPS, SKIPPED]) {
      for (const file of Object.keys(table)) assert.ok(files.has(file), `${file} is not an account example`);
    }
    const unplanned = examples.filter((e) => !SCENARIOS[e.file] && !SKIPPED[e.file]);
    assert.deepEqual(unplanned.map((e) => e.file), [], "examples with no setup decision");
  });

  for (const example of examples) {
    const skipped = SKIPPED[example.file];
    const gap = KNOWN_GAPS[example.file];
    const name = skipped
      ? `account contract example ${example.file} [skipped: ${skipped}]`
      : gap
      ? `account contract example ${example.file} [KNOWN GAP: ${gap}]`
      : `account contract example ${example.file}`;
    Deno.test({
      name,
      ignore: skipped !== undefined || (gap !== undefined && !RUN_GAPS),
      fn: () =>
        replayExample(profileOf(contract), example, SCENARIOS[example.file], undefined, STATUS[example.file]),
    });
  }

  Deno.test("account contract example ResourceSetRules_DeleteResourceSetRule.json at 204: none to delete", () =>
    replayExample(
      profileOf(contract),
      contract.examples.get("ResourceSetRules_DeleteResourceSetRule.json")!,
      RULE_EXAMPLE,
      undefined,
      204,
    ));

  for (const errorCase of ERROR_CASES) {
    Deno.test(`account contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
