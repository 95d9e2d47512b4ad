/**
 * Workflow API calls (2023-10-01-preview; contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/purviewWorkflow.json`,
 * paths under `/workflow`): workflows (list, get, create or replace, delete, validate), user requests
 * (submit), workflow runs (list, get, cancel) and workflow tasks (list, get, approve, reject, reassign,
 * change a simple task's status).
 *
 * Lists follow `nextLink` only when it points at the configured catalog endpoint, so a `nextLink` naming
 * another host never receives the bearer token.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { loadConfig } from "../config/config.ts";
 * const client = CatalogClient.fromConfig(
 *   loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:8085" }),
 * );
 * async function approveAll(): Promise<void> {
 *   for await (const task of client.workflow.listTasks({ viewMode: "received", taskStatuses: ["Pending"] })) {
 *     await client.workflow.approve(task.id, "Looks right");
 *   }
 * }
 * ```
 *
 * @module
 */
import { CatalogError } from "../core/errors.ts";
import type { HttpClient } from "../http/client.ts";
import type { QueryValue } from "../http/request_url.ts";
import { pageSignature } from "../http/paging_guard.ts";
import { linkedPage } from "./next_link.ts";
import type {
  UserRequest,
  UserRequestPayload,
  Workflow,
  WorkflowDefinition,
  WorkflowPage,
  WorkflowRun,
  WorkflowTask,
  WorkflowValidationViolation,
} from "./workflow_types.ts";

/** The api-version of the workflow contract, sent on every workflow request. */
export const WORKFLOW_API_VERSION = "2023-10-01-preview";

/** Filters of the run list (the contract's query parameters of WorkflowRuns_List). */
export interface RunListFilter {
  /** `mine` (the caller's runs) or `admin` (every run). */
  viewMode?: "mine" | "admin";
  /** Only items of the last day, 7, 30 or 90 days. */
  timeWindow?: "1d" | "7d" | "30d" | "90d";
  /** E.g. `startTime desc`. */
  orderby?: string;
  /** Only runs in these statuses. */
  runStatuses?: string[];
  /** Only items of these workflows. */
  workflowIds?: string[];
  /** Only items requested by these principal object ids. */
  requestors?: string[];
  /** Most items per page (the service defaults to 100). */
  maxpagesize?: number;
}

/** Filters of the task list (the contract's query parameters of WorkflowTasks_List). */
export interface TaskListFilter {
  /** `received` (assigned to the caller), `sent` (requested by the caller), `history` or `mine`. */
  viewMode?: "sent" | "received" | "history" | "mine";
  /** Only items of these workflows. */
  workflowIds?: string[];
  /** Only items of the last day, 7, 30 or 90 days. */
  timeWindow?: "1d" | "7d" | "30d" | "90d";
  /** Most items per page (the service defaults to 100). */
  maxpagesize?: number;
  /** Sort order, e.g. `createdTime desc`. */
  orderby?: string;
  /** Only approvals or simple tasks. */
  taskTypes?: Array<"approval" | "simpleTask">;
  /** Only tasks in these statuses (Pending, Approved, Rejected, ...). */
  taskStatuses?: string[];
  /** Only items requested by these principal object ids. */
  requestors?: string[];
  /** Only tasks assigned to these principal object ids. */
  assignees?: string[];
  /** Only tasks of workflows whose name holds this text. */
  workflowNameKeyword?: string;
}

/** One reassignment: the task moves from one principal to another. */
export interface Reassignment {
  /** Object id of the assignee who hands the task over. */
  reassignFrom: string;
  /** Object id of the principal who takes it. */
  reassignTo: string;
}

const WORKFLOWS = "/workflow/workflows";
const RUNS = "/workflow/workflowruns";
const TASKS = "/workflow/workflowtasks";

/** The workflow calls of one account (`client.workflow`). */
export class WorkflowApi {
  readonly #http: HttpClient;
  /** The calls, sent through `http`; `CatalogClient` builds one as `client.workflow`. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Every workflow of the account. */
  listWorkflows(signal?: AbortSignal): AsyncGenerator<Workflow> {
    return this.#pages<Workflow>(WORKFLOWS, {}, signal);
  }

  /** One workflow, its action DAG included; a NotFoundError when there is none with that id. */
  getWorkflow(workflowId: string, signal?: AbortSignal): Promise<Workflow> {
    return this.#call("GET", `${WORKFLOWS}/${seg(workflowId)}`, { signal });
  }

  /** Creates the workflow `workflowId`, or replaces it; answers it as stored. */
  putWorkflow(workflowId: string, definition: WorkflowDefinition, signal?: AbortSignal): Promise<Workflow> {
    return this.#call("PUT", `${WORKFLOWS}/${seg(workflowId)}`, { body: definition, signal });
  }

  /** Deletes a workflow; its past runs stay. */
  async deleteWorkflow(workflowId: string, signal?: AbortSignal): Promise<void> {
    await this.#call("DELETE", `${WORKFLOWS}/${seg(workflowId)}`, { signal });
  }

  /** What the service finds wrong with a definition (errors and warnings), without storing it. */
  async validateWorkflow(
    workflowId: string,
    definition: WorkflowDefinition,
    signal?: AbortSignal,
  ): Promise<WorkflowValidationViolation[]> {
    const answer = await this.#call<{ value?: WorkflowValidationViolation[] }>(
      "POST",
      `${WORKFLOWS}/${seg(workflowId)}/validate`,
      { body: definition, signal, idempotent: true },
    );
    return Array.isArray(answer?.value) ? answer.value : [];
  }

  /**
   * Submits a user request: each change a workflow watches starts a run (see `workflowRunIds`), the others
   * are applied at once. Not retried once sent: a second submission would be a second request.
   */
  submitUserRequest(payload: UserRequestPayload, signal?: AbortSignal): Promise<UserRequest> {
    return this.#call("POST", "/workflow/userrequests", { body: payload, signal });
  }

  /** The workflow runs the filter selects, newest first unless `orderby` says otherwise. */
  listRuns(filter: RunListFilter = {}, signal?: AbortSignal): AsyncGenerator<WorkflowRun> {
    return this.#pages<WorkflowRun>(RUNS, csvQuery({ ...filter }), signal);
  }

  /** One run, with its action DAG and the state of each action. */
  getRun(runId: string, signal?: AbortSignal): Promise<WorkflowRun> {
    return this.#call("GET", `${RUNS}/${seg(runId)}`, { signal });
  }

  /** Cancels a run still in progress; its open tasks are canceled and its change is not applied. */
  async cancelRun(runId: string, comment?: string, signal?: AbortSignal): Promise<void> {
    await this.#call("POST", `${RUNS}/${seg(runId)}/cancel`, { body: { comment }, signal, idempotent: true });
  }

  /** The workflow tasks the filter selects. */
  listTasks(filter: TaskListFilter = {}, signal?: AbortSignal): AsyncGenerator<WorkflowTask> {
    return this.#pages<WorkflowTask>(TASKS, csvQuery({ ...filter }), signal);
  }

  /** One task: an approval with each approver's reply, or a simple task with its history. */
  getTask(taskId: string, signal?: AbortSignal): Promise<WorkflowTask> {
    return this.#call("GET", `${TASKS}/${seg(taskId)}`, { signal });
  }

  /** Approves an approval task as the caller, with an optional comment. */
  async approve(taskId: string, comment?: string, signal?: AbortSignal): Promise<void> {
    await this.#call("POST", `${TASKS}/${seg(taskId)}/approve-approval`, { body: { comment }, signal });
  }

  /** Rejects an approval task as the caller, with an optional comment. */
  async reject(taskId: string, comment?: string, signal?: AbortSignal): Promise<void> {
    await this.#call("POST", `${TASKS}/${seg(taskId)}/reject-approval`, { body: { comment }, signal });
  }

  /** Moves a task from one assignee to another. */
  async reassign(taskId: string, reassignments: Reassignment[], signal?: AbortSignal): Promise<void> {
    await this.#call("POST", `${TASKS}/${seg(taskId)}/reassign`, {
      body: { reassignments },
      signal,
      idempotent: true,
    });
  }

  /** Sets a simple task's status (NotStarted, InProgress, Completed, Canceled). */
  async changeTaskStatus(
    taskId: string,
    newStatus: string,
    comment?: string,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.#call("POST", `${TASKS}/${seg(taskId)}/change-task-status`, {
      body: { newStatus, comment },
      signal,
      idempotent: true,
    });
  }

  #call<T>(
    method: "GET" | "PUT" | "POST" | "DELETE",
    path: string,
    options: { body?: unknown; signal?: AbortSignal; idempotent?: boolean },
  ): Promise<T> {
    return this.#http.request<T>({ method, area: "workflow", path, ...options });
  }

  async *#pages<T>(path: string, query: Record<string, QueryValue>, signal?: AbortSignal): AsyncGenerator<T> {
    const guard = this.#http.pagingGuard(`the workflow list ${path}`);
    let next: { path: string; query: Record<string, QueryValue> } = { path, query };
    for (;;) {
      guard.beforePage(pageKey(next));
      const page = await this.#http.request<Partial<WorkflowPage<T>> | undefined>({
        method: "GET",
        area: "workflow",
        path: next.path,
        query: next.query,
        signal,
      });
      const items = Array.isArray(page?.value) ? page.value : [];
      guard.afterPage(items.length, pageSignature(items, (item) => (item as { id?: unknown }).id));
      yield* items;
      if (typeof page?.nextLink !== "string" || page.nextLink === "") return;
      next = this.#follow(page.nextLink);
    }
  }

  /** The path and query of a nextLink, refused unless it is on the configured endpoint. */
  #follow(nextLink: string): { path: string; query: Record<string, QueryValue> } {
    return linkedPage(this.#http.baseUrl("workflow"), nextLink, brokenPaging);
  }
}

/**
 * A filter as query parameters: the contract declares its list filters as arrays without a
 * `collectionFormat`, which Swagger 2.0 reads as `csv` (one parameter, values joined by commas).
 */
function csvQuery(filter: Record<string, unknown>): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[name] = value.join(",");
    } else query[name] = value as QueryValue;
  }
  return query;
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function pageKey(request: { path: string; query: Record<string, QueryValue> }): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query).sort(([a], [b]) => a.localeCompare(b))) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  return `${request.path}?${query}`;
}

function brokenPaging(detail: string): CatalogError {
  return new CatalogError({
    message: `The workflow list could not be paged: ${detail}.`,
    hint: "Retry; if it persists, narrow the list (--status, --workflow-id) or report the paging problem.",
  });
}
