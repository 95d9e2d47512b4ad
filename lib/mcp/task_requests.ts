/**
 * Requests augmented with a task (MCP 2025-11-25: `params.task` on `tools/call`) reaching this server, which
 * declares no `tasks` capability. The specification has a receiver that does not support tasks process such
 * a request normally and answer its result
 * (https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks); the SDK's `Server`
 * refuses it instead, with -32603 "Server does not support task creation", and would then hold the call's
 * result for a task's. This module turns both off for a server of ours: the refusal, and the task field the
 * `tools/call` handler would see, so a client asking for a task gets the call's ordinary result. Both are
 * the SDK's internals (1.32): a shape that is no longer there fails at start, not silently.
 *
 * @module
 */
import type { Server } from "../deps/mcp_sdk.ts";

type Handler = (request: { method: string; params?: Record<string, unknown> }, extra: unknown) => unknown;

/** The SDK internals this relies on: the check before a task-augmented request, the handlers by method. */
interface ServerInternals {
  assertTaskHandlerCapability(method: string): void;
  _requestHandlers: Map<string, Handler>;
}

/**
 * Makes `server` answer a task-augmented `tools/call` as an ordinary one, as a server without tasks must.
 * Call it after the `tools/call` handler is set.
 */
export function processTaskRequestsNormally(server: Server): void {
  const internals = server as unknown as ServerInternals;
  const handler = internals._requestHandlers?.get("tools/call");
  if (typeof internals.assertTaskHandlerCapability !== "function" || typeof handler !== "function") {
    throw new Error("the MCP SDK's Server changed its task handling: revisit lib/mcp/task_requests.ts");
  }
  internals.assertTaskHandlerCapability = () => {};
  internals._requestHandlers.set("tools/call", (request, extra) => {
    if (request.params?.task === undefined) return handler(request, extra);
    const { task: _task, ...params } = request.params;
    return handler({ ...request, params }, extra);
  });
}
