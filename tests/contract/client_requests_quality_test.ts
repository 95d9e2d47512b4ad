/**
 * The requests CatalogClient's data quality calls (`client.quality`) send, each checked against the contract
 * its operation belongs to: the typed rule contract for the rule calls (whose bodies must validate against
 * RuleEntity), the untyped one for runs, outcomes and scores. Each call runs against a recording server on
 * 127.0.0.1 that answers a plausible body; the recorded request must match the expected operation (path
 * template below `/purviewdataquality/api`, method), carry api-version 2025-09-01-preview and use only
 * declared query parameters.
 *
 * The contracts live in ../shared/reference beside CI's clone only; without them every test here is ignored.
 */
import assert from "node:assert/strict";
import type { QualityAsset } from "../../lib/catalog/quality_api.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import {
  loadTypedQualityContract,
  loadUntypedQualityContract,
  QUALITY_API_VERSION,
} from "../support/contract/quality.ts";
import { referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { checkRequest } from "../support/contract/requests.ts";

const DOMAIN = "abcdef12-3456-7890-abcd-ef1234567890";
const ASSET: QualityAsset = {
  businessDomainId: DOMAIN,
  dataProductId: "12345678-abcd-1234-ef00-123456abcdef",
  dataAssetId: "abcd1234-5678-abcd-1234-abcd5678ef00",
};
const RULE_ID = "123e4567-e89b-12d3-a456-426614174000";
const RULE = {
  id: RULE_ID,
  name: "Email complete",
  type: "Completeness",
  status: "Active",
  typeProperties: { column: { type: "string", value: "Email" } },
};
const ASSET_PATH =
  "/business-domains/{businessDomainId}/data-products/{dataProductId}/data-assets/{dataAssetId}";

interface QualityCase extends ClientCase {
  contract: "typed" | "untyped";
  /** What the recording server answers. */
  answer: () => Response;
}

const json = (body: unknown, status = 200) => () => Response.json(body, { status });

const CASES: QualityCase[] = [
  {
    method: "quality.listRules",
    operationId: "GetRules",
    contract: "typed",
    args: [ASSET],
    answer: json([RULE]),
  },
  {
    method: "quality.getRule",
    operationId: "GetRule",
    contract: "typed",
    args: [ASSET, RULE_ID],
    answer: json(RULE),
  },
  {
    method: "quality.createRule",
    operationId: "CreateRules",
    contract: "typed",
    args: [ASSET, RULE],
    answer: json([RULE], 201),
  },
  {
    method: "quality.updateRule",
    operationId: "UpdateRule",
    contract: "typed",
    args: [ASSET, RULE],
    answer: json(RULE),
  },
  {
    method: "quality.deleteRule",
    operationId: "DeleteRule",
    contract: "typed",
    args: [ASSET, RULE_ID],
    answer: () => new Response(null, { status: 204 }),
  },
  {
    method: "quality.startRun",
    operationId: "observe",
    contract: "untyped",
    args: [ASSET],
    answer: json("r1", 201),
  },
  {
    method: "quality.getRun",
    operationId: "GetJobInformation",
    contract: "untyped",
    args: [ASSET, "r1"],
    answer: json({ runId: "r1" }),
  },
  {
    method: "quality.listRuns",
    operationId: `GET ${ASSET_PATH}/runs`,
    contract: "untyped",
    args: [ASSET],
    answer: json([]),
  },
  {
    method: "quality.getOutcome",
    operationId: "GetOutcome",
    contract: "untyped",
    args: [DOMAIN, "o1"],
    answer: json({ id: "o1" }),
  },
  {
    method: "quality.report",
    operationId: "DQ Health Report",
    contract: "untyped",
    args: [DOMAIN],
    answer: json([]),
  },
  {
    method: "quality.dataProduct",
    operationId: "GET /business-domains/{businessDomainId}/data-products/{dataProductId}",
    contract: "untyped",
    args: [DOMAIN, ASSET.dataProductId],
    answer: json({ dataAssets: [] }),
  },
];

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `client data quality requests conform to their contracts ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contracts = { typed: await loadTypedQualityContract(), untyped: await loadUntypedQualityContract() };
  for (const clientCase of CASES) {
    Deno.test(
      `client request: ${
        caseLabel(clientCase)
      } -> ${clientCase.operationId} (${clientCase.contract} data quality contract)`,
      async () => {
        assertClientHas(clientCase.method, clientCase.operationId);
        const { requests, failure } = await recordClientCall(
          clientCase.answer,
          clientCase.method,
          clientCase.args,
        );
        assert.equal(requests.length, 1, `${caseLabel(clientCase)} sends one request (${failure})`);
        const { problems } = checkRequest(contracts[clientCase.contract], requests[0], {
          operationId: clientCase.operationId,
          apiVersion: QUALITY_API_VERSION,
        });
        assertCallConforms(requests[0], problems, failure);
      },
    );
  }

  Deno.test("every data quality client case names an operation of its contract", () => {
    for (const clientCase of CASES) {
      assert.ok(
        contracts[clientCase.contract].operations.has(clientCase.operationId),
        `${clientCase.operationId} is not in the ${clientCase.contract} data quality contract`,
      );
    }
  });
}
