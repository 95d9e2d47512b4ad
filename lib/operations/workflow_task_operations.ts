/**
 * Operations of the `workflow` group on workflow runs and tasks (workflow API 2023-10-01-preview): list and
 * show runs, cancel one; list and show tasks, approve or reject an approval, reassign a task, set a simple
 * task's status. Approving, rejecting and canceling decide what happens to a requested change (applied or
 * dropped) and cannot be undone, so they need `--confirm` like every destructive operation; a rejection
 * also needs a `--comment`, the reason the requestor reads.
 *
 * @module
 */
import type { WorkflowTask } from "../catalog/workflow_types.ts";
import {
  SIMPLE_TASK_STATUSES,
  WORKFLOW_RUN_STATUSES,
  WORKFLOW_TASK_STATUSES,
} from "../catalog/workflow_types.ts";
import { z } from "../deps/zod.ts";
import type { CatalogClient } from "../catalog/client.ts";
import { guidField, guidListField } from "./guid_fields.ts";
import { collect } from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, type OperationAnnotations, READ } from "./types.ts";
import { comment, hinted, NOT_FOUND_HINT, runId, taskId } from "./workflow_inputs.ts";

/** A decision applies or drops a requested change for good: destructive, and not repeatable. */
const DECIDE: OperationAnnotations = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
};
/** Moving a task to someone else changes who may decide; the old assignee can no longer do so. */
const REASSIGN: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
};
/** Setting a status is repeatable; completing a task lets its run go on. */
const SET_STATUS: OperationAnnotations = {
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: true,
};

const timeWindow = z.enum(["1d", "7d", "30d", "90d"]).optional().describe(
  "Only the last day, 7, 30 or 90 days",
);

export const listRuns = defineOperation({
  id: "workflow.runs",
  group: "workflow",
  command: "runs",
  aliases: ["list-runs", "listWorkflowRuns", "workflow-runs"],
  summary: "List workflow runs. Newest first, each with its request (type, target) and status",
  input: z.object({
    status: z.array(z.enum(WORKFLOW_RUN_STATUSES as [string, ...string[]])).optional()
      .describe("Only runs in these statuses"),
    workflowId: guidListField("Only runs of these workflows").optional(),
    requestor: guidListField("Only runs requested by these principal object ids").optional(),
    viewMode: z.enum(["mine", "admin"]).optional().describe("mine: your requests' runs; admin: every run"),
    timeWindow,
  }),
  annotations: READ,
  run: async (ctx, input) =>
    withSummaryColumns(
      await collect(
        ctx.catalog().workflow.listRuns({
          runStatuses: input.status,
          workflowIds: input.workflowId,
          requestors: input.requestor,
          viewMode: input.viewMode,
          timeWindow: input.timeWindow,
        }, ctx.signal),
      ),
      (run) => ({ requestType: run.runPayload?.type, target: run.runPayload?.targetValue }),
    ),
});

export const getRun = defineOperation({
  id: "workflow.run",
  group: "workflow",
  command: "run",
  aliases: ["get-run", "getWorkflowRun", "show-run"],
  summary: "Show one workflow run. Its request, status, action DAG and the state of each action",
  input: z.object({ runId }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(NOT_FOUND_HINT.run, () => ctx.catalog().workflow.getRun(input.runId, ctx.signal)),
});

export const cancelRun = defineOperation({
  id: "workflow.cancel-run",
  group: "workflow",
  command: "cancel-run",
  aliases: ["cancelWorkflowRun", "cancel"],
  summary: "Cancel a run in progress. Its open tasks are canceled and its change is not made",
  input: z.object({ runId, comment }),
  annotations: DELETE,
  run: async (ctx, input) => {
    const workflow = ctx.catalog().workflow;
    await hinted(NOT_FOUND_HINT.run, () => workflow.cancelRun(input.runId, input.comment, ctx.signal));
    const run = await workflow.getRun(input.runId, ctx.signal);
    return { runId: input.runId, status: run.status, cancelComment: run.cancelComment };
  },
});

export const listTasks = defineOperation({
  id: "workflow.tasks",
  group: "workflow",
  command: "tasks",
  aliases: ["list-tasks", "listWorkflowTasks", "approvals"],
  summary: "List workflow tasks. Approvals and simple tasks, with their requests and statuses",
  description: "--view-mode received lists the tasks waiting on you (your approvals), sent those of your " +
    "requests, history the closed ones, mine both of the first two. --status Pending keeps the open " +
    "approvals.",
  input: z.object({
    viewMode: z.enum(["received", "sent", "history", "mine"]).optional()
      .describe("received: assigned to you; sent: your requests; history: closed; mine: either"),
    status: z.array(z.enum(WORKFLOW_TASK_STATUSES)).optional()
      .describe("Only tasks in these statuses (an approval is Pending, Approved or Rejected)"),
    type: z.array(z.enum(["approval", "simpleTask"])).optional().describe("Only approvals or simple tasks"),
    workflowId: guidListField("Only tasks of these workflows").optional(),
    requestor: guidListField("Only tasks requested by these principal object ids").optional(),
    assignee: guidListField("Only tasks assigned to these principal object ids").optional(),
    workflowName: z.string().trim().min(1).optional().describe(
      "Only tasks of workflows whose name holds this",
    ),
    timeWindow,
  }),
  annotations: READ,
  run: async (ctx, input) =>
    withSummaryColumns(
      await collect(
        ctx.catalog().workflow.listTasks({
          viewMode: input.viewMode,
          taskStatuses: input.status,
          taskTypes: input.type,
          workflowIds: input.workflowId,
          requestors: input.requestor,
          assignees: input.assignee,
          workflowNameKeyword: input.workflowName,
          timeWindow: input.timeWindow,
        }, ctx.signal),
      ),
      (task) => ({
        status: task.approvalDetail?.status ?? task.taskDetail?.status,
        requestType: task.payload?.type,
        target: task.payload?.targetValue,
      }),
    ),
});

/**
 * Each item with a few fields of its nested objects repeated at the top (a task's status, the request's
 * type and target), so `--output=table`, which shows plain fields only, has the columns people look for.
 */
function withSummaryColumns<T extends object>(
  list: { count: number; value: T[] },
  summary: (item: T) => Record<string, unknown>,
): { count: number; value: T[] } {
  return { count: list.count, value: list.value.map((item) => ({ ...item, ...summary(item) })) };
}

export const getTask = defineOperation({
  id: "workflow.task",
  group: "workflow",
  command: "task",
  aliases: ["get-task", "getWorkflowTask", "show-task"],
  summary: "Show one workflow task. Its request, who must act, and each approver's reply",
  input: z.object({ taskId }),
  annotations: READ,
  run: (ctx, input) =>
    hinted(NOT_FOUND_HINT.task, () => ctx.catalog().workflow.getTask(input.taskId, ctx.signal)),
});

/** What a decision did: the task's and the run's status after it, and the request it was about. */
export async function decisionOutcome(
  client: CatalogClient,
  taskId: string,
  decision: "Approved" | "Rejected",
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  const task = await client.workflow.getTask(taskId, signal);
  const run = await client.workflow.getRun(task.workflowRunId, signal);
  return {
    taskId,
    decision,
    taskStatus: task.approvalDetail?.status ?? task.taskDetail?.status,
    request: requestSummary(task),
    runId: task.workflowRunId,
    runStatus: run.status,
  };
}

/** A task's request in a few fields: what kind of change, on what, by whom. */
export function requestSummary(task: WorkflowTask): Record<string, unknown> {
  return {
    type: task.payload?.type,
    target: task.payload?.targetValue,
    requestor: task.requestor,
    title: task.title,
  };
}

export const approveTask = defineOperation({
  id: "workflow.approve",
  group: "workflow",
  command: "approve",
  aliases: ["approve-approval", "approveApprovalTask"],
  summary: "Approve an approval task. Once approved, the requested change is made",
  input: z.object({ taskId, comment }),
  annotations: DECIDE,
  run: async (ctx, input) => {
    const client = ctx.catalog();
    await hinted(NOT_FOUND_HINT.task, () => client.workflow.approve(input.taskId, input.comment, ctx.signal));
    return decisionOutcome(client, input.taskId, "Approved", ctx.signal);
  },
});

export const rejectTask = defineOperation({
  id: "workflow.reject",
  group: "workflow",
  command: "reject",
  aliases: ["reject-approval", "rejectApprovalTask"],
  summary: "Reject an approval task. With a comment saying why; the requested change is dropped",
  input: z.object({
    taskId,
    comment: z.string().trim().min(1, { error: "is required: say why, the requestor reads it" })
      .describe("Why the request is rejected (required: the requestor reads it)"),
  }),
  annotations: DECIDE,
  run: async (ctx, input) => {
    const client = ctx.catalog();
    await hinted(NOT_FOUND_HINT.task, () => client.workflow.reject(input.taskId, input.comment, ctx.signal));
    return decisionOutcome(client, input.taskId, "Rejected", ctx.signal);
  },
});

export const reassignTask = defineOperation({
  id: "workflow.reassign",
  group: "workflow",
  command: "reassign",
  aliases: ["reassign-task", "reassignWorkflowTask"],
  summary: "Hand a task to someone else. From one assignee (principal object id) to another",
  input: z.object({
    taskId,
    from: guidField("Object id of the assignee who hands the task over"),
    to: guidField("Object id of the principal who takes it"),
  }),
  annotations: REASSIGN,
  run: async (ctx, input) => {
    const workflow = ctx.catalog().workflow;
    await hinted(
      NOT_FOUND_HINT.task,
      () => workflow.reassign(input.taskId, [{ reassignFrom: input.from, reassignTo: input.to }], ctx.signal),
    );
    return { taskId: input.taskId, reassignedFrom: input.from, reassignedTo: input.to };
  },
});

export const setTaskStatus = defineOperation({
  id: "workflow.set-task-status",
  group: "workflow",
  command: "set-task-status",
  aliases: ["change-task-status", "updateTaskStatus"],
  summary: "Set a simple task's status. NotStarted, InProgress, Completed or Canceled; approvals are decided",
  input: z.object({
    taskId,
    status: z.enum(SIMPLE_TASK_STATUSES).describe("The task's new status"),
    comment,
  }),
  annotations: SET_STATUS,
  run: async (ctx, input) => {
    const workflow = ctx.catalog().workflow;
    await hinted(
      NOT_FOUND_HINT.task,
      () => workflow.changeTaskStatus(input.taskId, input.status, input.comment, ctx.signal),
    );
    return { taskId: input.taskId, status: input.status };
  },
});

/** The run and task operations, in the order `--help` lists them. */
export const WORKFLOW_TASK_OPERATIONS: Operation[] = [
  listRuns,
  getRun,
  cancelRun,
  listTasks,
  getTask,
  approveTask,
  rejectTask,
  reassignTask,
  setTaskStatus,
];
