/**
 * The requests CatalogClient sends, checked against the published data-map contract: each client method
 * runs against a recording server on 127.0.0.1 that answers what the operation's own contract example
 * answers, and the request it recorded must match the expected operation (path template under
 * /datamap/api, method), carry api-version=2023-09-01, use only declared query parameters (required ones
 * present, booleans as true/false, repeated only where the contract says multi), and send a body that
 * validates against the body parameter's schema.
 *
 * Methods are looked up at run time: a case whose method the client does not have fails, naming the method
 * (a deleted or renamed method is a failure, never a skipped test).
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import {
  type Contract,
  DATAMAP_API_VERSION,
  loadDataMapContract,
  matchOperation,
  referenceAvailable,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";
import { checkRequest } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import type { RecordedRequest } from "../support/local_server.ts";

const GUID = "9fb74c11-ac48-4650-95bc-760665c5bd92";
const GUID2 = "7fcc43ab-55ea-45d4-9971-ce0443cb10bb";
const TYPE = "azure_storage_account";
const QN = "https://exampleaccount.core.windows.net";
/** The entity named by type and qualified name, as the `…ByUniqueAttribute` calls take it. */
const BY_NAME = { typeName: TYPE, qualifiedName: QN };
const ENTITY = {
  typeName: TYPE,
  attributes: { qualifiedName: QN, name: "ExampleStorageAccount", owner: "ExampleOwner" },
  contacts: { Owner: [{ id: "30435ff9-9b96-44af-a5a9-e05c8b1ae2df", info: "Example Owner Info" }] },
};
const CLASSIFICATION = { typeName: "MICROSOFT.PERSONAL.EMAIL", attributes: {} };
const TYPES_DEF = {
  businessMetadataDefs: [{
    name: "Governance",
    attributeDefs: [{
      name: "steward",
      typeName: "string",
      isOptional: true,
      cardinality: "SINGLE",
      options: { maxStrLength: "50", applicableEntityTypes: '["DataSet"]' },
    }],
  }],
};
const RELATIONSHIP = {
  typeName: "AtlasGlossarySynonym",
  attributes: { expression: "Example Expression" },
  end1: { guid: GUID, typeName: "AtlasGlossaryTerm" },
  end2: { guid: GUID2, typeName: "AtlasGlossaryTerm" },
};

const CASES: ClientCase[] = [
  // The first client: entity reads and writes, search.
  { method: "entity.get", operationId: "Entity_Get", args: [GUID] },
  {
    method: "entity.get",
    variant: "with minExtInfo and ignoreRelationships",
    operationId: "Entity_Get",
    args: [GUID, { minExtInfo: true, ignoreRelationships: false }],
  },
  {
    method: "entity.getByUniqueAttribute",
    operationId: "Entity_GetByUniqueAttributes",
    args: [TYPE, QN, { minExtInfo: true }],
  },
  {
    method: "entity.getMany",
    operationId: "Entity_ListByGuids",
    args: [[GUID, GUID2], { ignoreRelationships: true }],
  },
  { method: "entity.createOrUpdate", operationId: "Entity_CreateOrUpdate", args: [ENTITY] },
  {
    method: "entity.createOrUpdate",
    variant: "with referred entities",
    operationId: "Entity_CreateOrUpdate",
    args: [{ entity: ENTITY, referredEntities: {} }],
  },
  { method: "entity.createOrUpdateMany", operationId: "Entity_BulkCreateOrUpdate", args: [[ENTITY]] },
  { method: "entity.delete", operationId: "Entity_Delete", args: [GUID] },
  {
    method: "entity.deleteByUniqueAttribute",
    operationId: "Entity_DeleteByUniqueAttribute",
    args: [TYPE, QN],
  },
  { method: "entity.deleteMany", operationId: "Entity_BulkDelete", args: [[GUID, GUID2]] },
  {
    method: "search.query",
    operationId: "Discovery_Query",
    args: [{
      keywords: "customers",
      limit: 10,
      filter: { and: [{ objectType: "Tables" }, { classification: "MICROSOFT.PERSONAL.EMAIL" }] },
      facets: [{ facet: "assetType", count: 10, sort: { count: "desc" } }],
      orderby: [{ name: "ASC" }],
    }],
  },
  {
    method: "search.query",
    variant: "next page",
    operationId: "Discovery_Query",
    args: [{ continuationToken: "t" }],
  },
  {
    method: "search.suggest",
    operationId: "Discovery_Suggest",
    args: [{ keywords: "exampledata", limit: 10, filter: { and: [{ entityType: "azure_blob_path" }] } }],
  },
  {
    method: "search.autocomplete",
    operationId: "Discovery_AutoComplete",
    args: [{ keywords: "exa", limit: 10 }],
  },

  // Added with labels, classifications, business metadata, collections, types and relationships.
  { method: "entity.getHeader", operationId: "Entity_GetHeader", args: [GUID] },
  {
    method: "entity.listByUniqueAttributes",
    operationId: "Entity_ListByUniqueAttributes",
    args: [TYPE, [QN, `${QN}/2`], { minExtInfo: true }],
  },
  {
    method: "entity.partialUpdateAttribute",
    operationId: "Entity_PartialUpdateAttributeByGuid",
    args: [GUID, "name", "New"],
  },
  {
    method: "entity.partialUpdateByUniqueAttribute",
    operationId: "Entity_PartialUpdateByUniqueAttributes",
    args: [TYPE, QN, { entity: ENTITY }],
  },
  {
    method: "entity.moveToCollection",
    operationId: "Entity_MoveEntitiesToCollection",
    args: ["sales", [GUID, GUID2]],
  },
  { method: "entity.label", operationId: "Entity_AddLabel", args: ["add", { guid: GUID }, ["gold", "pii"]] },
  { method: "entity.label", operationId: "Entity_SetLabels", args: ["set", { guid: GUID }, ["gold"]] },
  { method: "entity.label", operationId: "Entity_RemoveLabels", args: ["remove", { guid: GUID }, ["pii"]] },
  { method: "entity.label", operationId: "Entity_AddLabelsByUniqueAttribute", args: ["add", BY_NAME, ["a"]] },
  { method: "entity.label", operationId: "Entity_SetLabelsByUniqueAttribute", args: ["set", BY_NAME, ["a"]] },
  {
    method: "entity.label",
    operationId: "Entity_RemoveLabelsByUniqueAttribute",
    args: ["remove", BY_NAME, ["a"]],
  },
  { method: "entity.getClassifications", operationId: "Entity_GetClassifications", args: [GUID] },
  {
    method: "entity.getClassification",
    operationId: "Entity_GetClassification",
    args: [GUID, CLASSIFICATION.typeName],
  },
  {
    method: "entity.classify",
    operationId: "Entity_AddClassifications",
    args: ["add", { guid: GUID }, [CLASSIFICATION]],
  },
  {
    method: "entity.classify",
    operationId: "Entity_UpdateClassifications",
    args: ["update", { guid: GUID }, [CLASSIFICATION]],
  },
  {
    method: "entity.removeClassification",
    operationId: "Entity_RemoveClassification",
    args: [{ guid: GUID }, CLASSIFICATION.typeName],
  },
  {
    method: "entity.classify",
    operationId: "Entity_AddClassificationsByUniqueAttribute",
    args: ["add", BY_NAME, [CLASSIFICATION]],
  },
  {
    method: "entity.classify",
    operationId: "Entity_UpdateClassificationsByUniqueAttribute",
    args: ["update", BY_NAME, [CLASSIFICATION]],
  },
  {
    method: "entity.removeClassification",
    operationId: "Entity_RemoveClassificationByUniqueAttribute",
    args: [BY_NAME, CLASSIFICATION.typeName],
  },
  {
    method: "entity.addClassificationToEntities",
    operationId: "Entity_AddClassification",
    args: [CLASSIFICATION, [GUID, GUID2]],
  },
  {
    method: "entity.setClassifications",
    operationId: "Entity_BulkSetClassifications",
    args: [{
      [GUID]: { typeName: TYPE, attributes: { qualifiedName: QN }, classifications: [CLASSIFICATION] },
    }],
  },
  {
    method: "entity.addOrUpdateBusinessMetadata",
    operationId: "Entity_AddOrUpdateBusinessMetadata",
    args: [GUID, { Governance: { steward: "Dana" } }],
  },
  {
    method: "entity.addOrUpdateBusinessMetadata",
    variant: "overwriting",
    operationId: "Entity_AddOrUpdateBusinessMetadata",
    args: [GUID, { Governance: { steward: "Dana" } }, { isOverwrite: true }],
  },
  {
    method: "entity.removeBusinessMetadata",
    operationId: "Entity_RemoveBusinessMetadata",
    args: [GUID, { Governance: { steward: "" } }],
  },
  {
    method: "entity.addOrUpdateBusinessMetadataAttributes",
    operationId: "Entity_AddOrUpdateBusinessMetadataAttributes",
    args: [GUID, "Governance", { steward: "Dana" }],
  },
  {
    method: "entity.removeBusinessMetadataAttributes",
    operationId: "Entity_RemoveBusinessMetadataAttributes",
    args: [GUID, "Governance", { steward: "" }],
  },
  {
    method: "entity.importBusinessMetadata",
    operationId: "Entity_ImportBusinessMetadata",
    args: [
      `EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue\n${TYPE},${QN},Governance.steward,Dana\n`,
      "bm.csv",
    ],
  },
  {
    method: "entity.getBusinessMetadataTemplate",
    operationId: "Entity_GetSampleBusinessMetadataTemplate",
    args: [],
  },
  { method: "types.list", operationId: "Type_List", args: [] },
  { method: "types.list", variant: "of one category", operationId: "Type_List", args: [{ type: "ENUM" }] },
  { method: "types.listHeaders", operationId: "Type_ListHeaders", args: [{ includeTermTemplate: true }] },
  { method: "types.get", operationId: "Type_GetEntityDefByName", args: ["entity", { name: "DataSet" }] },
  {
    method: "types.get",
    variant: "business metadata by guid",
    operationId: "Type_GetBusinessMetadataDefByGuid",
    args: ["businessmetadata", { guid: GUID }],
  },
  {
    method: "types.get",
    variant: "enum",
    operationId: "Type_GetEnumDefByName",
    args: ["enum", { name: "e" }],
  },
  {
    method: "types.get",
    variant: "struct",
    operationId: "Type_GetStructDefByName",
    args: ["struct", { name: "s" }],
  },
  {
    method: "types.get",
    variant: "classification",
    operationId: "Type_GetClassificationDefByName",
    args: ["classification", { name: "MICROSOFT.PERSONAL.EMAIL" }],
  },
  {
    method: "types.get",
    variant: "relationship",
    operationId: "Type_GetRelationshipDefByGuid",
    args: ["relationship", { guid: GUID }],
  },
  { method: "types.getAny", operationId: "Type_GetByName", args: [{ name: "DataSet" }] },
  { method: "types.create", operationId: "Type_BulkCreate", args: [TYPES_DEF] },
  { method: "types.update", operationId: "Type_BulkUpdate", args: [TYPES_DEF] },
  { method: "types.deleteMany", operationId: "Type_BulkDelete", args: [TYPES_DEF] },
  { method: "types.delete", operationId: "Type_Delete", args: ["Governance"] },
  { method: "relationships.create", operationId: "Relationship_Create", args: [RELATIONSHIP] },
  {
    method: "relationships.update",
    operationId: "Relationship_Update",
    args: [{ ...RELATIONSHIP, guid: GUID }],
  },
  { method: "relationships.get", operationId: "Relationship_Get", args: [GUID] },
  {
    method: "relationships.get",
    variant: "with extended info",
    operationId: "Relationship_Get",
    args: [GUID, { extendedInfo: true }],
  },
  { method: "relationships.delete", operationId: "Relationship_Delete", args: [GUID] },
];

/**
 * What the recording server answers: the status and body of the first contract example of the operation
 * the request matches (a 404 in the Atlas error shape when it matches none).
 */
function plausibleAnswer(contract: Contract, request: RecordedRequest): Response {
  const match = matchOperation(contract, request.method, request.path);
  if (match.kind !== "found") {
    return Response.json({
      requestId: crypto.randomUUID(),
      errorCode: "NotFound",
      errorMessage: "no such operation",
    }, {
      status: 404,
    });
  }
  const operation = match.operation;
  const example = operation.exampleFiles.map((file) => contract.examples.get(file)).find((e) =>
    e !== undefined
  );
  const [status, response] = Object.entries(example?.responses ?? { "200": { body: {} } })[0];
  if (status === "204" || response.body === undefined) return new Response(null, { status: Number(status) });
  if (operation.responses[status]?.schema?.type === "file") {
    return new Response(String(response.body), {
      status: Number(status),
      headers: { "content-type": "text/csv" },
    });
  }
  return Response.json(response.body, { status: Number(status) });
}

const AVAILABLE = referenceAvailable({ quiet: true });

if (!AVAILABLE) {
  Deno.test({
    name: `client requests conform to the data-map contract ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
  Deno.test({
    name: `request checks flag what the contract does not allow ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadDataMapContract();

  for (const clientCase of CASES) {
    const label = caseLabel(clientCase);
    Deno.test({
      name: `client request: ${label} -> ${clientCase.operationId}`,
      fn: async () => {
        assertClientHas(clientCase.method, clientCase.operationId);
        const { requests, failure } = await recordClientCall(
          (request) => plausibleAnswer(contract, request),
          clientCase.method,
          clientCase.args,
        );
        assert.equal(requests.length, 1, `${label} should send exactly one request`);
        const request = requests[0];
        const { problems } = checkRequest(contract, request, {
          operationId: clientCase.operationId,
          apiVersion: DATAMAP_API_VERSION,
        });
        assertCallConforms(request, problems, failure);
      },
    });
  }

  Deno.test("every client case names an operation of the contract", () => {
    for (const clientCase of CASES) {
      assert.ok(
        contract.operations.has(clientCase.operationId),
        `${clientCase.operationId} is not in the contract`,
      );
    }
  });

  Deno.test("request checks flag what the contract does not allow", () => {
    const check = (
      method: string,
      path: string,
      search: string,
      body = "",
      contentType = "application/json",
    ) =>
      checkRequest(contract, {
        method,
        path: `/datamap/api${path}`,
        search,
        body,
        headers: new Headers(body ? { "content-type": contentType } : {}),
      }).problems;
    const v = "?api-version=2023-09-01";
    assert.deepEqual(check("GET", `/atlas/v2/entity/guid/${GUID}`, `${v}&minExtInfo=true`), []);
    assert.deepEqual(
      check(
        "GET",
        "/atlas/v2/entity/bulk/uniqueAttribute/type/t",
        `${v}&attr_1:qualifiedName=a&attr_2:qualifiedName=b`,
      ),
      [],
    );
    assert.deepEqual(check("GET", `/atlas/v2/entity/guid/${GUID}`, ""), [
      "api-version=2023-09-01 is missing",
    ]);
    assert.deepEqual(check("GET", `/atlas/v2/entity/guid/${GUID}`, "?api-version=2022-03-01-preview"), [
      'api-version is "2022-03-01-preview", expected "2023-09-01"',
    ]);
    assert.deepEqual(check("GET", `/atlas/v2/entity/guid/${GUID}`, `${v}&minExtInfo=yes&limit=3`), [
      "query parameter minExtInfo: expected true or false, got yes",
      "query parameter limit is not declared by Entity_Get",
    ]);
    assert.deepEqual(check("GET", `/atlas/v2/entity/guid/${GUID}`, `${v}&minExtInfo=true&minExtInfo=false`), [
      "query parameter minExtInfo given 2 times",
    ]);
    assert.deepEqual(check("GET", "/atlas/v2/entity/bulk", `${v}&guid=a&guid=b`), []);
    assert.deepEqual(check("GET", "/atlas/v2/entity/bulk", v), ["required query parameter guid is missing"]);
    assert.deepEqual(check("POST", "/entity/moveTo", v, '{"entityGuids":["a"]}'), [
      "required query parameter collectionId is missing",
    ]);
    assert.deepEqual(check("PATCH", `/atlas/v2/entity/guid/${GUID}`, v), [
      `PATCH is not declared for /atlas/v2/entity/guid/{guid} (declared: GET, PUT, DELETE)`,
    ]);
    assert.deepEqual(check("GET", "/atlas/v2/entities", v), [
      "no path template of the contract matches /datamap/api/atlas/v2/entities",
    ]);
    assert.deepEqual(
      checkRequest(contract, {
        method: "GET",
        path: "/catalog/api/atlas/v2/entity/bulk",
        search: v,
        body: "",
      }).problems,
      ["path /catalog/api/atlas/v2/entity/bulk is not under the API prefix /datamap/api"],
    );
    assert.deepEqual(check("POST", "/search/query", v, '{"keywords":1,"limit":"10"}'), [
      "body does not match the contract:\n$body.keywords: expected string, got number\n$body.limit: expected integer, got string",
    ]);
    assert.deepEqual(check("POST", "/search/query", v, '{"keywords":"x"}', "text/plain"), [
      "body sent with content-type text/plain, expected application/json",
    ]);
    assert.deepEqual(check("POST", "/search/query", v), ["Discovery_Query requires a body, none was sent"]);
    assert.deepEqual(check("DELETE", `/atlas/v2/entity/guid/${GUID}`, v, "{}"), [
      "Entity_Delete takes no body, but one was sent",
    ]);
    assert.deepEqual(check("POST", "/atlas/v2/entity/businessmetadata/import", v, "x", "text/csv"), [
      "Entity_ImportBusinessMetadata takes multipart/form-data, sent content-type text/csv",
    ]);
    assert.deepEqual(
      checkRequest(contract, {
        method: "GET",
        path: `/datamap/api/atlas/v2/entity/guid/${GUID}`,
        search: v,
        body: "",
      }, {
        operationId: "Entity_GetHeader",
      }).problems,
      ["request matches Entity_Get (GET /atlas/v2/entity/guid/{guid}), not Entity_GetHeader"],
    );
  });
}
