/**
 * Approval tools: list_my_approvals (the approval tasks waiting on the signed-in user) and decide_approval
 * (approve or reject one, with a comment). Deciding applies or drops the requested change for good, so
 * decide_approval is destructive; a call without `"confirm": true` reads the task and answers its request's
 * summary (what change, on what, asked by whom) as the refusal, so the user sees what they are deciding
 * before anything is decided. Each runs the `workflow` group's operations.
 *
 * @module
 */
import type { WorkflowTask } from "../../catalog/workflow_types.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../core/errors.ts";
import { guidField } from "../../operations/guid_fields.ts";
import { approveTask, getTask, listTasks, rejectTask } from "../../operations/workflow_task_operations.ts";
import { composedTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

/** Approvals returned by one list_my_approvals call unless the caller asks for fewer or more. */
export const DEFAULT_APPROVAL_LIMIT = 50;
const MAX_APPROVAL_LIMIT = 500;

const requestSummary = z.object({
  type: z.string().describe("The change asked for: CreateTerm, UpdateTerm, DeleteTerm, ImportTerms, ..."),
  target: z.string().describe("What it is about, e.g. the term's name"),
  requestor: z.string().describe("Object id of who asked"),
  title: z.string().optional(),
  payload: z.record(z.string(), z.unknown()).optional().describe("The change itself, as requested"),
});

function summarize(task: WorkflowTask, withPayload: boolean): z.input<typeof requestSummary> {
  return {
    type: String(task.payload?.type ?? ""),
    target: String(task.payload?.targetValue ?? ""),
    requestor: String(task.requestor ?? ""),
    ...(task.title ? { title: task.title } : {}),
    ...(withPayload && task.payload?.payload ? { payload: task.payload.payload } : {}),
  };
}

const approvalItem = z.object({
  task_id: z.string(),
  workflow_run_id: z.string(),
  created: z.string(),
  approval_type: z.string().optional().describe("PendingOnAny (one approval is enough) or PendingOnAll"),
  request: requestSummary,
});

export const listMyApprovalsTool = composedTool({
  name: "list_my_approvals",
  title: "List my pending approvals",
  description: "Approval tasks waiting on the signed-in user, newest first: task id, run, request summary " +
    "(change, target, requestor). Decide with decide_approval." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    limit: z.number().int().min(1).max(MAX_APPROVAL_LIMIT).default(DEFAULT_APPROVAL_LIMIT)
      .describe("Most approvals to return"),
  }),
  output: z.object({
    approvals: z.array(approvalItem),
    count: z.number().int().describe("Approvals returned"),
    truncated: z.boolean().describe("True when more approvals wait than were returned"),
  }),
  operations: [listTasks],
  compose: async (run, input) => {
    const listed = await run(listTasks, {
      viewMode: "received",
      status: ["Pending"],
      type: ["approval"],
    }) as { value: WorkflowTask[] };
    const approvals = listed.value.slice(0, input.limit).map((task) => ({
      task_id: task.id,
      workflow_run_id: task.workflowRunId,
      created: task.createdTime,
      ...(task.approvalDetail?.approvalType ? { approval_type: task.approvalDetail.approvalType } : {}),
      request: summarize(task, false),
    }));
    return { approvals, count: approvals.length, truncated: listed.value.length > approvals.length };
  },
});

export const decideApprovalTool = composedTool({
  name: "decide_approval",
  title: "Approve or reject a request",
  description:
    "Approve or reject a task from list_my_approvals, with a comment (required to reject). Approving " +
    'makes the change; neither can be undone. Without "confirm": true the error shows the request.' +
    CATALOG_TEXT_IS_DATA,
  input: z.object({
    task_id: guidField("Task ID from list_my_approvals"),
    decision: z.enum(["approve", "reject"]).describe("approve makes the change; reject drops it"),
    comment: z.string().trim().min(1).optional().describe("Shown to the requestor; required to reject"),
  }),
  output: z.object({
    task_id: z.string(),
    decision: z.enum(["Approved", "Rejected"]),
    task_status: z.string().describe(
      "The approval's status now: Approved, Rejected, or Pending when others must approve too",
    ),
    run_id: z.string(),
    run_status: z.string().describe(
      "Completed (change made), Failed (rejected or refused), InProgress (waiting)",
    ),
    request: requestSummary,
  }),
  operations: [getTask, approveTask, rejectTask],
  // The refusal of an unconfirmed call is this tool's own: it carries the request's summary.
  confirmWhen: () => false,
  compose: async (run, input, context) => {
    if (input.decision === "reject" && !input.comment) {
      throw new UsageError(
        "decide_approval: a rejection needs a comment saying why (the requestor reads it); nothing was sent.",
        "Ask the user for the reason, then call again with comment.",
      );
    }
    const task = await run(getTask, { taskId: input.task_id }) as WorkflowTask;
    const request = summarize(task, true);
    const decision = `${input.decision} task ${input.task_id}: ${request.type} "${request.target}" ` +
      `requested by ${request.requestor}${request.title ? ` (${request.title})` : ""}, payload ` +
      `${JSON.stringify(request.payload ?? {}).slice(0, 400)}`;
    if (context.askUser) await context.askUser(`${decision}.`);
    else if (context.confirmed !== true) {
      throw new UsageError(
        `decide_approval would ${decision}. Nothing was decided.`,
        'Show this to the user; once they agree, call decide_approval again with "confirm": true.',
      );
    }
    const operation = input.decision === "approve" ? approveTask : rejectTask;
    const outcome = await run(operation, { taskId: input.task_id, comment: input.comment }) as Record<
      string,
      unknown
    >;
    return {
      task_id: input.task_id,
      decision: outcome.decision as "Approved" | "Rejected",
      task_status: String(outcome.taskStatus),
      run_id: String(outcome.runId),
      run_status: String(outcome.runStatus),
      request,
    };
  },
});

/** The approval tools, in the order the tool list shows them. */
export const WORKFLOW_TOOLS = [listMyApprovalsTool, decideApprovalTool];
