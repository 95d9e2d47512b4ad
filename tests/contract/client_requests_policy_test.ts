/**
 * The requests CatalogClient's policy calls (`client.policies`) send, each checked against the metadata
 * policies contract (2021-07-01-preview, under `/policyStore`): each call runs against a recording server on
 * 127.0.0.1 that answers the matched operation's contract example; the recorded request must match the
 * expected operation (path template, method), carry the contract's api-version, use only declared query
 * parameters and send a body that validates against the body parameter's schema.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { MetadataPolicy } from "../../lib/catalog/policy_types.ts";
import { loadPolicyContract, POLICY_API_VERSION } from "../support/contract/metadata_policies.ts";
import { matchOperation, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { checkRequestAcross, type ContractTarget } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import type { RecordedRequest } from "../support/local_server.ts";

const POLICY_ID = "98ed42ff-b67f-44df-8c8c-7e6b43e77055";

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `client policy requests conform to the metadata policies contract ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadPolicyContract();
  const target: ContractTarget = { contract, apiVersion: POLICY_API_VERSION };
  const update = contract.examples.get("MetadataPolicy_Update.json")!;
  const CASES: ClientCase[] = [
    { method: "policies.listRoles", operationId: "MetadataRoles_List", args: [] },
    { method: "policies.listPolicies", operationId: "MetadataPolicy_ListAll", args: [], variant: "all" },
    {
      method: "policies.listPolicies",
      operationId: "MetadataPolicy_ListAll",
      args: ["mycollection"],
      variant: "one collection's",
    },
    { method: "policies.get", operationId: "MetadataPolicy_Get", args: [POLICY_ID] },
    {
      method: "policies.update",
      operationId: "MetadataPolicy_Update",
      args: [POLICY_ID, update.parameters.body as MetadataPolicy],
    },
  ];

  /** The first contract example of the operation the request matches (404 when none matches). */
  const exampleAnswer = (request: RecordedRequest): Response => {
    const match = matchOperation(contract, request.method, request.path);
    if (match.kind !== "found") {
      return Response.json({ error: { code: "NotFound", message: "no such operation" } }, { status: 404 });
    }
    const example = contract.examples.get(match.operation.exampleFiles[0])!;
    const [status, response] = Object.entries(example.responses)[0];
    return Response.json(response.body, { status: Number(status) });
  };

  for (const clientCase of CASES) {
    Deno.test(`client request: ${caseLabel(clientCase)} -> ${clientCase.operationId} (metadata policies)`, async () => {
      assertClientHas(clientCase.method, clientCase.operationId);
      const { requests, failure } = await recordClientCall(exampleAnswer, clientCase.method, clientCase.args);
      assert.ok(requests.length >= 1, `${caseLabel(clientCase)} sent no request (${failure})`);
      const { problems } = checkRequestAcross([target], requests[0], { operationId: clientCase.operationId });
      assertCallConforms(requests[0], problems, failure);
      if (clientCase.variant === "one collection's") {
        assert.equal(new URLSearchParams(requests[0].search).get("collectionName"), "mycollection");
      }
    });
  }
}
