/**
 * The requests CatalogClient's workflow calls send (`client.workflow`), each checked against the workflow
 * contract (Azure.Analytics.Purview.Workflow 2023-10-01-preview, under `/workflow`): each call runs against
 * a recording server on 127.0.0.1 that answers what the matched operation's contract example answers; the
 * recorded request must match the expected operation (path template, method), carry the contract's
 * api-version, use only declared query parameters and send a body that validates against the body
 * parameter's schema. Every operation of the contract has a case.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import { matchOperation, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { checkRequest } from "../support/contract/requests.ts";
import {
  assertCallConforms,
  assertClientHas,
  caseLabel,
  type ClientCase,
  recordClientCall,
} from "../support/contract/client_calls.ts";
import { exampleWorkflow, loadWorkflowContract, WORKFLOW_API_VERSION } from "../support/contract/workflow.ts";
import type { RecordedRequest } from "../support/local_server.ts";
import type { Contract } from "../support/contract/reference.ts";

const ID = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";
const OTHER = "7645223c-cdca-43e9-98c8-bd4d97e79e5e";

function cases(contract: Contract): ClientCase[] {
  const workflow = exampleWorkflow(contract);
  const request = contract.examples.get("SubmitUserRequests.json")!.parameters.userRequestsPayload;
  return [
    { method: "workflow.listWorkflows", operationId: "Workflows_List", args: [] },
    { method: "workflow.getWorkflow", operationId: "Workflow_Get", args: [ID] },
    { method: "workflow.putWorkflow", operationId: "Workflow_CreateOrReplace", args: [ID, workflow] },
    { method: "workflow.deleteWorkflow", operationId: "Workflow_Delete", args: [ID] },
    { method: "workflow.validateWorkflow", operationId: "Workflow_Validate", args: [ID, workflow] },
    { method: "workflow.submitUserRequest", operationId: "UserRequests_Submit", args: [request] },
    { method: "workflow.listRuns", operationId: "WorkflowRuns_List", args: [] },
    {
      method: "workflow.listRuns",
      variant: "filtered",
      operationId: "WorkflowRuns_List",
      args: [{
        viewMode: "mine",
        runStatuses: ["InProgress", "Failed"],
        workflowIds: [ID],
        requestors: [OTHER],
        timeWindow: "30d",
        orderby: "startTime desc",
        maxpagesize: 50,
      }],
    },
    { method: "workflow.getRun", operationId: "WorkflowRun_Get", args: [ID] },
    { method: "workflow.cancelRun", operationId: "WorkflowRun_Cancel", args: [ID, "Withdrawn"] },
    { method: "workflow.listTasks", operationId: "WorkflowTasks_List", args: [] },
    {
      method: "workflow.listTasks",
      variant: "filtered",
      operationId: "WorkflowTasks_List",
      args: [{
        viewMode: "received",
        taskStatuses: ["Pending"],
        taskTypes: ["approval"],
        workflowIds: [ID],
        requestors: [OTHER],
        assignees: [OTHER],
        workflowNameKeyword: "term",
        timeWindow: "7d",
      }],
    },
    { method: "workflow.getTask", operationId: "WorkflowTask_Get", args: [ID] },
    { method: "workflow.approve", operationId: "Approval_Approve", args: [ID, "Fine"] },
    { method: "workflow.reject", operationId: "Approval_Reject", args: [ID, "Duplicate"] },
    {
      method: "workflow.reassign",
      operationId: "WorkflowTask_Reassign",
      args: [ID, [{ reassignFrom: OTHER, reassignTo: ID }]],
    },
    {
      method: "workflow.changeTaskStatus",
      operationId: "TaskStatus_Update",
      args: [ID, "InProgress", "On it"],
    },
  ];
}

/** The example answer of the operation the request matches (an empty 200 where the example has none). */
function exampleAnswer(contract: Contract, request: RecordedRequest): Response {
  const match = matchOperation(contract, request.method, request.path);
  if (match.kind !== "found") {
    return Response.json({ error: { code: "NotFound", message: "no" } }, { status: 404 });
  }
  const example = contract.examples.get(match.operation.exampleFiles[0]);
  const [status, response] = Object.entries(example?.responses ?? { "200": {} })[0];
  if (response.body === undefined) return new Response(null, { status: Number(status) });
  return Response.json(response.body, { status: Number(status) });
}

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `client workflow requests conform to the contract ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadWorkflowContract();
  const all = cases(contract);

  Deno.test("client workflow requests: every operation of the contract has a case", () => {
    const covered = new Set(all.map((c) => c.operationId));
    assert.deepEqual([...contract.operations.keys()].filter((id) => !covered.has(id)), []);
  });

  for (const clientCase of all) {
    Deno.test(`client request: ${caseLabel(clientCase)} -> ${clientCase.operationId} (workflow contract)`, async () => {
      assertClientHas(clientCase.method, clientCase.operationId);
      const { requests, failure } = await recordClientCall(
        (request) => exampleAnswer(contract, request),
        clientCase.method,
        clientCase.args,
      );
      assert.ok(requests.length >= 1, `${caseLabel(clientCase)} sent no request (${failure})`);
      const { problems } = checkRequest(contract, requests[0], {
        operationId: clientCase.operationId,
        apiVersion: WORKFLOW_API_VERSION,
      });
      assertCallConforms(requests[0], problems, failure);
    });
  }
}
