/**
 * Operations of the `workflow` group on workflows and user requests (workflow API 2023-10-01-preview;
 * contract `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/purviewWorkflow.json`):
 * list, show, create (or replace) and validate a workflow from a JSON file, delete one, and submit a user
 * request. The runs and tasks they lead to are in `workflow_task_operations.ts`.
 *
 * @module
 */
import type { UserRequestPayload } from "../catalog/workflow_types.ts";
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { collect } from "./scan_inputs.ts";
import { CREATE, defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";
import {
  hinted,
  NOT_FOUND_HINT,
  payloadFile,
  readWorkflowDefinition,
  refusePlaceholders,
  workflowId,
} from "./workflow_inputs.ts";
import { WORKFLOW_TASK_OPERATIONS } from "./workflow_task_operations.ts";

export const listWorkflows = defineOperation({
  id: "workflow.list",
  group: "workflow",
  command: "list",
  aliases: ["list-workflows", "listWorkflows"],
  summary:
    "List the workflows. Each with its id, name, whether enabled and the requests (triggers) it watches",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => collect(ctx.catalog().workflow.listWorkflows(ctx.signal)),
});

export const getWorkflow = defineOperation({
  id: "workflow.show",
  group: "workflow",
  command: "show",
  aliases: ["get", "get-workflow", "getWorkflow"],
  summary: "Show one workflow. Its triggers and action DAG (approvals, conditions, the change, notices)",
  input: z.object({ workflowId }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(NOT_FOUND_HINT.workflow, () => ctx.catalog().workflow.getWorkflow(input.workflowId, ctx.signal)),
});

export const createWorkflow = defineOperation({
  id: "workflow.create",
  group: "workflow",
  command: "create",
  aliases: ["create-or-replace", "createOrReplace", "createOrReplaceWorkflow"],
  summary: "Create or replace a workflow. From a JSON file; --workflow-id names the one to replace",
  description: "The file holds a workflow: name, description, isEnabled, triggers (e.g. " +
    '[{"type": "when_term_creation_is_requested", "underGlossaryHierarchy": "/glossaries/<guid>"}]) and ' +
    'actionDag ({"actions": {...}}: an Approval action with inputs.parameters.assignedTo, the approvers\' ' +
    "object ids). Without --workflow-id a new workflow gets a new GUID; with it, that workflow is created " +
    "or replaced whole. `workflow validate` checks a file without storing it; " +
    "`govcat templates show workflow` prints a starting point.",
  input: z.object({
    payloadFile: payloadFile.describe("JSON file with the workflow definition"),
    workflowId: workflowId.optional().describe(
      "GUID of the workflow to create or replace; a new one when left out",
    ),
  }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    const definition = await readWorkflowDefinition(ctx, input.payloadFile);
    return ctx.catalog().workflow.putWorkflow(
      input.workflowId ?? crypto.randomUUID(),
      definition,
      ctx.signal,
    );
  },
});

export const validateWorkflow = defineOperation({
  id: "workflow.validate",
  group: "workflow",
  command: "validate",
  aliases: ["validate-workflow", "validateWorkflow"],
  summary: "Check a workflow file. The service lists its errors and warnings; nothing is stored",
  input: z.object({
    payloadFile: payloadFile.describe("JSON file with the workflow definition"),
    workflowId: workflowId.optional().describe("GUID of the workflow it would replace; any when left out"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const definition = await readWorkflowDefinition(ctx, input.payloadFile);
    const violations = await ctx.catalog().workflow.validateWorkflow(
      input.workflowId ?? crypto.randomUUID(),
      definition,
      ctx.signal,
    );
    return {
      valid: !violations.some((violation) => violation.severity === "error"),
      count: violations.length,
      value: violations,
    };
  },
});

export const deleteWorkflow = defineOperation({
  id: "workflow.delete",
  group: "workflow",
  command: "delete",
  aliases: ["delete-workflow", "deleteWorkflow"],
  summary: "Delete a workflow. Requests it watched are applied without approval from then on",
  input: z.object({ workflowId }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await hinted(
      NOT_FOUND_HINT.workflow,
      () => ctx.catalog().workflow.deleteWorkflow(input.workflowId, ctx.signal),
    );
    return { deleted: input.workflowId };
  },
});

const REQUEST_SHAPE =
  '{"operations": [{"type": "CreateTerm", "payload": {"glossaryTerm": {...}}}], "comment": "..."}';

export const submitUserRequest = defineOperation({
  id: "workflow.submit",
  group: "workflow",
  command: "submit",
  aliases: ["submit-request", "submitUserRequests", "user-request"],
  summary: "Submit a user request. From a JSON file; a change a workflow watches starts a run for approval",
  description: `The file holds ${REQUEST_SHAPE}. Operation types: CreateTerm, UpdateTerm, DeleteTerm, ` +
    "ImportTerms, UpdateAsset, GrantDataAccess. Each operation of the answer lists the runs it started " +
    "(workflowRunIds); none means no workflow watches it and the service applied it at once. " +
    "`govcat templates show user-request` prints a starting point.",
  input: z.object({ payloadFile: payloadFile.describe("JSON file with the user request") }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const payload = await readJsonFile(ctx, input.payloadFile, "--payload-file");
    if (!isPlainObject(payload)) throw payloadError(input.payloadFile, REQUEST_SHAPE, describeJson(payload));
    if (!Array.isArray(payload.operations) || payload.operations.length === 0) {
      throw payloadError(input.payloadFile, REQUEST_SHAPE, "no operations");
    }
    payload.operations.forEach((operation, i) => {
      if (
        !isPlainObject(operation) || typeof operation.type !== "string" || !isPlainObject(operation.payload)
      ) {
        throw new UsageError(
          `${input.payloadFile}: operations[${i}] must be {"type": "<operation type>", "payload": {...}}.`,
        );
      }
    });
    refusePlaceholders(input.payloadFile, payload);
    return ctx.catalog().workflow.submitUserRequest(payload as unknown as UserRequestPayload, ctx.signal);
  },
});

/** Every operation of the `workflow` group, in the order `--help` lists them. */
export const WORKFLOW_OPERATIONS: Operation[] = [
  listWorkflows,
  getWorkflow,
  createWorkflow,
  validateWorkflow,
  deleteWorkflow,
  submitUserRequest,
  ...WORKFLOW_TASK_OPERATIONS,
];
