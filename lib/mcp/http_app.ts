/**
 * The HTTP front end of the tool server, as one `(Request) => Response` handler for `Deno.serve`:
 * - `streamable-http`: `POST|GET|DELETE /mcp`, a session (server and transport) per `Mcp-Session-Id`;
 * - `sse` (legacy, 2024-11-05): `GET /sse` and `POST /messages?sessionId=…`;
 * - `hosted`: stateless streamable HTTP at `/api/mcp` ({@link HostedEndpoint}: a fresh server and transport
 *   per request) and `GET /api/health`, as an Azure Functions custom handler receives them.
 * Each MCP path has toolset paths (`/mcp/x/glossary`), and the `X-MCP-Toolsets` header narrows too
 * (toolset_scope.ts). A streamable or SSE session keeps the toolsets it started with; a later request of a
 * streamable session asking for others is refused (400), as a session's tool list does not change under it.
 * This module routes each request, after the {@link HttpGuard} and the sign-in, to the mode's endpoint:
 * {@link StreamableSessions} (sessions, their limits and resumption), {@link SseSessions} or
 * {@link HostedEndpoint}.
 *
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { VERSION } from "../core/version.ts";
import type { SignedInUser } from "./auth/entra_token.ts";
import { SessionUser } from "./auth/session_user.ts";
import type { EntraSignIn } from "./auth/sign_in.ts";
import { type EventStoreLimits, ResumableEvents } from "./event_store.ts";
import { HostedEndpoint } from "./hosted_endpoint.ts";
import { parseJsonRpcBody } from "./http_bodies.ts";
import { HttpGuard, type HttpGuardOptions, jsonError } from "./http_security.ts";
import { createToolServer, toolSelection } from "./server.ts";
import { processTasks } from "./tasks/tool_tasks.ts";
import { SseSessions } from "./sse_sessions.ts";
import { SESSION_IDLE_MS, StreamableSessions } from "./streamable_sessions.ts";
import type { ToolServices } from "./tool.ts";
import { serveOverHttp } from "./tool_services.ts";
import { narrowSelection, type ToolSelection } from "./tool_selection.ts";
import { isMcpPath, type RequestScope, requestScope } from "./toolset_scope.ts";

export type HttpMode = "streamable-http" | "sse" | "hosted";

/** Where each mode serves MCP by default. */
export const DEFAULT_MCP_PATHS: Record<HttpMode, string> = {
  "streamable-http": "/mcp",
  "sse": "/sse",
  "hosted": "/api/mcp",
};
export const HOSTED_HEALTH_PATH = "/api/health";
/** Sessions (streamable and SSE) kept by default; a new one beyond closes the least recently used. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** The methods of the streamable endpoint; others are 405. */
const STREAMABLE_METHODS = ["GET", "POST", "DELETE"];

export interface McpHttpAppOptions extends HttpGuardOptions {
  mode: HttpMode;
  services: ToolServices;
  /** Path of the MCP endpoint; the mode's default otherwise. */
  path?: string;
  /** Sessions kept at once (default {@link DEFAULT_MAX_SESSIONS}). */
  maxSessions?: number;
  /** A session without requests for this long is closed (default {@link SESSION_IDLE_MS}). */
  sessionIdleMs?: number;
  /** Unread bytes an SSE stream may hold before it is closed (default 1 MiB). */
  streamBufferBytes?: number;
  /** Entra ID sign-in: every MCP request needs a valid token, and a session serves only its user. */
  signIn?: EntraSignIn;
  /** Bounds of the events kept for resumption (streamable HTTP); see {@link ResumableEvents}. */
  eventStoreLimits?: Partial<EventStoreLimits>;
}

/** Who opens an SSE session and with which tools, across the awaits of SseSessions.open to its connect. */
const opening = new AsyncLocalStorage<{ user?: SessionUser; selection: ToolSelection }>();

/** Toolset scopes whose selections are kept (2^11 sets, by path or header or both); more are not kept. */
const MAX_SCOPES = 4096;

export class McpHttpApp {
  readonly mode: HttpMode;
  readonly path: string;
  readonly #services: ToolServices;
  readonly #selection: ToolSelection;
  readonly #guard: HttpGuard;
  readonly #streamable: StreamableSessions;
  readonly #sse: SseSessions;
  readonly #signIn: EntraSignIn | undefined;
  /** The user of each open SSE session. */
  readonly #sseUsers = new Map<string, SessionUser>();
  /** The events of every streamable session, for resumption. */
  readonly events: ResumableEvents;
  readonly #hosted: HostedEndpoint;
  /** The selection of each toolset scope requests asked for, by key and source. */
  readonly #scoped = new Map<string, ToolSelection>();

  constructor(options: McpHttpAppOptions) {
    this.mode = options.mode;
    this.path = options.path ?? DEFAULT_MCP_PATHS[options.mode];
    this.#services = options.services;
    // Roots a client declares count only from an authenticated client (tool_services.ts).
    serveOverHttp(options.services, !!options.authToken || options.signIn !== undefined);
    this.#selection = toolSelection(options.services);
    this.#guard = new HttpGuard(options);
    this.#signIn = options.signIn;
    const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.events = new ResumableEvents(options.eventStoreLimits);
    this.#hosted = new HostedEndpoint({
      // Stateless: nothing outlives a request, so no tasks (a task-augmented call is processed normally).
      createServer: (user, selection) =>
        createToolServer(this.#services, selection, user && new SessionUser(user), { tasks: false }),
      parseBody: (request) => parseJsonRpcBody(this.#guard, request),
    });
    this.#sse = new SseSessions({
      messagesPath: "/messages",
      maxBodyBytes: this.#guard.maxBodyBytes,
      bodyTimeoutMs: this.#guard.bodyTimeoutMs,
      maxSessions,
      maxBufferedBytes: options.streamBufferBytes,
      connect: (transport) => {
        const { user, selection } = opening.getStore() ?? { selection: this.#selection };
        if (user) {
          this.#sseUsers.set(transport.sessionId, user);
          void transport.closed.then(() => this.#sseUsers.delete(transport.sessionId));
        }
        return createToolServer(this.#services, selection, user).connect(transport);
      },
    });
    this.#streamable = new StreamableSessions({
      guard: this.#guard,
      events: this.events,
      maxSessions,
      sessionIdleMs: options.sessionIdleMs ?? SESSION_IDLE_MS,
      createServer: (scope, user) => createToolServer(this.#services, this.#scopedSelection(scope), user),
    });
  }

  /** Number of open sessions (streamable and SSE). */
  get sessionCount(): number {
    return this.#streamable.size + this.#sse.size;
  }

  /** Number of tools served. */
  get toolCount(): number {
    return this.#selection.enabled.length;
  }

  /** The `Deno.serve` handler. */
  handle = async (request: Request): Promise<Response> => {
    let pathname: string;
    try {
      // The URL is built from the Host header, which the peer chose: "127.0.0.1:22000 evil" does not parse.
      pathname = new URL(request.url).pathname;
    } catch {
      await request.body?.cancel().catch(() => {});
      return jsonError(400, "Bad Request: the Host header is not a valid host[:port].");
    }
    if (this.mode === "hosted" && pathname === HOSTED_HEALTH_PATH && request.method === "GET") {
      const refusal = this.#guard.check(request, { requireToken: false });
      return refusal ?? Response.json({ status: "healthy", version: VERSION, tools: this.toolCount });
    }
    if (this.#signIn?.isMetadataPath(pathname, this.path)) {
      const refusal = this.#guard.check(request, { requireToken: false });
      return refusal ?? this.#signIn.metadataResponse(request, this.path);
    }
    if (this.mode === "sse") {
      if (isMcpPath(pathname, this.path) || pathname === "/messages") {
        const refusal = this.#guard.check(request);
        if (refusal) return refusal;
        const user = await this.#signedIn(request);
        if (user instanceof Response) return user;
        if (pathname !== "/messages" && request.method === "GET") {
          const scope = this.#scope(request, pathname);
          if (scope instanceof Response) return scope;
          const store = { user: user && new SessionUser(user), selection: this.#scopedSelection(scope) };
          return await opening.run(store, () => this.#sse.open(request));
        }
        if (pathname === "/messages" && request.method === "POST") {
          const sessionId = new URL(request.url).searchParams.get("sessionId") ?? "";
          const wrongUser = user && this.#sseUsers.get(sessionId)?.admit(user, sessionId);
          if (wrongUser) return wrongUser;
          return this.#sse.post(request);
        }
        return methodNotAllowed(pathname === "/messages" ? "POST" : "GET");
      }
      return notFound(pathname);
    }
    if (!isMcpPath(pathname, this.path)) return notFound(pathname);
    const refusal = this.#guard.check(request);
    if (refusal) return refusal;
    const user = await this.#signedIn(request);
    if (user instanceof Response) return user;
    const scope = this.#scope(request, pathname);
    if (scope instanceof Response) {
      await request.body?.cancel().catch(() => {});
      return scope;
    }
    if (this.mode === "hosted") return await this.#hosted.handle(request, user, this.#scopedSelection(scope));
    if (!STREAMABLE_METHODS.includes(request.method)) return methodNotAllowed("GET, POST, DELETE");
    return await this.#streamable.handle(request, user, scope);
  };

  /** The toolsets a request to an MCP path asks for, or its refusal. */
  #scope(request: Request, pathname: string): RequestScope | Response {
    return requestScope(pathname, this.path, request.headers, this.#selection.toolsets);
  }

  /** The server's selection narrowed to a request's toolsets (one per scope, kept). */
  #scopedSelection(scope: RequestScope): ToolSelection {
    if (!scope.toolsets) return this.#selection;
    // By source too: refusals name where the narrowing came from (path or header).
    const key = `${scope.key} ${scope.source}`;
    let selection = this.#scoped.get(key);
    if (!selection) {
      selection = narrowSelection(this.#selection, scope.toolsets, scope.source);
      if (this.#scoped.size < MAX_SCOPES) this.#scoped.set(key, selection);
    }
    return selection;
  }

  /** The request's signed-in user (undefined without sign-in), or the refusal to answer with. */
  async #signedIn(request: Request): Promise<SignedInUser | Response | undefined> {
    if (!this.#signIn) return undefined;
    const answer = await this.#signIn.authenticate(request, this.path);
    if (answer instanceof Response) await request.body?.cancel().catch(() => {});
    return answer;
  }

  /** Number of hosted calls running. */
  get runningHostedCalls(): number {
    return this.#hosted.runningCalls;
  }

  /** Closes every session, stops running hosted calls (ending their streams) and the idle sweeper. */
  async close(): Promise<void> {
    this.#hosted.close();
    // Running tasks stop as the sessions' calls do (an import keeps its checkpoint, to be resumed).
    processTasks(this.#services).abortAll();
    await this.#streamable.close();
    await this.#sse.closeAll();
  }
}

function notFound(pathname: string): Response {
  return jsonError(404, `Nothing is served at ${pathname}.`);
}

function methodNotAllowed(allow: string): Response {
  return jsonError(405, `Method not allowed; use ${allow}.`, { allow });
}
