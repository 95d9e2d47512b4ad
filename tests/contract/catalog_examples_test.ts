/**
 * Replays the published catalog contract's (2023-02-01-preview, under `/catalog/api`) examples for the
 * glossary term import and its operation status, and for browse, against the emulator: prepare what the
 * example refers to (SCENARIOS), build the request from its parameters and the operation's method and path
 * template, send it to a fresh seeded emulator, and check the status, the body against the operation's
 * response schema (or the contract's `ErrorResponse` with requestId, errorCode and errorMessage), and, for
 * an accepted import, the `Operation-Location` header the contract declares.
 *
 * The import is asynchronous: the status example's setup starts an import and polls its status (bounded)
 * until it is no longer Running, then asks for that operation as the example does.
 *
 * Only the examples of the operations in OPERATIONS are in scope; the catalog contract's other examples
 * (Atlas entity, type, glossary routes) are the data-map contract's business.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import { EmulatorApi, excerpt, type Json, type Reply, SetupError } from "../support/contract/emulator_api.ts";
import {
  CATALOG_API_VERSION,
  type Contract,
  type ContractOperation,
  loadCatalogContract,
  matchOperation,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import {
  envFlag,
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
  withEmulator,
} from "../support/contract/replay.ts";
import type { Schema } from "../support/contract/schema.ts";

/** The operations whose examples are replayed here. */
const OPERATIONS = new Set([
  "Glossary_ImportGlossaryTermsViaCsv",
  "Glossary_ImportGlossaryTermsViaCsvByGlossaryName",
  "Glossary_GetImportCsvOperationStatus",
  "Discovery_Browse",
  "Glossary_ExportGlossaryTermsAsCsv",
  "Glossary_ListTermsByGuids",
  "Glossary_BulkUpdateTerms",
  "Glossary_BulkDeleteTermsByGuids",
  "Glossary_GetBulkDeleteOperationStatus",
  "Collection_CreateOrUpdate",
  "Collection_CreateOrUpdateBulk",
  "Collection_MoveEntitiesToCollection",
]);

/** The status operation an accepted asynchronous operation's `Operation-Location` must name. */
const STATUS_OPERATION: Record<string, string> = {
  Glossary_ImportGlossaryTermsViaCsv: "Glossary_GetImportCsvOperationStatus",
  Glossary_ImportGlossaryTermsViaCsvByGlossaryName: "Glossary_GetImportCsvOperationStatus",
  Glossary_BulkDeleteTermsByGuids: "Glossary_GetBulkDeleteOperationStatus",
};

/**
 * Examples the emulator answers against the contract, by file, with what differs: a bug, or where the
 * service itself answers otherwise than the example (the emulator follows the service).
 */
const IMPORT_202_BODY =
  "the service answers the 202 with the operation in its body (Azure/azure-sdk-for-js " +
  "sdk/purview/purview-catalog-rest/recordings/browsers/purview_catalog_glossary_test/" +
  "recording_should_work_with_lro_helper.json); the example has none";
const KNOWN_GAPS: Record<string, string> = {
  "Glossary_GetImportCSVOperationStatus.json": IMPORT_202_BODY,
  "Glossary_GetImportCSVOperationStatusByGloassaryName.json": IMPORT_202_BODY,
};

/** A term import file in the service's template columns. */
const IMPORT_CSV = "Name,Definition,Status,Acronym\n" +
  "ImportedTerm1,The first imported term,Approved,IT1\n" +
  "ImportedTerm2,The second imported term,Draft,IT2\n";

/** Polls of an import's status before giving up, and the pause between them. */
const MAX_POLLS = 50;
const POLL_PAUSE_MS = 20;

/**
 * Glossary "Glossary" (the name the import examples use: the one every new account has), or creates another;
 * returns its guid.
 */
async function createGlossary(api: EmulatorApi, name = "Glossary"): Promise<string> {
  if (name === "Glossary") {
    const list = await api.ok("list glossaries", "GET", "/atlas/v2/glossary");
    const found = (list.json as Json[]).find((glossary) => glossary.name === name);
    if (found) return String(found.guid);
  }
  const reply = await api.ok(`create glossary ${name}`, "POST", "/atlas/v2/glossary", {
    body: { name, shortDescription: "Example Short Description" },
  });
  const guid = (reply.json as Json)?.guid;
  if (typeof guid !== "string") throw new SetupError(`create glossary ${name}: no guid in ${reply.text}`);
  return guid;
}

/** Creates a glossary with terms of these names; returns the guids. */
async function glossaryWithTerms(
  api: EmulatorApi,
  glossaryName: string,
  termNames: string[],
): Promise<{ glossary: string; terms: string[] }> {
  const glossary = await createGlossary(api, glossaryName);
  const reply = await api.ok(`create terms ${termNames.join(", ")}`, "POST", "/atlas/v2/glossary/terms", {
    body: termNames.map((name) => ({ name, anchor: { glossaryGuid: glossary } })),
  });
  const terms = (reply.json as Json[]).map((term) => String(term.guid));
  return { glossary, terms };
}

/** Replaces, everywhere in `params`, each guid of the example by the one the emulator made. */
function rewriteGuids(params: Json, guids: Record<string, string>): void {
  let text = JSON.stringify(params);
  for (const [from, to] of Object.entries(guids)) text = text.replaceAll(from, to);
  Object.assign(params, JSON.parse(text));
}

/** A collection of the account API under the root collection (the account API sits beside /catalog/api). */
async function createCollection(api: EmulatorApi, name: string): Promise<void> {
  const url = `${api.base.replace(/\/catalog\/api$/, "")}/account/collections/${name}` +
    "?api-version=2019-11-01-preview";
  const response = await fetch(url, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ parentCollection: { referenceName: "emulator" } }),
  });
  const text = await response.text();
  if (!response.ok) throw new SetupError(`create collection ${name} -> HTTP ${response.status} ${text}`);
}

/** The two example terms of the list and update examples, by their example guids. */
const TERM1 = "bb64b85a-6497-474b-b407-42121e0c060e";
const TERM2 = "a3c09dcf-844c-49a5-81a8-be95b01177cd";
const TERM3 = "b13de513-5731-4573-8ba8-eca29d395793";
const EXAMPLE_GLOSSARY = "4605a852-9a24-4f59-bdc4-49874bc70c16";

/** Deletes the terms in bulk and returns the job's id from its Operation-Location. */
async function bulkDelete(api: EmulatorApi, guids: string[]): Promise<string> {
  const reply = await api.ok("delete the terms in bulk", "POST", "/glossary/terms:delete", {
    query: { "api-version": CATALOG_API_VERSION },
    body: guids,
  });
  const id = operationIdOf(reply.headers.get("operation-location"));
  if (!id) throw new SetupError(`bulk delete: no Operation-Location (${reply.status})`);
  return id;
}

/** The operation id at the end of an `Operation-Location` URL (or undefined). */
function operationIdOf(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    return new URL(location).pathname.split("/").pop() || undefined;
  } catch {
    return undefined;
  }
}

/** Starts an import into `glossary` and polls it until it is no longer Running; returns the status answer. */
async function importAndWait(api: EmulatorApi, glossary: string): Promise<{ id: string; status: Reply }> {
  const form = new FormData();
  form.append("file", new Blob([IMPORT_CSV], { type: "text/csv" }), "terms.csv");
  const started = await api.ok("import terms", "POST", `/glossary/${glossary}/terms/import`, {
    query: { "api-version": CATALOG_API_VERSION },
    form,
  });
  const id = operationIdOf(started.headers.get("operation-location")) ?? (started.json as Json)?.id;
  if (typeof id !== "string") throw new SetupError(`import terms: no operation id in ${started.text}`);
  for (let poll = 1; poll <= MAX_POLLS; poll++) {
    const status = await api.ok(`poll import ${id}`, "GET", `/glossary/terms/import/${id}`, {
      query: { "api-version": CATALOG_API_VERSION },
    });
    const state = (status.json as Json)?.status;
    if (state !== "Running" && state !== "NotStarted") return { id, status };
    await new Promise((resolve) => setTimeout(resolve, POLL_PAUSE_MS));
  }
  throw new SetupError(`import ${id} still running after ${MAX_POLLS} polls`);
}

const KUSTO = "https://examplecluster.westus.kusto.windows.net";

/** The cluster and the three databases the browse examples answer. */
async function kustoCluster(api: EmulatorApi): Promise<void> {
  await api.createEntities([
    {
      typeName: "azure_data_explorer_cluster",
      attributes: { qualifiedName: KUSTO, name: "examplecluster.westus" },
    },
    ...["exampledata", "exampledata2", "exampledata3"].map((name) => ({
      typeName: "azure_data_explorer_database",
      attributes: { qualifiedName: `${KUSTO}/${name}`, name },
    })),
  ]);
}

const IMPORT_INTO_GLOSSARY: ReplayScenario = {
  steps: ["create glossary Glossary", "rewrite glossaryGuid to its guid", "file → a CSV of two terms"],
  prepare: async ({ api, params }) => {
    const guid = await createGlossary(api);
    if ("glossaryGuid" in params) params.glossaryGuid = guid;
    params.file = IMPORT_CSV;
  },
};

const BROWSE: ReplayScenario = {
  steps: [
    "create azure_data_explorer_cluster https://examplecluster.westus.kusto.windows.net and databases " +
    "exampledata, exampledata2, exampledata3 under it (types created as DataSet subtypes when not built in)",
  ],
  prepare: async ({ api }) => {
    for (const name of ["azure_data_explorer_cluster", "azure_data_explorer_database"]) {
      await api.ensureTypeDef({
        bucket: "entityDefs",
        def: { name, superTypes: ["DataSet"], attributeDefs: [] },
      });
    }
    await kustoCluster(api);
  },
};

/** Two azure_storage_account entities (the qualified names of the bulk examples); returns their guids. */
function storageAccounts(api: EmulatorApi, names: string[]): Promise<string[]> {
  return api.createEntities(names.map((name) => ({
    typeName: "azure_storage_account",
    attributes: { qualifiedName: name, name },
  })));
}

const SCENARIOS: Record<string, ReplayScenario> = {
  "Glossary_ExportGlossaryTermsAsCsv.json": {
    steps: [
      "create glossary Glossary with terms ExampleTerm1, ExampleTerm2",
      "rewrite glossaryGuid, termGuids",
    ],
    prepare: async ({ api, params }) => {
      const { glossary, terms } = await glossaryWithTerms(api, "Glossary", ["ExampleTerm1", "ExampleTerm2"]);
      params.glossaryGuid = glossary;
      params.termGuids = terms;
    },
  },
  "Glossary_ListGlossaryTermsByGuids.json": {
    steps: ["create glossary ExampleGlossary with terms ExampleTerm1, ExampleTerm2", "rewrite guid"],
    prepare: async ({ api, params }) => {
      const { terms } = await glossaryWithTerms(api, "ExampleGlossary", ["ExampleTerm1", "ExampleTerm2"]);
      rewriteGuids(params, { [TERM1]: terms[0], [TERM2]: terms[1] });
    },
  },
  "Glossary_BulkUpdateGlossaryTerms.json": {
    steps: [
      "create glossary ExampleGlossary with terms ExampleTerm1, ExampleTerm2, ExampleTerm3",
      "rewrite the guids of the glossary and the terms everywhere in the body",
    ],
    prepare: async ({ api, params }) => {
      const { glossary, terms } = await glossaryWithTerms(api, "ExampleGlossary", [
        "ExampleTerm1",
        "ExampleTerm2",
        "ExampleTerm3",
      ]);
      rewriteGuids(params, {
        [EXAMPLE_GLOSSARY]: glossary,
        [TERM1]: terms[0],
        [TERM2]: terms[1],
        [TERM3]: terms[2],
      });
    },
  },
  "Glossary_GetBulkDeleteOperationStatus.json": {
    steps: ["create glossary Glossary with terms ExampleTerm1, ExampleTerm2", "rewrite termGuids"],
    prepare: async ({ api, params }) => {
      params.termGuids = (await glossaryWithTerms(api, "Glossary", ["ExampleTerm1", "ExampleTerm2"])).terms;
    },
  },
  "Glossary_GetBulkDeleteOperationStatusByOperationguid.json": {
    steps: [
      "create glossary Glossary with terms ExampleTerm1, ExampleTerm2",
      "delete them in bulk (POST /glossary/terms:delete)",
      "rewrite operationGuid to that job's id",
    ],
    prepare: async ({ api, params }) => {
      const { terms } = await glossaryWithTerms(api, "Glossary", ["ExampleTerm1", "ExampleTerm2"]);
      params.operationGuid = await bulkDelete(api, terms);
    },
  },
  "Collection_CreateOrUpdate.json": {
    steps: ["create collection ExampleCollection under the root collection"],
    prepare: ({ api, params }) => createCollection(api, String(params.collection)),
  },
  "Collection_CreateOrUpdateBulk.json": {
    steps: [
      "create collection ExampleCollection",
      "create azure_storage_account exampleaccount (it is updated)",
    ],
    prepare: async ({ api, params }) => {
      await createCollection(api, String(params.collection));
      await storageAccounts(api, ["exampleaccount"]);
    },
  },
  "Collection_MoveEntitiesToCollection.json": {
    steps: [
      "create collection ExampleNewCollection",
      "create azure_storage_account exampleaccount2 and exampleaccount",
      "rewrite entityGuids",
    ],
    prepare: async ({ api, params }) => {
      await createCollection(api, String(params.collection));
      (params.moveEntitiesRequest as Json).entityGuids = await storageAccounts(api, [
        "exampleaccount2",
        "exampleaccount",
      ]);
    },
  },
  "Glossary_GetImportCSVOperationStatus.json": IMPORT_INTO_GLOSSARY,
  "Glossary_GetImportCSVOperationStatusByGloassaryName.json": IMPORT_INTO_GLOSSARY,
  "Glossary_GetImportCSVOperationStatusByOperationguid.json": {
    steps: [
      "create glossary Glossary",
      `import two terms into it and poll the status (at most ${MAX_POLLS} times) until it is not Running`,
      "rewrite operationGuid to that import's id",
    ],
    prepare: async ({ api, params }) => {
      const { id, status } = await importAndWait(api, await createGlossary(api));
      if ((status.json as Json)?.status !== "Succeeded") {
        throw new SetupError(`import ${id} did not succeed: ${excerpt(status.text, 600)}`);
      }
      params.operationGuid = id;
    },
  },
  "Discovery_Browse_Path.json": BROWSE,
  "Discovery_Browse_EntityType.json": BROWSE,
};

/** The catalog contract's error shape, with the three fields the service always writes made required. */
function errorSchema(operation: ContractOperation): Schema {
  const declared = operation.responses.default?.schema ?? { $ref: "#/definitions/ErrorResponse" };
  return { allOf: [declared, { type: "object", required: ["requestId", "errorCode", "errorMessage"] }] };
}

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: CATALOG_API_VERSION, errorSchema, formFileName: "terms.csv" };
}

/** Problems with the headers of an answer: each header the contract declares for the status. */
function headerProblems(contract: Contract, operation: ContractOperation, reply: Reply): string[] {
  const declared = (operation.responses[String(reply.status)] as { headers?: Record<string, unknown> })
    ?.headers ?? {};
  const problems: string[] = [];
  for (const name of Object.keys(declared)) {
    const value = reply.headers.get(name);
    if (value === null) {
      problems.push(`header ${name} (declared for ${reply.status}) is missing`);
      continue;
    }
    if (name.toLowerCase() === "operation-location") {
      const statusOperation = STATUS_OPERATION[operation.operationId];
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        problems.push(`${name} is not an absolute URL: ${value}`);
        continue;
      }
      const match = matchOperation(contract, "GET", url.pathname);
      if (match.kind !== "found" || match.operation.operationId !== statusOperation) {
        problems.push(`${name} ${value} does not name the operation's status (${statusOperation})`);
      }
      if (url.searchParams.get("api-version") !== CATALOG_API_VERSION) {
        problems.push(`${name} ${value} does not carry api-version=${CATALOG_API_VERSION}`);
      }
    }
  }
  return problems;
}

const V = { "api-version": CATALOG_API_VERSION };

/** Error answers the catalog routes must give in the contract's error shape. */
const ERROR_CASES: ErrorCase[] = [
  {
    name: "Glossary_GetImportCsvOperationStatus of an unknown operation",
    operationId: "Glossary_GetImportCsvOperationStatus",
    status: 404,
    send: (api) =>
      api.send("GET", "/glossary/terms/import/00000000-0000-4000-8000-00000000dead", { query: V }),
  },
  {
    name: "Glossary_ImportGlossaryTermsViaCsv into an unknown glossary",
    operationId: "Glossary_ImportGlossaryTermsViaCsv",
    status: 404,
    send: (api) => {
      const form = new FormData();
      form.append("file", new Blob([IMPORT_CSV], { type: "text/csv" }), "terms.csv");
      return api.send("POST", "/glossary/00000000-0000-4000-8000-00000000dead/terms/import", {
        query: V,
        form,
      });
    },
  },
  {
    name: "Glossary_GetBulkDeleteOperationStatus of an unknown operation",
    operationId: "Glossary_GetBulkDeleteOperationStatus",
    status: 404,
    send: (api) =>
      api.send("GET", "/glossary/terms/bulkDeletion/00000000-0000-4000-8000-00000000dead", { query: V }),
  },
  {
    name: "Glossary_BulkDeleteTermsByGuids with an empty list",
    operationId: "Glossary_BulkDeleteTermsByGuids",
    status: 400,
    send: (api) => api.send("POST", "/glossary/terms:delete", { query: V, body: [] }),
  },
  {
    name: "Glossary_ExportGlossaryTermsAsCsv of an unknown glossary",
    operationId: "Glossary_ExportGlossaryTermsAsCsv",
    status: 404,
    send: (api) =>
      api.send("POST", "/glossary/00000000-0000-4000-8000-00000000dead/terms/export", {
        query: V,
        body: ["00000000-0000-4000-8000-00000000beef"],
      }),
  },
  {
    name: "Glossary_BulkUpdateTerms of a term without its guid",
    operationId: "Glossary_BulkUpdateTerms",
    status: 400,
    send: (api) => api.send("PUT", "/glossary/terms", { query: V, body: [{ name: "NoGuid" }] }),
  },
  {
    name: "Glossary_BulkUpdateTerms of an unknown term",
    operationId: "Glossary_BulkUpdateTerms",
    status: 404,
    send: (api) =>
      api.send("PUT", "/glossary/terms", {
        query: V,
        body: [{ guid: "00000000-0000-4000-8000-00000000dead", name: "Gone" }],
      }),
  },
  {
    name: "Glossary_ListTermsByGuids without a guid",
    operationId: "Glossary_ListTermsByGuids",
    status: 400,
    send: (api) => api.send("GET", "/glossary/terms", { query: V }),
  },
  {
    name: "Collection_CreateOrUpdate into an unknown collection",
    operationId: "Collection_CreateOrUpdate",
    status: 404,
    send: (api) =>
      api.send("POST", "/collections/nosuchcollection/entity", {
        query: V,
        body: { entity: { typeName: "DataSet", attributes: { qualifiedName: "x://y", name: "y" } } },
      }),
  },
  {
    name: "Collection_MoveEntitiesToCollection of an unknown entity",
    operationId: "Collection_MoveEntitiesToCollection",
    status: 404,
    send: (api) =>
      api.send("POST", "/collections/emulator/entity/moveHere", {
        query: V,
        body: { entityGuids: ["00000000-0000-4000-8000-00000000dead"] },
      }),
  },
  {
    name: "Discovery_Browse with a negative limit",
    operationId: "Discovery_Browse",
    status: 400,
    send: (api) => api.send("POST", "/browse", { query: V, body: { limit: -1 } }),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

const AVAILABLE = referenceAvailable({ quiet: true });
const RUN_GAPS = envFlag("GOVCAT_CONTRACT_RUN_GAPS");

if (!AVAILABLE) {
  Deno.test({
    name: `catalog contract examples (term import, browse) replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
  Deno.test({
    name: `catalog contract error shape of emulator error answers ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadCatalogContract();
  const examples = [...contract.examples.values()]
    .filter((example) => OPERATIONS.has(example.operationId))
    .sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("catalog contract: every example in scope has a setup entry, and no stale entry", () => {
    assert.equal(contract.prefix, "/catalog/api");
    const files = new Set(examples.map((e) => e.file));
    for (const table of [SCENARIOS, KNOWN_GAPS]) {
      for (const file of Object.keys(table)) assert.ok(files.has(file), `${file} is not an example in scope`);
    }
    assert.deepEqual(examples.filter((e) => !SCENARIOS[e.file]).map((e) => e.file), []);
    assert.equal(
      examples.length,
      13,
      `expected 13 examples, found ${examples.map((e) => e.file).join(", ")}`,
    );
  });

  for (const example of examples) {
    const gap = KNOWN_GAPS[example.file];
    Deno.test({
      name: gap
        ? `catalog contract example ${example.file} [KNOWN GAP: ${gap}]`
        : `catalog contract example ${example.file}`,
      ignore: gap !== undefined && !RUN_GAPS,
      fn: () =>
        replayExample(
          profileOf(contract),
          example,
          SCENARIOS[example.file],
          (operation, reply) => headerProblems(contract, operation, reply),
        ),
    });
  }

  // The import examples are known gaps (their 202 has a body); their Operation-Location is checked here.
  for (
    const operationId of [
      "Glossary_ImportGlossaryTermsViaCsv",
      "Glossary_ImportGlossaryTermsViaCsvByGlossaryName",
    ]
  ) {
    Deno.test(`catalog contract: ${operationId} answers 202 with an Operation-Location naming the status`, async () => {
      const operation = contract.operations.get(operationId)!;
      await withEmulator(async (emulator) => {
        const api = new EmulatorApi(emulator.url, contract, CATALOG_API_VERSION);
        const guid = await createGlossary(api);
        const form = new FormData();
        form.append("file", new Blob([IMPORT_CSV], { type: "text/csv" }), "terms.csv");
        const path = operationId.endsWith("ByGlossaryName")
          ? "/glossary/name/Glossary/terms/import"
          : `/glossary/${guid}/terms/import`;
        const reply = await api.send("POST", path, { query: V, form });
        assert.equal(reply.status, 202, `answer: HTTP ${reply.status} ${excerpt(reply.text)}`);
        assert.deepEqual(headerProblems(contract, operation, reply), []);
      });
    });
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(`catalog contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}
