/**
 * How the emulated workflow API behaves (contract `purviewWorkflow.json` of Azure.Analytics.Purview.Workflow
 * 2023-10-01-preview, which describes shapes, not behaviour; what follows is the emulator's reading of
 * Purview's documented workflow behaviour):
 *
 * - a user request's operation that an enabled workflow watches (trigger type for the operation type, and
 *   scope: `underGlossaryHierarchy` `/glossaries/{guid}`, `underGlossary`, `underCollection`) starts a run
 *   of that workflow, `InProgress`, and the run opens one task per approval or simple task action at the
 *   top of its action DAG: an approval's approvers are the action's `assignedTo`, each `Pending`;
 * - an operation no workflow watches is applied at once;
 * - approving (as an approver still `Pending`) records the reply; a `PendingOnAny` approval is approved by
 *   the first approver, a `PendingOnAll` one when every approver has approved; once every task of the run
 *   is done, the change is applied (`ChangeApplier`) and the run is `Completed`, or `Failed` when the
 *   catalog refuses the change;
 * - rejecting ends the approval `Rejected` and the run `Failed` (the contract's run statuses have no
 *   "rejected"): the change is dropped;
 * - canceling a run in progress cancels its open tasks; the change is dropped;
 * - the request's status follows its runs.
 *
 * The caller is the `oid` of the request's bearer token, or the emulator's user without one
 * (`caller.ts`).
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import { EmulatorError } from "../errors.ts";
import { ChangeApplier, type RequestedChange } from "./binding.ts";
import { conflict, invalid, notFound } from "./errors.ts";
import { checkedOperations, inScope, targetValue, TRIGGER_OF } from "./requests.ts";
import { isObject } from "./shape.ts";
import { isGuid } from "../../core/guid.ts";
import { humanActions, isDone, newTask, outcome } from "./tasks.ts";
import type { WorkflowStore } from "./store.ts";

type Json = Record<string, unknown>;

/** The workflow state machine over one store. */
export class WorkflowEngine {
  readonly #store: WorkflowStore;
  readonly #now: () => number;
  readonly #applier: ChangeApplier;

  constructor(store: WorkflowStore, deps: AreaDependencies) {
    this.#store = store;
    this.#now = deps.now;
    this.#applier = new ChangeApplier(deps);
  }

  /** Submits a user request: runs for the watched operations, the others applied at once. */
  submit(body: Json, requestor: string): Json {
    const operations = checkedOperations(body);
    const requestId = crypto.randomUUID();
    const answered: Json[] = [];
    for (const operation of operations) {
      const workflow = this.#watching(operation);
      if (!workflow) {
        this.#applier.apply(operation);
        answered.push({ ...operation, workflowRunIds: [] });
        continue;
      }
      const run = this.#startRun(workflow, operation, requestor, requestId);
      answered.push({ ...operation, workflowRunIds: [run.id] });
    }
    const request: Json = { requestId, requestor, operations: answered, status: "Completed" };
    if (typeof body.comment === "string") request.comment = body.comment;
    this.#store.put("request", requestId, request);
    this.#refreshRequest(requestId);
    return this.#store.get<Json>("request", requestId)!;
  }

  /** Approves or rejects an approval task as `caller`. */
  decide(taskId: string, caller: string, reply: "Approved" | "Rejected", comment?: string): void {
    const task = this.#openTask(taskId);
    if (task.type !== "Approval") {
      throw conflict(
        "NotAnApproval",
        `Task ${taskId} is a simple task: set its status with change-task-status.`,
      );
    }
    const detail = task.approvalDetail as Json;
    const approvers = detail.approvers as Record<string, Json>;
    const mine = approvers[caller];
    if (!mine) {
      throw new EmulatorError(
        403,
        "NotAnApprover",
        `${caller} is not an approver of task ${taskId}; its approvers are ${
          Object.keys(approvers).join(", ")
        }.`,
      );
    }
    if (mine.reply !== "Pending") {
      throw conflict("AlreadyReplied", `${caller} has already replied ${mine.reply} to task ${taskId}.`);
    }
    const at = this.#time();
    approvers[caller] = { reply, ...(comment ? { comment } : {}), responseTime: at };
    const replies = Object.values(approvers).map((approver) => approver.reply);
    if (reply === "Rejected") detail.status = "Rejected";
    else if (detail.approvalType !== "PendingOnAll" || replies.every((r) => r === "Approved")) {
      detail.status = "Approved";
    }
    task.lastUpdateTime = at;
    this.#store.put("task", task.id as string, task);
    if (detail.status !== "Pending") this.#advance(task.workflowRunId as string);
  }

  /** Moves a task from assignees to others. */
  reassign(taskId: string, body: Json): void {
    const task = this.#openTask(taskId);
    const moves = body.reassignments;
    if (!Array.isArray(moves) || moves.length === 0) {
      throw invalid(
        "InvalidReassignment",
        'Send {"reassignments": [{"reassignFrom": "<guid>", "reassignTo": "<guid>"}]}.',
        "reassignments",
      );
    }
    for (const move of moves) {
      if (!isObject(move) || !isGuid(move.reassignFrom) || !isGuid(move.reassignTo)) {
        throw invalid(
          "InvalidReassignment",
          "reassignFrom and reassignTo must both be principal object ids (GUIDs).",
          "reassignments",
        );
      }
      const from = move.reassignFrom.toLowerCase();
      const to = move.reassignTo.toLowerCase();
      if (task.type === "Approval") {
        const approvers = (task.approvalDetail as Json).approvers as Record<string, Json>;
        if (approvers[from]?.reply !== "Pending") {
          throw invalid(
            "NotAnAssignee",
            `${from} is not an approver of task ${taskId} still to reply.`,
            "reassignFrom",
          );
        }
        if (approvers[to]) {
          throw invalid("AlreadyAnAssignee", `${to} is already an approver of task ${taskId}.`, "reassignTo");
        }
        delete approvers[from];
        approvers[to] = { reply: "Pending" };
      } else {
        const detail = task.taskDetail as Json;
        const assigned = detail.assignedTo as string[];
        if (!assigned.includes(from)) {
          throw invalid("NotAnAssignee", `${from} is not assigned task ${taskId}.`, "reassignFrom");
        }
        detail.assignedTo = [...new Set(assigned.map((id) => id === from ? to : id))];
      }
    }
    task.lastUpdateTime = this.#time();
    this.#store.put("task", taskId, task);
  }

  /** Sets a simple task's status as one of its assignees. */
  changeStatus(taskId: string, caller: string, body: Json): void {
    const statuses = ["NotStarted", "InProgress", "Completed", "Canceled"];
    if (!statuses.includes(String(body.newStatus))) {
      throw invalid(
        "InvalidTaskStatus",
        `newStatus must be one of ${statuses.join(", ")}, not ${JSON.stringify(body.newStatus ?? null)}.`,
        "newStatus",
      );
    }
    const task = this.#openTask(taskId);
    if (task.type !== "SimpleTask") {
      throw conflict(
        "NotASimpleTask",
        `Task ${taskId} is an approval: approve or reject it (approve-approval, reject-approval).`,
      );
    }
    const detail = task.taskDetail as Json;
    if (!(detail.assignedTo as string[]).includes(caller)) {
      throw new EmulatorError(403, "NotAnAssignee", `${caller} is not assigned task ${taskId}.`);
    }
    const at = this.#time();
    (detail.changeHistory as Json[]).push({
      from: detail.status,
      to: body.newStatus,
      by: caller,
      at,
      ...(typeof body.comment === "string" ? { comment: body.comment } : {}),
    });
    detail.status = body.newStatus;
    task.lastUpdateTime = at;
    this.#store.put("task", taskId, task);
    if (body.newStatus === "Completed" || body.newStatus === "Canceled") {
      this.#advance(task.workflowRunId as string);
    }
  }

  /** Cancels a run in progress and its open tasks. */
  cancel(runId: string, comment?: string): void {
    const run = this.#store.get<Json>("run", runId);
    if (!run) throw notFound("WorkflowRunNotFound", `There is no workflow run ${runId}.`);
    if (run.status !== "InProgress" && run.status !== "NotStarted") {
      throw conflict(
        "WorkflowRunNotInProgress",
        `Workflow run ${runId} is ${run.status}; only a run in progress can be canceled.`,
      );
    }
    const at = this.#time();
    for (const task of this.#tasksOf(runId)) {
      const detail = (task.approvalDetail ?? task.taskDetail) as Json;
      if (!isDone(task)) {
        detail.status = "Canceled";
        task.lastUpdateTime = at;
        this.#store.put("task", task.id as string, task);
      }
    }
    Object.assign(
      run,
      { status: "Canceled", cancelTime: at, endTime: at },
      comment ? { cancelComment: comment } : {},
    );
    this.#store.put("run", runId, run);
    this.#refreshRequest(run.userRequestId as string);
  }

  /** The enabled workflow watching an operation, if any (the oldest, when several do). */
  #watching(operation: RequestedChange): Json | undefined {
    const trigger = TRIGGER_OF[operation.type];
    return this.#store.list<Json>("workflow").find((workflow) =>
      workflow.isEnabled === true &&
      (workflow.triggers as Json[]).some((t) => t.type === trigger && inScope(t, operation))
    );
  }

  #startRun(workflow: Json, operation: RequestedChange, requestor: string, requestId: string): Json {
    const at = this.#time();
    const runId = crypto.randomUUID();
    const runPayload = {
      type: operation.type,
      targetValue: targetValue(operation),
      payload: operation.payload,
    };
    const actions: Json = {};
    const run: Json = {
      id: runId,
      workflowId: workflow.id,
      startTime: at,
      requestor,
      userRequestId: requestId,
      runPayload,
      status: "InProgress",
      actionDag: workflow.actionDag,
      detail: {
        runInput: { request: { requestor, operation: operation.type, payload: operation.payload } },
        actions,
      },
    };
    for (const [name, action] of humanActions(workflow.actionDag as Json)) {
      const task = newTask(name, action, run, at);
      actions[name] = { startTime: at, status: "Running", taskId: task.id, input: action.inputs ?? {} };
      this.#store.put("task", task.id as string, task);
    }
    this.#store.put("run", runId, run);
    if (Object.keys(actions).length === 0) this.#advance(runId);
    return run;
  }

  /** Ends a run whose tasks are all done: applies its change, or drops it. */
  #advance(runId: string): void {
    const run = this.#store.get<Json>("run", runId)!;
    const tasks = this.#tasksOf(runId);
    if (!tasks.every(isDone)) return;
    const at = this.#time();
    const actions = (run.detail as Json).actions as Json;
    for (const task of tasks) {
      const name = Object.keys(actions).find((key) => (actions[key] as Json).taskId === task.id);
      if (name) {
        Object.assign(actions[name] as Json, {
          status: "Succeeded",
          endTime: at,
          output: { outcome: outcome(task) },
        });
      }
    }
    const refused = tasks.find((task) => ["Rejected", "Canceled"].includes(outcome(task)));
    if (refused) {
      run.status = outcome(refused) === "Canceled" ? "Canceled" : "Failed";
      actions.change = {
        status: "Skipped",
        reason: `the ${refused.type === "Approval" ? "approval" : "task"} ended ${outcome(refused)}`,
      };
    } else {
      try {
        actions.change = {
          status: "Succeeded",
          endTime: at,
          output: this.#applier.apply(run.runPayload as RequestedChange),
        };
        run.status = "Completed";
      } catch (error) {
        if (!(error instanceof EmulatorError)) throw error;
        actions.change = {
          status: "Failed",
          endTime: at,
          error: { code: error.code, message: error.message },
        };
        run.status = "Failed";
      }
    }
    run.endTime = at;
    this.#store.put("run", runId, run);
    this.#refreshRequest(run.userRequestId as string);
  }

  #refreshRequest(requestId: string): void {
    const request = this.#store.get<Json>("request", requestId);
    if (!request) return;
    const runs = (request.operations as Json[]).flatMap((op) => op.workflowRunIds as string[])
      .map((id) => this.#store.get<Json>("run", id)?.status as string);
    request.status = runs.includes("InProgress")
      ? "InProgress"
      : runs.includes("Failed")
      ? "Failed"
      : runs.includes("Canceled")
      ? "Canceled"
      : "Completed";
    this.#store.put("request", requestId, request);
  }

  #openTask(taskId: string): Json {
    const task = this.#store.get<Json>("task", taskId);
    if (!task) throw notFound("WorkflowTaskNotFound", `There is no workflow task ${taskId}.`);
    if (isDone(task)) {
      throw conflict("WorkflowTaskClosed", `Workflow task ${taskId} is already ${outcome(task)}.`);
    }
    return task;
  }

  #tasksOf(runId: string): Json[] {
    return this.#store.list<Json>("task").filter((task) => task.workflowRunId === runId);
  }

  #time(): string {
    return new Date(this.#now()).toISOString();
  }
}
