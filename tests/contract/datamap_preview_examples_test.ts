/**
 * The data-map contract of 2024-03-01-preview against the emulator. It is the 2023-09-01 contract plus one
 * operation, Discovery_Navigation (`POST /navigate`), so:
 *   (a) every example of Discovery_Navigation is replayed (see replay.ts: status, body against the
 *       response schema, errors in the AtlasErrorResponse shape), on an emulator holding the server,
 *       database, schema and tables the examples walk;
 *   (b) every other example of the preview sends the request of the 2023-09-01 example of the same file
 *       (but for its api-version, which the emulator does not distinguish, and the name of the body
 *       parameter), so datamap_examples_test.ts replays it; REQUEST_DIFFERENCES lists the four that
 *       differ and why that replay still covers them. An example that starts to differ fails here, to be
 *       replayed on its own.
 *
 * The navigation examples walk the service's own level names, where the emulator names a level of children
 * after their entity type (see lib/emulator/search/navigate.ts), and two of them (steps 6 and 8) leave the
 * database's name out of the path although step 5 navigated into it: the replay writes each path in the
 * emulator's form, database included, and drops the `<token>` placeholder of `continuationToken`, which no
 * page answered.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { EmulatorApi, Json } from "../support/contract/emulator_api.ts";
import {
  type Contract,
  type ContractOperation,
  DATAMAP_CONTRACT_ERRATA,
  loadDataMapContract,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { DATAMAP_2024_API_VERSION, loadDataMap2024Contract } from "../support/contract/preview_contracts.ts";
import {
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";
import type { Schema } from "../support/contract/schema.ts";

const SERVER_QN = "mssql://testsqlserver01.database.windows.net";

/** The level names of the examples, and the entity types the emulator names those levels after. */
const LEVELS: Record<string, string> = {
  databases: "azure_sql_db",
  schemas: "azure_sql_schema",
  tables: "azure_sql_table",
};

/** What the examples walk: a server, two databases, two schemas and two tables, level by level. */
async function createSqlTree(api: EmulatorApi): Promise<void> {
  const db = `${SERVER_QN}/exampleDatabase01`;
  const schema = `${db}/schema01`;
  const ref = (typeName: string, qualifiedName: string) => ({
    typeName,
    uniqueAttributes: { qualifiedName },
  });
  const levels = [
    [["azure_sql_server", SERVER_QN, {}]],
    [
      ["azure_sql_db", db, { server: ref("azure_sql_server", SERVER_QN) }],
      ["azure_sql_db", `${SERVER_QN}/exampleDatabase02`, { server: ref("azure_sql_server", SERVER_QN) }],
    ],
    [
      ["azure_sql_schema", schema, { db: ref("azure_sql_db", db) }],
      ["azure_sql_schema", `${db}/schema02`, { db: ref("azure_sql_db", db) }],
    ],
    [
      ["azure_sql_table", `${schema}/table01`, { dbSchema: ref("azure_sql_schema", schema) }],
      ["azure_sql_table", `${schema}/table02`, { dbSchema: ref("azure_sql_schema", schema) }],
    ],
  ] as const;
  for (const level of levels) {
    const entities = level.map(([typeName, qualifiedName, relationshipAttributes]) => ({
      typeName,
      attributes: {
        qualifiedName,
        name: qualifiedName.split("/").at(-1)!.replace(".database.windows.net", ""),
      },
      relationshipAttributes,
    }));
    await api.ok(`create ${level[0][0]} entities`, "POST", "/atlas/v2/entity/bulk", { body: { entities } });
  }
}

/** The example's path in the emulator's form: level names as entity types, the database named. */
function emulatorPath(path: string): string {
  const segments = path.split("/").filter((s) => s !== "");
  // Steps 6 and 8 go from ".../databases" straight to "schemas": the database they mean is step 5's.
  const databases = segments.indexOf("databases");
  if (databases >= 0 && segments[databases + 1] === "schemas") {
    segments.splice(databases + 1, 0, "exampleDatabase01");
  }
  return "/" + segments.map((s) => LEVELS[s] ?? s).join("/");
}

const NAVIGATION: ReplayScenario = {
  steps: [
    "create azure_sql_server testsqlserver01 with databases exampleDatabase01/02, schemas schema01/02 and tables table01/02",
    "write itemPath.path in the emulator's form (level names as entity types, the database named)",
    "drop the continuationToken placeholder <token>",
  ],
  prepare: async ({ api, params }) => {
    await createSqlTree(api);
    const request = params.NavigationRequest as Json;
    const itemPath = request.itemPath as Json;
    itemPath.path = emulatorPath(String(itemPath.path));
    delete params.continuationToken;
  },
};

/**
 * Preview examples whose request differs from their 2023-09-01 twin's, and why the 2023-09-01 replay
 * (datamap_examples_test.ts) still covers them. Responses are not compared: a replay checks an answer
 * against the response schema, which the two contracts share, not against the example's values.
 */
const REQUEST_DIFFERENCES: Record<string, string> = {
  "Discovery_Query_PaginationContinuationPage.json":
    "a sample continuationToken instead of <token>; the replay sends one its own first page answered",
  "Discovery_Query_PaginationLastPage.json":
    "a sample continuationToken instead of <token>; the replay sends one its own first page answered",
  "Entity_ListByUniqueAttributes.json": "leaves out minExtInfo=true, which the 2023-09-01 request adds",
  "Glossary_CreateTerms.json": "names its body glossaryTerm, which the operation does not declare (it " +
    "declares body): contract erratum; the terms sent are the 2023-09-01 example's",
};

/** An example's parameters as sent: the body under one name (the contracts name it differently). */
function requestOf(contract: Contract, operationId: string, parameters: Json): Json {
  const operation = contract.operations.get(operationId)!;
  const bodyName = operation.parameters.find((p) => p.in === "body")?.name;
  const request: Json = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (name === "api-version") continue;
    request[name === bodyName ? "(body)" : name] = value;
  }
  return request;
}

function profileOf(contract: Contract): ReplayProfile {
  return {
    contract,
    apiVersion: DATAMAP_2024_API_VERSION,
    enumExtensions: DATAMAP_CONTRACT_ERRATA.enumExtensions,
    errorSchema: atlasErrorSchema,
  };
}

/** The data-map error shape, with the fields every emulator error carries required. */
function atlasErrorSchema(operation: ContractOperation): Schema {
  return {
    allOf: [operation.responses.default?.schema ?? { $ref: "#/definitions/AtlasErrorResponse" }, {
      type: "object",
      required: ["requestId", "errorCode", "errorMessage"],
    }],
  };
}

const V = { "api-version": DATAMAP_2024_API_VERSION };

const ERROR_CASES: ErrorCase[] = [
  {
    name: "Discovery_Navigation of a path naming nothing",
    operationId: "Discovery_Navigation",
    status: 404,
    send: (api) =>
      api.send("POST", "/navigate", { query: V, body: { itemPath: { path: "/azure_sql_server/nosuch" } } }),
  },
  {
    name: "Discovery_Navigation without itemPath",
    operationId: "Discovery_Navigation",
    status: 400,
    send: (api) => api.send("POST", "/navigate", { query: V, body: { navigationMode: "assetType" } }),
  },
  {
    name: "Discovery_Navigation with a continuationToken no page answered",
    operationId: "Discovery_Navigation",
    status: 400,
    send: (api) =>
      api.send("POST", "/navigate", {
        query: { ...V, continuationToken: "<token>" },
        body: { itemPath: { path: "/" } },
      }),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `data map 2024-03-01-preview contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadDataMap2024Contract();
  const stable = await loadDataMapContract();
  const navigation = [...contract.examples.values()]
    .filter((e) => e.operationId === "Discovery_Navigation")
    .sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("data map 2024-03-01-preview: the preview adds Discovery_Navigation to the 2023-09-01 operations", () => {
    const added = [...contract.operations.keys()].filter((id) => !stable.operations.has(id));
    assert.deepEqual(added, ["Discovery_Navigation"]);
    assert.equal(navigation.length, 8);
  });

  Deno.test("data map 2024-03-01-preview: every other example sends the 2023-09-01 example's request", () => {
    const differing: string[] = [];
    for (const example of contract.examples.values()) {
      if (example.operationId === "Discovery_Navigation") continue;
      const twin = stable.examples.get(example.file);
      const same = twin?.operationId === example.operationId &&
        JSON.stringify(requestOf(contract, example.operationId, example.parameters)) ===
          JSON.stringify(requestOf(stable, twin.operationId, twin.parameters));
      if (!same) differing.push(example.file);
    }
    assert.deepEqual(
      differing.sort(),
      Object.keys(REQUEST_DIFFERENCES).sort(),
      "examples whose request differs",
    );
  });

  for (const example of navigation) {
    Deno.test(`data map 2024-03-01-preview contract example ${example.file}`, () =>
      replayExample(profileOf(contract), example, NAVIGATION));
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(`data map 2024-03-01-preview contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
