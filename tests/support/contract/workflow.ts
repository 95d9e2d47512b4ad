/**
 * The published workflow contract (Azure.Analytics.Purview.Workflow, 2023-10-01-preview) for the contract
 * tests: where it lives, its api-version, and the set-up its example replays need on an emulator (a
 * workflow, a user request that starts a run with a task). Its `basePath` is `/workflow` on the account
 * endpoint; its error shape is `ErrorResponse` (`{"error": {code, message, ...}}`).
 *
 * @module
 */
import { EMULATOR_USER_ID } from "../../../lib/emulator/workflow/caller.ts";
import type { EmulatorApi, Json } from "./emulator_api.ts";
import { type Contract, loadContract, REFERENCE_DIR } from "./reference.ts";

/** The workflow contract document. */
export const WORKFLOW_CONTRACT_FILE: URL = new URL(
  "rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/" +
    "purviewWorkflow.json",
  REFERENCE_DIR,
);

/** The api-version of the workflow contract. */
export const WORKFLOW_API_VERSION = "2023-10-01-preview";

const V = { "api-version": WORKFLOW_API_VERSION };

/** Loads (once per process) the workflow contract and its examples; its prefix is `/workflow`. */
export function loadWorkflowContract(): Promise<Contract> {
  return loadContract(WORKFLOW_CONTRACT_FILE);
}

/** The workflow of the contract's CreateOrReplaceWorkflow example, its approver replaced when asked. */
export function exampleWorkflow(contract: Contract, approver?: string): Json {
  const create = contract.examples.get("CreateOrReplaceWorkflow.json")!;
  const body = structuredClone(create.parameters.workflowCreateOrUpdateCommand) as Json;
  if (approver) {
    const approval = ((body.actionDag as Json).actions as Json)["Start and wait for an approval"] as Json;
    ((approval.inputs as Json).parameters as Json).assignedTo = [approver];
  }
  return body;
}

/** A workflow whose one action is a simple task assigned to the emulator's user. */
export function simpleTaskWorkflow(contract: Contract): Json {
  const body = exampleWorkflow(contract);
  body.actionDag = {
    actions: {
      "Review the term": {
        type: "SimpleTask",
        inputs: {
          parameters: { title: "Review the term", taskBody: "Check it", assignedTo: [EMULATOR_USER_ID] },
        },
        runAfter: {},
      },
    },
  };
  return body;
}

/** Set-up steps on an emulator's workflow API. */
export const workflowSetup = {
  /** Creates or replaces the workflow `id`. */
  async workflow(api: EmulatorApi, id: string, body: Json): Promise<void> {
    await api.ok(`create workflow ${id}`, "PUT", `/workflows/${id}`, { query: V, body });
  },
  /**
   * Submits the contract's SubmitUserRequests example (a term creation under the example's glossary) and
   * answers the run it started and that run's first task.
   */
  async request(api: EmulatorApi, contract: Contract): Promise<{ runId: string; taskId: string }> {
    const submit = contract.examples.get("SubmitUserRequests.json")!;
    const reply = await api.ok("submit a user request", "POST", "/userrequests", {
      query: V,
      body: submit.parameters.userRequestsPayload,
    });
    const runId = (((reply.json as Json).operations as Json[])[0].workflowRunIds as string[])[0];
    const tasks = await api.ok("list tasks", "GET", "/workflowtasks", { query: V });
    const task = ((tasks.json as Json).value as Json[]).find((t) => t.workflowRunId === runId)!;
    return { runId, taskId: String(task.id) };
  },
};

export { EMULATOR_USER_ID };
