/**
 * The requests of the client methods added for the later contract versions, each checked against that
 * version: contacts, domains and feature flags against the account contract of 2023-10-01-preview (under
 * /account), and `search.navigate` against the data-map contract of 2024-03-01-preview (under
 * /datamap/api). As client_requests_areas_test.ts does for the older versions: each call runs against a
 * recording server on 127.0.0.1 answering the operation's first example, and its request must match the
 * expected operation, carry that version's api-version, use only declared query parameters and send a body
 * that validates against the body parameter's schema.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import { matchOperation, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import {
  ACCOUNT_2023_API_VERSION,
  DATAMAP_2024_API_VERSION,
  loadAccount2023Contract,
  loadDataMap2024Contract,
} from "../support/contract/preview_contracts.ts";
import { checkRequestAcross, type ContractTarget } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import type { RecordedRequest } from "../support/local_server.ts";

const ID = "92da5bf4-f7ed-4118-bce7-df3807017cce";
const ASSIGNMENT = {
  principalId: "12341234-1234-4379-8609-9572491ea3e0",
  contactGroup: { type: "ContactGroupDefinitionReference", referenceName: "experts" },
  scope: { type: "CollectionReference", referenceName: "coll1" },
};

const CASES: ClientCase[] = [
  { method: "account.listDomains", operationId: "Domains_ListDomains", args: [] },
  { method: "account.getDomain", operationId: "Domains_GetDomain", args: ["myDomain1"] },
  {
    method: "account.getFeatures",
    operationId: "ExposureControl_GetFeatures",
    args: [["Feature1", "Feature2"]],
  },
  {
    method: "contacts.listGroups",
    operationId: "ContactGroupDefinitions_ListContactGroupDefinitions",
    args: [],
  },
  {
    method: "contacts.getGroup",
    operationId: "ContactGroupDefinitions_GetContactGroupDefinition",
    args: ["g1"],
  },
  {
    method: "contacts.putGroup",
    operationId: "ContactGroupDefinitions_CreateOrUpdateContactGroupDefinition",
    args: ["g1", { description: "People to contact" }],
  },
  {
    method: "contacts.deleteGroup",
    operationId: "ContactGroupDefinitions_DeleteContactGroupDefinition",
    args: ["g1"],
  },
  {
    method: "contacts.listAssignments",
    operationId: "ContactAssignments_ListContactAssignments",
    args: [{ scope: "coll1", contactGroup: "experts", referenceType: "CollectionReference" }],
  },
  { method: "contacts.getAssignment", operationId: "ContactAssignments_GetContactAssignment", args: [ID] },
  {
    method: "contacts.putAssignment",
    operationId: "ContactAssignments_CreateOrUpdateContactAssignment",
    args: [ID, ASSIGNMENT],
  },
  {
    method: "contacts.deleteAssignment",
    operationId: "ContactAssignments_DeleteContactAssignment",
    args: [ID],
  },
  {
    method: "contacts.scopedGroupNames",
    operationId: "ContactAssignments_ListScopedContactGroupNames",
    args: ["coll1", "CollectionReference"],
  },
  {
    method: "search.navigate",
    operationId: "Discovery_Navigation",
    args: [{ navigationMode: "assetType", itemPath: { path: "/" }, includeNextLevelAssetCount: true }, {
      maxPageSize: 50,
    }],
  },
];

/** The first example answer of the operation the request matches (a 404 when none matches). */
function exampleAnswer(targets: readonly ContractTarget[], request: RecordedRequest): Response {
  const target = targets.find(({ contract }) => request.path.startsWith(contract.prefix + "/"));
  const match = target ? matchOperation(target.contract, request.method, request.path) : undefined;
  if (!target || match?.kind !== "found") {
    return Response.json({ error: { code: "NotFound", message: "no such operation" } }, { status: 404 });
  }
  const example = target.contract.examples.get(match.operation.exampleFiles[0]);
  const [status, response] = Object.entries(example?.responses ?? { "200": { body: {} } })[0];
  if (response.body === undefined) return new Response(null, { status: Number(status) });
  return Response.json(response.body, { status: Number(status) });
}

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `client requests of the later contract versions conform to them ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const account = { contract: await loadAccount2023Contract(), apiVersion: ACCOUNT_2023_API_VERSION };
  const datamap = { contract: await loadDataMap2024Contract(), apiVersion: DATAMAP_2024_API_VERSION };
  const targets = [account, datamap];

  for (const clientCase of CASES) {
    const label = caseLabel(clientCase);
    Deno.test(`client request (later versions): ${label} -> ${clientCase.operationId}`, async () => {
      assertClientHas(clientCase.method, clientCase.operationId);
      const { requests, failure } = await recordClientCall(
        (request) => exampleAnswer(targets, request),
        clientCase.method,
        clientCase.args,
      );
      assert.ok(requests.length >= 1, `${label} sent no request (${failure})`);
      const { problems } = checkRequestAcross(targets, requests[0], { operationId: clientCase.operationId });
      assertCallConforms(requests[0], problems, failure);
    });
  }

  Deno.test("client requests (later versions): every new operation has a client case", () => {
    const added = [...account.contract.operations.keys()].filter((id) =>
      /^(Domains|ExposureControl|ContactGroupDefinitions|ContactAssignments)_/.test(id)
    );
    assert.equal(added.length, 12);
    const covered = new Set(CASES.map((c) => c.operationId));
    assert.deepEqual([...added, "Discovery_Navigation"].filter((id) => !covered.has(id)), []);
  });
}
