/**
 * Replays the published workflow contract's examples (Azure.Analytics.Purview.Workflow 2023-10-01-preview,
 * basePath `/workflow`) against the emulator: for every example, prepare what it refers to (SCENARIOS: a
 * workflow, a user request that starts a run and an approval or simple task), point its ids at what the
 * set-up made, send the request the example describes to a fresh emulator, and check that the status is the
 * example's and the body validates against the operation's response schema (an error body against the
 * contract's `ErrorResponse`). ERROR_CASES check refusals in the contract's error shape.
 *
 * Examples pass parameters their operations do not declare (`runStatues` in ListWorkflowRuns.json, a
 * misspelt `runStatuses`; `x-ms-client-request-id` in GetWorkflowRun.json, a header): a client sends the
 * one as the declared `runStatuses` and the other as a header, so the replay drops them.
 *
 * The contract lives in ../shared/reference beside CI's clone only; without it every test here is ignored.
 */
import assert from "node:assert/strict";
import type { Json } from "../support/contract/emulator_api.ts";
import { type Contract, referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import {
  assertScenariosCoverExamples,
  azureErrorSchema,
  type ErrorCase,
  replayErrorCase,
  replayExample,
  type ReplayProfile,
  type ReplayScenario,
} from "../support/contract/replay.ts";
import {
  EMULATOR_USER_ID,
  exampleWorkflow,
  loadWorkflowContract,
  simpleTaskWorkflow,
  WORKFLOW_API_VERSION,
  workflowSetup,
} from "../support/contract/workflow.ts";

const V = { "api-version": WORKFLOW_API_VERSION };
const SETUP_WORKFLOW = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";

const NO_SETUP: ReplayScenario = { steps: ["none"], prepare: () => {} };

/** The example's workflow (path `workflowId`) exists. */
const EXISTING_WORKFLOW: ReplayScenario = {
  steps: ["create the workflow of CreateOrReplaceWorkflow.json under the example's workflowId"],
  prepare: ({ api, params, contract }) =>
    workflowSetup.workflow(api, String(params.workflowId ?? SETUP_WORKFLOW), exampleWorkflow(contract)),
};

/**
 * A run of a term creation with an approval task, approved by `approver`; the example's ids are pointed at
 * the run and the task.
 */
function requestScenario(approver: string | undefined, drop: string[] = []): ReplayScenario {
  return {
    steps: [
      `create the workflow of CreateOrReplaceWorkflow.json${
        approver ? " with the emulator's user as approver" : ""
      }`,
      "submit SubmitUserRequests.json, which starts a run with an approval task",
      "point workflowRunId and taskId at them",
      ...(drop.length ? [`drop the undeclared parameters ${drop.join(", ")}`] : []),
    ],
    prepare: async ({ api, params, contract }) => {
      await workflowSetup.workflow(api, SETUP_WORKFLOW, exampleWorkflow(contract, approver));
      const { runId, taskId } = await workflowSetup.request(api, contract);
      if ("workflowRunId" in params) params.workflowRunId = runId;
      if ("taskId" in params) params.taskId = taskId;
      for (const name of drop) delete params[name];
    },
  };
}

const SCENARIOS: Record<string, ReplayScenario> = {
  "ListWorkflows.json": EXISTING_WORKFLOW,
  "GetWorkflow.json": EXISTING_WORKFLOW,
  "CreateOrReplaceWorkflow.json": NO_SETUP,
  "DeleteWorkflow.json": EXISTING_WORKFLOW,
  "ValidateWorkflow.json": NO_SETUP,
  "SubmitUserRequests.json": {
    steps: ["create the workflow of CreateOrReplaceWorkflow.json (it watches the example's glossary)"],
    prepare: ({ api, contract }) => workflowSetup.workflow(api, SETUP_WORKFLOW, exampleWorkflow(contract)),
  },
  "ListWorkflowRuns.json": requestScenario(undefined, ["runStatues"]),
  "GetWorkflowRun.json": requestScenario(undefined, ["x-ms-client-request-id"]),
  "CancelWorkflowRun.json": requestScenario(undefined),
  "ListWorkflowTasks.json": requestScenario(undefined),
  "GetWorkflowTask.json": requestScenario(undefined),
  "ApproveApproval.json": requestScenario(EMULATOR_USER_ID),
  "RejectApproval.json": requestScenario(EMULATOR_USER_ID),
  "ReassignWorkflowTask.json": requestScenario(undefined),
  "UpdateTaskRequest.json": {
    steps: [
      "create a workflow whose one action is a simple task for the emulator's user",
      "submit a request",
    ],
    prepare: async ({ api, params, contract }) => {
      await workflowSetup.workflow(api, SETUP_WORKFLOW, simpleTaskWorkflow(contract));
      params.taskId = (await workflowSetup.request(api, contract)).taskId;
    },
  },
};

function profileOf(contract: Contract): ReplayProfile {
  return { contract, apiVersion: WORKFLOW_API_VERSION, errorSchema: azureErrorSchema };
}

const UNKNOWN = "00000000-0000-4000-8000-0000000000aa";

const ERROR_CASES: ErrorCase[] = [
  {
    name: "Workflow_Get of an unknown workflow",
    operationId: "Workflow_Get",
    status: 404,
    send: (api) => api.send("GET", `/workflows/${UNKNOWN}`, { query: V }),
  },
  {
    name: "Workflow_Get with an id that is not a GUID",
    operationId: "Workflow_Get",
    status: 400,
    send: (api) => api.send("GET", "/workflows/not-a-guid", { query: V }),
  },
  {
    name: "Workflow_CreateOrReplace without triggers",
    operationId: "Workflow_CreateOrReplace",
    status: 400,
    send: (api) =>
      api.send("PUT", `/workflows/${UNKNOWN}`, {
        query: V,
        body: { name: "w", isEnabled: true, description: "", triggers: [], actionDag: { actions: {} } },
      }),
  },
  {
    name: "UserRequests_Submit of an unknown operation type",
    operationId: "UserRequests_Submit",
    status: 400,
    send: (api) =>
      api.send("POST", "/userrequests", {
        query: V,
        body: { operations: [{ type: "Rename", payload: {} }] },
      }),
  },
  {
    name: "WorkflowRun_Cancel of an unknown run",
    operationId: "WorkflowRun_Cancel",
    status: 404,
    send: (api) => api.send("POST", `/workflowruns/${UNKNOWN}/cancel`, { query: V, body: {} }),
  },
  {
    name: "Approval_Approve of an unknown task",
    operationId: "Approval_Approve",
    status: 404,
    send: (api) => api.send("POST", `/workflowtasks/${UNKNOWN}/approve-approval`, { query: V, body: {} }),
  },
];

// ---- registration ----------------------------------------------------------------------------------------

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `workflow contract examples replayed against the emulator ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  const contract = await loadWorkflowContract();
  const examples = [...contract.examples.values()].sort((a, b) => a.file.localeCompare(b.file));

  Deno.test("workflow contract: every example has a setup entry, and no stale entry", () => {
    assert.equal(contract.prefix, "/workflow");
    assertScenariosCoverExamples(examples, SCENARIOS);
    assert.equal(examples.length, 15);
  });

  for (const example of examples) {
    Deno.test(`workflow contract example ${example.file}`, () =>
      replayExample(profileOf(contract), example, SCENARIOS[example.file]));
  }

  for (const errorCase of ERROR_CASES) {
    Deno.test(`workflow contract error shape: ${errorCase.name} -> ${errorCase.status}`, () =>
      replayErrorCase(profileOf(contract), errorCase));
  }
}

export type { Json };
