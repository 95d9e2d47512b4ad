/**
 * Tool calls the stdio fast start answers before the real server has loaded (the SDK's server with ajv,
 * every tool and the operation registry: about 150 ms). Only the called tool's module loads
 * (`tools/modules.ts`), and the call runs through the real server's own `callTool` with the services the
 * real server takes over afterwards, so it is checked, run, masked and audited exactly as it would be
 * there. What the real server would send to the client during a call goes out the same way: progress and
 * log notifications, and `roots/list` when a file argument needs the client's roots.
 *
 * The calls in flight stay here until they end, also after the real server has taken the session over:
 * their cancellations (`notifications/cancelled`) and the client's answers to their `roots/list` requests
 * are {@link FastToolCalls.take}n from the input before it reaches the real server. As the SDK does when a
 * session closes, {@link FastToolCalls.stop} aborts every call in flight, and an aborted call answers
 * nothing.
 *
 * This module and its imports are free of the MCP SDK; a test reads its module graph to keep it so.
 *
 * @module
 */
import type { CallToolRequest } from "../deps/mcp_sdk.ts";
import { type ElicitationPeer, userConfirmations } from "./elicitation.ts";
import { INTERNAL_ERROR } from "./protocol_errors.ts";
import { bridgeLogs, type CallExtra, DEFAULT_LOG_LEVEL } from "./session_log.ts";
import type { ToolDefinition, ToolServices } from "./tool.ts";
import { callTool, type ToolSession } from "./tool_call.ts";
import { selectTools } from "./tool_selection.ts";
import { type RootsClient, type SessionRoots, sessionRoots, sessionSecrets } from "./tool_services.ts";
import { loadTool } from "./tools/modules.ts";

type Message = Record<string, unknown>;

/** Ids of this module's own requests to the client; strings, unlike the SDK's numbers, so none collide. */
const REQUEST_ID_PREFIX = "govcat-fast-";

export interface FastToolCallsOptions {
  /** The process's services, which the real server takes over. */
  services: ToolServices;
  /** The module of `tools/modules.ts` that defines each tool, by tool name (fast_start_data.json). */
  toolModules: Record<string, string>;
  /** The capabilities the client declared in `initialize`. */
  clientCapabilities: Message;
  /** The revision the fast start's `initialize` answer negotiated. */
  protocolVersion?: string;
  /** Writes one serialized message, line end included, completely and synchronously (stdout). */
  write(text: string): void;
}

interface PendingRequest {
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** The tool calls of one stdio session that run before (and, once started, beside) the real server. */
export class FastToolCalls {
  readonly #options: FastToolCallsOptions;
  readonly #session: ToolSession;
  readonly #running = new Map<unknown, { controller: AbortController; done: Promise<void> }>();
  readonly #requests = new Map<string, PendingRequest>();
  readonly #tools = new Map<string, Promise<ToolDefinition>>();
  readonly #roots: SessionRoots | undefined;
  #nextRequest = 0;

  constructor(options: FastToolCallsOptions) {
    this.#options = options;
    const { services } = options;
    bridgeLogs(services);
    const roots: RootsClient = {
      declaresRoots: () => isObject(options.clientCapabilities.roots),
      listRoots: async (_requestId, timeoutMs) => rootsOf(await this.#request("roots/list", timeoutMs)),
    };
    // A destructive call here asks its user as the real server would (elicitation.ts).
    const elicitation: ElicitationPeer = {
      clientCapabilities: () => options.clientCapabilities,
      elicit: (request, { timeout, signal }) =>
        this.#request("elicitation/create", timeout, request as unknown as Message, signal),
    };
    this.#roots = sessionRoots(services, roots);
    this.#session = {
      services,
      baseServices: services,
      // Only tools the fast start lists are called here, so no call is refused as switched off.
      selection: { enabled: [], disabled: new Map() },
      byName: new Map(),
      secrets: sessionSecrets(services.config()),
      roots: this.#roots,
      log: { level: DEFAULT_LOG_LEVEL, set: false },
      askUser: userConfirmations(elicitation, () => services.config().mcpConfirmTimeoutMs),
      protocolVersion: () => options.protocolVersion,
    };
  }

  /** Calls in flight. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * Runs the `tools/call` request `message` (a listed tool, plain params: see the fast start) and writes
   * its answer; resolves once it is written, or at once for an id already running.
   */
  call(message: Message): Promise<void> {
    const id = message.id;
    if (this.#running.has(id)) return Promise.resolve();
    const controller = new AbortController();
    const done = this.#run(message, controller.signal)
      .then((result) => this.#answer(controller.signal, { result, jsonrpc: "2.0", id }))
      .catch((error) => this.#answer(controller.signal, { jsonrpc: "2.0", id, error: errorOf(error) }))
      .finally(() => this.#running.delete(id));
    this.#running.set(id, { controller, done });
    return done;
  }

  /**
   * Takes a message meant for the calls here (a cancellation of one of them, the client's answer to one
   * of their requests) and returns true; returns false for any other message. A change of the client's
   * roots is noted and left to go on to the real server as well.
   */
  take(message: Message): boolean {
    if (message.method === "notifications/roots/list_changed") this.#roots?.changed();
    if (message.method === "notifications/cancelled" && isObject(message.params)) {
      const running = this.#running.get(message.params.requestId);
      running?.controller.abort(message.params.reason);
      return running !== undefined;
    }
    if (message.method !== undefined || typeof message.id !== "string") return false;
    const pending = this.#requests.get(message.id);
    if (!pending) return false;
    this.#requests.delete(message.id);
    clearTimeout(pending.timer);
    if (isObject(message.error)) {
      pending.reject(new Error(`the client answered ${JSON.stringify(message.error)}`));
    } else pending.resolve(message.result);
    return true;
  }

  /** Aborts every call in flight (the session is over) and resolves once they have ended. */
  async stop(): Promise<void> {
    for (const { controller } of this.#running.values()) controller.abort();
    for (const [id, pending] of this.#requests) {
      this.#requests.delete(id);
      clearTimeout(pending.timer);
      pending.reject(new Error("the session ended"));
    }
    await Promise.all([...this.#running.values()].map(({ done }) => done));
  }

  async #run(message: Message, signal: AbortSignal): Promise<unknown> {
    const params = message.params as CallToolRequest["params"];
    const tool = await this.#tool(params.name);
    this.#session.byName.set(tool.name, tool);
    const extra: CallExtra = {
      signal,
      requestId: message.id as string | number,
      _meta: params._meta,
      sendNotification: (notification) => {
        this.#answer(signal, { jsonrpc: "2.0", ...notification });
        return Promise.resolve();
      },
    };
    return await callTool(this.#session, { method: "tools/call", params }, extra);
  }

  /** The tool as the real server holds it: read-only mode narrows some (see selectTools). */
  #tool(name: string): Promise<ToolDefinition> {
    let tool = this.#tools.get(name);
    if (!tool) {
      tool = loadTool(this.#options.toolModules[name], name).then((defined) => {
        const [selected] = selectTools([defined], { readOnly: this.#options.services.readOnly }).enabled;
        if (!selected) throw new Error(`${name} is not callable on this server`);
        return selected;
      });
      this.#tools.set(name, tool);
    }
    return tool;
  }

  /**
   * Sends `method` to the client and resolves with its answer's result; rejects after `timeoutMs`, or
   * when `signal` (the call's) aborts, as the SDK does.
   */
  #request(method: string, timeoutMs: number, params?: Message, signal?: AbortSignal): Promise<unknown> {
    const id = `${REQUEST_ID_PREFIX}${this.#nextRequest++}`;
    return new Promise((resolve, reject) => {
      const forget = () => {
        this.#requests.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
      };
      const aborted = () => {
        forget();
        reject(signal?.reason ?? new Error(`${method}: the call was cancelled`));
      };
      const timer = setTimeout(() => {
        forget();
        reject(new Error(`the client did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      signal?.addEventListener("abort", aborted, { once: true });
      this.#requests.set(id, {
        resolve: (result) => (forget(), resolve(result)),
        reject: (error) => (forget(), reject(error)),
        timer,
      });
      this.#write({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    });
  }

  /** Writes a message of a call unless the call was aborted: as the SDK, an aborted call says nothing more. */
  #answer(signal: AbortSignal, message: Message): void {
    if (!signal.aborted) this.#write(message);
  }

  #write(message: Message): void {
    try {
      this.#options.write(JSON.stringify(message) + "\n");
    } catch (error) {
      // The client is gone (a closed pipe): nothing can reach it any more.
      this.#options.services.logger.debug(`mcp: a message to the client was not written: ${error}`);
    }
  }
}

/** The error answer the SDK gives for a handler that throws: its code if it has one, else internal. */
function errorOf(error: unknown): Message {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: Number.isSafeInteger(code) ? code : INTERNAL_ERROR,
    message: typeof message === "string" ? message : "Internal error",
    ...(data === undefined ? {} : { data }),
  };
}

/** The roots of a `roots/list` result; throws for anything else, as the SDK's schema check does. */
function rootsOf(result: unknown): Array<{ uri: string }> {
  const roots = isObject(result) ? result.roots : undefined;
  if (!Array.isArray(roots) || !roots.every((root) => isObject(root) && typeof root.uri === "string")) {
    throw new Error(`the client's roots/list answer holds no list of roots: ${JSON.stringify(result)}`);
  }
  return roots as Array<{ uri: string }>;
}

function isObject(value: unknown): value is Message {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
