/**
 * Long tool calls as tasks (MCP 2025-11-25): the tools that may run long — CSV imports, batches, and
 * invoke_operation, through which every CSV import of the command line runs — declare
 * `execution.taskSupport: "optional"`. A `tools/call` of one of them carrying `task` is answered at once
 * with the task; the call runs on in the process's {@link TaskStore}, where `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel` of any session of the same principal find it. A task asked of any other
 * tool is refused with -32601, as the specification has a server do; a call without `task` runs as ever.
 *
 * A stateless server (hosted mode) keeps nothing between requests, so it declares no `tasks` capability
 * and processes a task-augmented call normally (`task_requests.ts`).
 *
 * @module
 */
import {
  type CallToolRequest,
  type CallToolResult,
  CancelTaskRequestSchema,
  type CreateTaskResult,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  type Server,
  type Task,
} from "../../deps/mcp_sdk.ts";
import type { SessionUser } from "../auth/session_user.ts";
import { protocolError } from "../protocol_errors.ts";
import type { CallExtra } from "../session_log.ts";
import type { ToolServices } from "../tool.ts";
import { TaskStore } from "./task_store.ts";

/** The server's `tasks` capability: tasks/list, tasks/cancel and task-augmented tools/call. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** The tools a client may call as a task: those whose work can take minutes. */
export const TASK_TOOLS: ReadonlySet<string> = new Set([
  "import_entities_from_csv",
  "batch_create_entities",
  "batch_update_entities",
  "invoke_operation",
]);

/** The `execution` field of a tool's `tools/list` entry: present for the tools that run as tasks. */
export function toolExecution(name: string): { execution?: { taskSupport: "optional" } } {
  return TASK_TOOLS.has(name) ? { execution: { taskSupport: "optional" } } : {};
}

const stores = new WeakMap<ToolServices, TaskStore>();

/**
 * The tasks of the process these services serve: one store for every session, so a client that comes
 * back on a new session finds its tasks.
 */
export function processTasks(services: ToolServices): TaskStore {
  let store = stores.get(services);
  if (!store) stores.set(services, store = new TaskStore());
  return store;
}

/** Makes `store` the tasks of `services` (tests: smaller limits). */
export function useTaskStore(services: ToolServices, store: TaskStore): void {
  stores.set(services, store);
}

/** Whose tasks a session sees: its signed-in user, or the one principal of a server without sign-in. */
export function taskOwner(user?: SessionUser): string {
  return user ? `user:${user.key}` : "anonymous";
}

type ToolCall = (request: CallToolRequest, extra: CallExtra) => Promise<CallToolResult>;

/**
 * Serves tasks on `server` for `owner` and answers the `tools/call` handler to set: `call` as it is for
 * a call without `task`, a task (`CreateTaskResult`) for one of the {@link TASK_TOOLS} with it.
 */
export function serveTasks(
  server: Server,
  store: TaskStore,
  owner: string,
  enabled: Pick<ReadonlySet<string>, "has">,
  call: ToolCall,
): (request: CallToolRequest, extra: CallExtra) => Promise<CallToolResult | CreateTaskResult> {
  server.setRequestHandler(GetTaskRequestSchema, (request) => store.get(owner, request.params.taskId));
  server.setRequestHandler(
    GetTaskPayloadRequestSchema,
    (request, extra) => store.result(owner, request.params.taskId, extra.signal),
  );
  server.setRequestHandler(ListTasksRequestSchema, (request) => store.list(owner, request.params?.cursor));
  server.setRequestHandler(CancelTaskRequestSchema, (request) => store.cancel(owner, request.params.taskId));
  const notifyStatus = (task: Task) => {
    server.notification({ method: "notifications/tasks/status", params: task }).catch(() => {});
  };
  return (request, extra) => {
    const { task, ...params } = request.params;
    if (task === undefined) return call(request, extra);
    const { name } = params;
    if (!TASK_TOOLS.has(name) || !enabled.has(name)) {
      const offered = [...TASK_TOOLS].filter((tool) => enabled.has(tool));
      throw protocolError(
        ErrorCode.MethodNotFound,
        `${name} does not run as a task (tools/list gives it no execution.taskSupport: "forbidden"): ` +
          `call it without "task".${
            offered.length ? ` The tools that run as tasks: ${offered.join(", ")}.` : ""
          }`,
      );
    }
    const created = store.create(
      owner,
      task.ttl,
      (signal) => call({ ...request, params }, jobExtra(extra, signal, server)),
      notifyStatus,
    );
    return Promise.resolve({
      task: created,
      _meta: {
        "io.modelcontextprotocol/model-immediate-response": `${name} runs as task ${created.taskId}; ` +
          "its result comes with tasks/result.",
      },
    });
  };
}

/**
 * What the job of a task gets for the call's extra: the task's signal (tasks/cancel), and notifications
 * (progress, for the request's progress token, which stays valid for the task's life; log lines) sent as
 * the session's own rather than on the call's stream, which its answer — the task — has closed (requests
 * too: the user's confirmation of a destructive call, roots/list): over
 * streamable HTTP they reach the client's GET stream. One that cannot be sent (the client left) is dropped;
 * the job goes on.
 */
function jobExtra(extra: CallExtra, signal: AbortSignal, server: Server): CallExtra {
  return {
    ...extra,
    // Requests of the job (a destructive call's confirmation, roots/list) are the session's too: tied to
    // the answered call, they would go to a stream that is closed.
    requestId: undefined as unknown as CallExtra["requestId"],
    signal,
    sendNotification: (notification) =>
      server.notification(notification as Parameters<Server["notification"]>[0]).catch(() => {}),
  };
}
