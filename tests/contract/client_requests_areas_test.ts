/**
 * The requests CatalogClient's glossary, lineage, account, collections and browse calls send, each checked
 * against the contract its path belongs to: the data-map contract (2023-09-01) under /datamap/api, the
 * catalog contract (2023-02-01-preview) under /catalog/api (term import and its status, browse), and the
 * account contract (2019-11-01-preview) under /account (account properties, keys, resource set rules,
 * collections). Each call runs against a recording server on 127.0.0.1 that answers what the matched
 * operation's first contract example answers; the recorded request must match the expected operation (path
 * template, method), carry that contract's api-version, use only declared query parameters (or the
 * contract errata its own examples evidence: `width` on lineage) and send a body that validates against the
 * body parameter's schema (multipart for the import).
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import {
  ACCOUNT_API_VERSION,
  CATALOG_API_VERSION,
  DATAMAP_API_VERSION,
  DATAMAP_REQUEST_ERRATA,
  loadAccountContract,
  loadCatalogContract,
  loadDataMapContract,
  matchOperation,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { checkRequestAcross, type ContractTarget } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase as CallCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import type { RecordedRequest } from "../support/local_server.ts";

const GUID = "9fb74c11-ac48-4650-95bc-760665c5bd92";
const GUID2 = "7fcc43ab-55ea-45d4-9971-ce0443cb10bb";
const GLOSSARY = { name: "Glossary", shortDescription: "Example Short Description", language: "en" };
const TERM = {
  name: "ExampleTerm1",
  shortDescription: "Example Short Description",
  status: "Approved",
  anchor: { glossaryGuid: GUID },
};
const CSV = "Name,Definition,Status\nImportedTerm1,The first imported term,Approved\n";

/** One client call, the operation it must send and the contract that operation belongs to. */
interface ClientCase extends CallCase {
  contract: "datamap" | "catalog" | "account";
  /** How many requests the call sends (paged calls may send more; only the first is checked). */
  requests?: number;
}

const CASES: ClientCase[] = [
  // Glossary (data map), import and its status (catalog).
  { method: "glossary.list", operationId: "Glossary_List", contract: "datamap", args: [] },
  {
    method: "glossary.list",
    variant: "paged, without terms and categories",
    operationId: "Glossary_List",
    contract: "datamap",
    args: [{ limit: 10, offset: 0, sort: "ASC", ignoreTermsAndCategories: true }],
  },
  { method: "glossary.create", operationId: "Glossary_Create", contract: "datamap", args: [GLOSSARY] },
  { method: "glossary.get", operationId: "Glossary_Get", contract: "datamap", args: [GUID] },
  { method: "glossary.createTerm", operationId: "Glossary_CreateTerm", contract: "datamap", args: [TERM] },
  {
    method: "glossary.createTerm",
    variant: "with term hierarchy",
    operationId: "Glossary_CreateTerm",
    contract: "datamap",
    args: [TERM, { includeTermHierarchy: true }],
  },
  { method: "glossary.listTerms", operationId: "Glossary_ListTerms", contract: "datamap", args: [GUID] },
  {
    method: "glossary.listTerms",
    variant: "paged",
    operationId: "Glossary_ListTerms",
    contract: "datamap",
    args: [GUID, { limit: 5, offset: 5, sort: "DESC" }],
  },
  {
    method: "glossary.assignTermToEntities",
    operationId: "Glossary_AssignTermToEntities",
    contract: "datamap",
    args: [GUID, [{ guid: GUID2 }]],
  },
  {
    method: "glossary.importTerms",
    operationId: "Glossary_ImportGlossaryTermsViaCsv",
    contract: "catalog",
    args: [GUID, CSV, "terms.csv"],
  },
  {
    method: "glossary.importTerms",
    variant: "with term hierarchy",
    operationId: "Glossary_ImportGlossaryTermsViaCsv",
    contract: "catalog",
    args: [GUID, CSV, "terms.csv", { includeTermHierarchy: true }],
  },
  {
    method: "glossary.getImportStatus",
    operationId: "Glossary_GetImportCsvOperationStatus",
    contract: "catalog",
    args: [GUID],
  },

  // Bulk term calls (catalog).
  {
    method: "glossary.listTermsByGuids",
    operationId: "Glossary_ListTermsByGuids",
    contract: "catalog",
    args: [[GUID, GUID2], { excludeAssignments: true }],
  },
  {
    method: "glossary.bulkUpdateTerms",
    operationId: "Glossary_BulkUpdateTerms",
    contract: "catalog",
    args: [[{ ...TERM, guid: GUID2 }]],
  },
  {
    method: "glossary.deleteTermsInBulk",
    operationId: "Glossary_BulkDeleteTermsByGuids",
    contract: "catalog",
    args: [[GUID, GUID2], { forceDeleteChild: true, forceDeleteEntityAssignment: true }],
  },
  {
    method: "glossary.getBulkDeleteStatus",
    operationId: "Glossary_GetBulkDeleteOperationStatus",
    contract: "catalog",
    args: [GUID],
  },
  {
    method: "glossary.exportTermsCsv",
    operationId: "Glossary_ExportGlossaryTermsAsCsv",
    contract: "catalog",
    args: [GUID, [GUID2], { includeTermHierarchy: true }],
  },

  // Lineage (data map).
  { method: "lineage.get", operationId: "Lineage_Get", contract: "datamap", args: [GUID] },
  {
    method: "lineage.get",
    variant: "depth, direction and width (width: contract erratum)",
    operationId: "Lineage_Get",
    contract: "datamap",
    args: [GUID, { depth: 2, direction: "INPUT", width: 5 }],
  },
  {
    method: "lineage.getByUniqueAttribute",
    operationId: "Lineage_GetByUniqueAttribute",
    contract: "datamap",
    args: ["azure_blob_path", "https://example.blob.core.windows.net/c/f.csv", {
      depth: 1,
      direction: "BOTH",
    }],
  },
  {
    method: "lineage.nextPage",
    operationId: "Lineage_GetNextPage",
    contract: "datamap",
    args: [GUID, { direction: "OUTPUT", offset: 0, limit: 5 }],
  },

  // Collections (account).
  {
    method: "collections.get",
    operationId: "Collections_GetCollection",
    contract: "account",
    args: ["sales"],
  },
  {
    method: "collections.createOrUpdate",
    operationId: "Collections_CreateOrUpdateCollection",
    contract: "account",
    args: ["finance", { friendlyName: "Finance", parentCollection: { referenceName: "emulator" } }],
  },
  {
    method: "collections.delete",
    operationId: "Collections_DeleteCollection",
    contract: "account",
    args: ["finance"],
  },
  {
    method: "collections.path",
    operationId: "Collections_GetCollectionPath",
    contract: "account",
    args: ["sales"],
  },
  {
    method: "collections.childNames",
    operationId: "Collections_ListChildCollectionNames",
    contract: "account",
    args: ["emulator"],
  },
  {
    method: "collections.listPage",
    operationId: "Collections_ListCollections",
    contract: "account",
    args: [],
  },
  {
    method: "collections.listPage",
    variant: "next page",
    operationId: "Collections_ListCollections",
    contract: "account",
    args: ["token-2"],
  },

  // Account properties, access keys, resource set rules (account).
  { method: "account.get", operationId: "Accounts_GetAccountProperties", contract: "account", args: [] },
  {
    method: "account.update",
    operationId: "Accounts_UpdateAccountProperties",
    contract: "account",
    args: [{ friendlyName: "Contoso catalog" }],
  },
  { method: "account.listKeys", operationId: "Accounts_GetAccessKeys", contract: "account", args: [] },
  {
    method: "account.regenerateKey",
    operationId: "Accounts_RegenerateAccessKey",
    contract: "account",
    args: ["SecondaryAtlasKafkaKey"],
  },
  {
    method: "account.listResourceSetRules",
    operationId: "ResourceSetRules_ListResourceSetRules",
    contract: "account",
    args: [],
  },
  {
    method: "account.getResourceSetRule",
    operationId: "ResourceSetRules_GetResourceSetRule",
    contract: "account",
    args: [],
  },
  {
    method: "account.putResourceSetRule",
    operationId: "ResourceSetRules_CreateOrUpdateResourceSetRule",
    contract: "account",
    args: [{
      pathPatternConfig: {
        enableDefaultPatterns: true,
        createdBy: "govcat",
        rejectedPatterns: [{ name: "Office", filterType: "Regex", path: "^.*\\.docx$" }],
      },
      advancedResourceSet: { resourceSetProcessing: "Default" },
    }],
  },
  {
    method: "account.deleteResourceSetRule",
    operationId: "ResourceSetRules_DeleteResourceSetRule",
    contract: "account",
    args: [],
  },

  // Entities of a collection (catalog).
  {
    method: "collections.createOrUpdateEntity",
    operationId: "Collection_CreateOrUpdate",
    contract: "catalog",
    args: ["sales", {
      typeName: "DataSet",
      attributes: { qualifiedName: "x://sales/orders", name: "orders" },
    }],
  },
  {
    method: "collections.createOrUpdateEntities",
    operationId: "Collection_CreateOrUpdateBulk",
    contract: "catalog",
    args: ["sales", [{
      typeName: "DataSet",
      attributes: { qualifiedName: "x://sales/orders", name: "orders" },
    }]],
  },
  {
    method: "collections.moveEntitiesHere",
    operationId: "Collection_MoveEntitiesToCollection",
    contract: "catalog",
    args: ["sales", [GUID, GUID2]],
  },

  // Browse (catalog).
  {
    method: "search.browse",
    operationId: "Discovery_Browse",
    contract: "catalog",
    args: [{ entityType: "azure_data_explorer_cluster", limit: 10 }],
  },
  {
    method: "search.browse",
    variant: "by path",
    operationId: "Discovery_Browse",
    contract: "catalog",
    args: [{
      path: "/azure_data_explorer_cluster#examplecluster.westus.kusto.windows.net",
      limit: 10,
      offset: 0,
    }],
  },
];

/**
 * What the recording server answers: the first contract example of the operation the request matches in
 * the contract its prefix belongs to (a 404 when none matches). An example answering no body (the import's
 * 202) is answered with an ImportCSVOperation, so the client has something to return.
 */
function plausibleAnswer(targets: readonly ContractTarget[], request: RecordedRequest): Response {
  const target = targets.find(({ contract }) =>
    request.path === contract.prefix || request.path.startsWith(contract.prefix + "/")
  );
  const match = target ? matchOperation(target.contract, request.method, request.path) : undefined;
  if (!target || match?.kind !== "found") {
    return Response.json({ error: { code: "NotFound", message: "no such operation" } }, { status: 404 });
  }
  const example = match.operation.exampleFiles.map((file) => target.contract.examples.get(file))
    .find((e) => e !== undefined);
  const [status, response] = Object.entries(example?.responses ?? { "200": { body: {} } })[0];
  if (status === "204") return new Response(null, { status: 204 });
  if (response.body === undefined) {
    return Response.json({ id: GUID, status: "NotStarted" }, {
      status: Number(status),
      headers: (response.headers ?? {}) as Record<string, string>,
    });
  }
  return Response.json(response.body, { status: Number(status) });
}

const AVAILABLE = referenceAvailable({ quiet: true });

if (!AVAILABLE) {
  Deno.test({
    name:
      `client glossary, lineage, collections and browse requests conform to their contracts ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const targets: Record<ClientCase["contract"], ContractTarget> = {
    datamap: {
      contract: await loadDataMapContract(),
      apiVersion: DATAMAP_API_VERSION,
      queryErrata: DATAMAP_REQUEST_ERRATA,
    },
    catalog: { contract: await loadCatalogContract(), apiVersion: CATALOG_API_VERSION },
    account: { contract: await loadAccountContract(), apiVersion: ACCOUNT_API_VERSION },
  };
  const all = Object.values(targets);

  for (const clientCase of CASES) {
    const label = caseLabel(clientCase);
    Deno.test({
      name: `client request: ${label} -> ${clientCase.operationId} (${clientCase.contract} contract)`,
      fn: async () => {
        assertClientHas(clientCase.method, clientCase.operationId);
        const { requests, failure } = await recordClientCall(
          (request) => plausibleAnswer(all, request),
          clientCase.method,
          clientCase.args,
        );
        assert.ok(requests.length >= 1, `${label} sent no request (${failure})`);
        const request = requests[0];
        const { problems, target } = checkRequestAcross(all, request, {
          operationId: clientCase.operationId,
        });
        assert.equal(
          target?.contract.file.href,
          targets[clientCase.contract].contract.file.href,
          `${request.path} should be checked against the ${clientCase.contract} contract`,
        );
        assertCallConforms(request, problems, failure);
      },
    });
  }

  Deno.test("every area client case names an operation of its contract", () => {
    for (const clientCase of CASES) {
      assert.ok(
        targets[clientCase.contract].contract.operations.has(clientCase.operationId),
        `${clientCase.operationId} is not in the ${clientCase.contract} contract`,
      );
    }
  });

  Deno.test("request checks pick the contract by prefix and apply its api-version and errata", () => {
    const check = (path: string, search: string, operationId?: string, method = "GET") =>
      checkRequestAcross(all, { method, path, search, body: "" }, { operationId }).problems;
    assert.deepEqual(check("/account/collections/sales", `?api-version=${ACCOUNT_API_VERSION}`), []);
    assert.deepEqual(check("/account/collections/sales", `?api-version=${DATAMAP_API_VERSION}`), [
      `api-version is "${DATAMAP_API_VERSION}", expected "${ACCOUNT_API_VERSION}"`,
    ]);
    assert.deepEqual(check("/account/collections/sales/getCollectionPath", ""), [
      "required query parameter api-version is missing",
      `api-version=${ACCOUNT_API_VERSION} is missing`,
    ]);
    assert.deepEqual(
      check(`/catalog/api/glossary/terms/import/${GUID}`, `?api-version=${CATALOG_API_VERSION}`),
      [],
    );
    assert.deepEqual(
      check(
        `/datamap/api/atlas/v2/lineage/${GUID}`,
        `?api-version=${DATAMAP_API_VERSION}&width=3&depth=1&direction=INPUT`,
      ),
      [],
    );
    assert.deepEqual(
      check(
        `/datamap/api/atlas/v2/lineage/${GUID}`,
        `?api-version=${DATAMAP_API_VERSION}&height=3&direction=INPUT`,
      ),
      ["query parameter height is not declared by Lineage_Get"],
    );
    assert.deepEqual(check("/scan/datasources", ""), [
      "path /scan/datasources is under none of the API prefixes /datamap/api, /catalog/api, /account",
    ]);
  });
}
