/**
 * The tasks of the emulated workflow runs: the human actions at the top of a workflow's action DAG
 * (approvals and simple tasks), the task each opens (an approval's approvers each `Pending`, a simple task
 * `NotStarted`), and a task's status.
 *
 * @module
 */
import { isObject } from "./shape.ts";

type Json = Record<string, unknown>;

/** The approval and simple task actions at the top of an action DAG, by name. */
export function humanActions(dag: Json): Array<[string, Json]> {
  const actions = isObject(dag?.actions) ? dag.actions : {};
  return Object.entries(actions).filter((entry): entry is [string, Json] =>
    isObject(entry[1]) && (entry[1].type === "Approval" || entry[1].type === "SimpleTask")
  );
}

/** The task a human action opens for a run. */
export function newTask(name: string, action: Json, run: Json, at: string): Json {
  const parameters = isObject(action.inputs) && isObject(action.inputs.parameters)
    ? action.inputs.parameters
    : {};
  const assignees = (parameters.assignedTo as string[]).map((id) => id.toLowerCase());
  const task: Json = {
    type: action.type,
    id: crypto.randomUUID(),
    title: typeof parameters.title === "string" ? parameters.title : name,
    workflowRunId: run.id,
    workflowId: run.workflowId,
    requestor: run.requestor,
    createdTime: at,
    lastUpdateTime: at,
    payload: run.runPayload,
  };
  if (action.type === "Approval") {
    task.approvalDetail = {
      approvalType: parameters.approvalType === "PendingOnAll" ? "PendingOnAll" : "PendingOnAny",
      status: "Pending",
      approvers: Object.fromEntries(assignees.map((id) => [id, { reply: "Pending" }])),
    };
  } else {
    task.taskDetail = {
      taskBody: typeof parameters.taskBody === "string" ? parameters.taskBody : String(task.title),
      assignedTo: assignees,
      status: "NotStarted",
      changeHistory: [],
    };
  }
  return task;
}

/** The task's status: the approval's or the simple task's. */
export function outcome(task: Json): string {
  return String(((task.approvalDetail ?? task.taskDetail) as Json).status);
}

/** Whether a task is closed: approved, rejected, completed or canceled. */
export function isDone(task: Json): boolean {
  return ["Approved", "Rejected", "Canceled", "Completed"].includes(outcome(task));
}
