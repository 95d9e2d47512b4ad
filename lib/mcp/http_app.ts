/**
 * The HTTP front end of the tool server, as one `(Request) => Response` handler for `Deno.serve`:
 * - `streamable-http`: `POST|GET|DELETE /mcp`, a session (server and transport) per `Mcp-Session-Id`;
 * - `sse` (legacy, 2024-11-05): `GET /sse` and `POST /messages?sessionId=…`;
 * - `hosted`: stateless streamable HTTP at `/api/mcp` ({@link HostedEndpoint}: a fresh server and transport
 *   per request) and `GET /api/health`, as an Azure Functions custom handler receives them.
 * Each MCP path has toolset paths (`/mcp/x/glossary`), and the `X-MCP-Toolsets` header narrows too
 * (toolset_scope.ts). A streamable or SSE session keeps the toolsets it started with; a later request of a
 * streamable session asking for others is refused (400), as a session's tool list does not change under it.
 * Streamable sessions are resumable: their events carry ids and are kept, bounded, in
 * {@link ResumableEvents}, so a client whose stream broke gets what it missed after `Last-Event-ID`.
 * Every request passes the {@link HttpGuard} first.
 *
 * @module
 */
import {
  isInitializeRequest,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "../deps/mcp_sdk.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import { VERSION } from "../core/version.ts";
import type { SignedInUser } from "./auth/entra_token.ts";
import { SessionUser } from "./auth/session_user.ts";
import type { EntraSignIn } from "./auth/sign_in.ts";
import { type EventStoreLimits, ResumableEvents, type SessionEventStore } from "./event_store.ts";
import { HostedEndpoint } from "./hosted_endpoint.ts";
import { batchRefusal } from "./http_batches.ts";
import { negotiatedVersion } from "./protocol_version.ts";
import { HttpGuard, type HttpGuardOptions, jsonError } from "./http_security.ts";
import { createToolServer, toolSelection } from "./server.ts";
import { processTasks } from "./tasks/tool_tasks.ts";
import {
  answeringId,
  cancelledRequestIds,
  type RequestId,
  requestIds,
  sharedIdProblem,
  trackRunningRequests,
  withAnsweringId,
} from "./request_ids.ts";
import { SseSessions } from "./sse_transport.ts";
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
/** Sessions idle this long are closed by default, so abandoned clients do not hold servers for long. */
export const SESSION_IDLE_MS = 10 * 60 * 1000;
/** Sessions (streamable and SSE) kept by default; a new one beyond closes the least recently used. */
export const DEFAULT_MAX_SESSIONS = 1000;
/**
 * Milliseconds a client waits before resuming a broken stream, sent as the SSE `retry` field of each
 * stream's first event (the SDK client otherwise starts from its own 1 s backoff).
 */
const RESUME_RETRY_MS = 1000;
/** Closed session ids remembered, so their next request is told why rather than just "not found". */
const REMEMBERED_CLOSED = 10_000;

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

interface StreamableSession {
  transport: InstanceType<typeof WebStandardStreamableHTTPServerTransport>;
  server: Server;
  events: SessionEventStore;
  /** Ids of the client's requests not answered yet. */
  running: Set<RequestId>;
  /** The protocol revision the session's initialize negotiated. */
  protocolVersion: string;
  lastSeen: number;
  user?: SessionUser;
  /** The toolsets it started with ({@link RequestScope.key}). */
  scope: RequestScope;
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
  /** Open streamable sessions, least recently used first (a use moves a session to the end). */
  readonly #sessions = new Map<string, StreamableSession>();
  /** Why recently closed sessions were closed, by id (bounded, oldest forgotten first). */
  readonly #closedReasons = new Map<string, string>();
  readonly #sse: SseSessions;
  readonly #sweeper: ReturnType<typeof setInterval>;
  readonly #maxSessions: number;
  readonly #sessionIdleMs: number;
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
    this.#maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#sessionIdleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
    this.events = new ResumableEvents(options.eventStoreLimits);
    this.#hosted = new HostedEndpoint({
      // Stateless: nothing outlives a request, so no tasks (a task-augmented call is processed normally).
      createServer: (user, selection) =>
        createToolServer(this.#services, selection, user && new SessionUser(user), { tasks: false }),
      parseBody: (request) => this.#parseBody(request),
    });
    this.#sse = new SseSessions({
      messagesPath: "/messages",
      maxBodyBytes: this.#guard.maxBodyBytes,
      bodyTimeoutMs: this.#guard.bodyTimeoutMs,
      maxSessions: this.#maxSessions,
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
    this.#sweeper = setInterval(
      () => this.#closeIdleSessions(),
      Math.min(60_000, Math.max(1000, this.#sessionIdleMs / 4)),
    );
    // Node typings widen the id to an object; in Deno it is the number unrefTimer takes.
    Deno.unrefTimer(Number(this.#sweeper));
  }

  /** Number of open sessions (streamable and SSE). */
  get sessionCount(): number {
    return this.#sessions.size + this.#sse.size;
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
    return this.mode === "hosted"
      ? await this.#hosted.handle(request, user, this.#scopedSelection(scope))
      : await this.#streamable(request, user, scope);
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
    clearInterval(this.#sweeper);
    this.#hosted.close();
    // Running tasks stop as the sessions' calls do (an import keeps its checkpoint, to be resumed).
    processTasks(this.#services).abortAll();
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((s) => s.server.close()));
    await this.#sse.closeAll();
  }

  async #streamable(
    request: Request,
    user: SignedInUser | undefined,
    scope: RequestScope,
  ): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (!["POST", "GET", "DELETE"].includes(request.method)) return methodNotAllowed("GET, POST, DELETE");
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (!session) {
        // The request's id, so the client can tell which of its requests this answers.
        const id = request.method === "POST" ? await this.#bodyId(request) : null;
        const reason = this.#closedReasons.get(sessionId);
        return jsonError(
          404,
          reason
            ? `Session ${sessionId} was closed: ${reason}. Initialize a new session.`
            : `Session not found: ${sessionId}. Initialize a new session.`,
          {},
          -32001,
          id,
        );
      }
      const wrongUser = user && session.user?.admit(user, sessionId);
      if (wrongUser) {
        await request.body?.cancel().catch(() => {});
        return wrongUser;
      }
      if (scope.key !== session.scope.key) {
        await request.body?.cancel().catch(() => {});
        return jsonError(400, scopeChanged(sessionId, session.scope, scope));
      }
      session.lastSeen = Date.now();
      // Most recently used last: the map's order is the eviction order.
      this.#sessions.delete(sessionId);
      this.#sessions.set(sessionId, session);
      const lastEventId = request.headers.get("last-event-id");
      if (request.method === "GET" && lastEventId !== null) {
        // The SDK answers any id it cannot replay with a bare "Invalid event ID format".
        const refusal = session.events.replayRefusal(lastEventId);
        if (refusal) return jsonError(refusal.status, refusal.message);
        const finished = session.events.finishedReplay(lastEventId);
        if (finished && acceptsResumption(request)) return finishedStream(finished, sessionId);
      }
      if (request.method !== "POST") return await session.transport.handleRequest(request);
      const body = await this.#parseBody(request);
      if (body instanceof Response) return body;
      const refusedBatch = batchRefusal(body, session.protocolVersion);
      if (refusedBatch) return refusedBatch;
      const ids = requestIds(body);
      const reused = sharedIdProblem(ids, session.running);
      if (reused) return jsonError(400, reused, {}, -32600, answeringId(body));
      for (const id of ids) session.running.add(id);
      // A cancelled request is not answered (MCP: cancellation), so its id is free again.
      for (const id of cancelledRequestIds(body)) session.running.delete(id);
      session.events.expectStream(ids);
      const answer = session.transport.handleRequest(request, { parsedBody: body });
      session.events.expectStream(undefined);
      const response = await answer;
      // Refused by the transport (a header it does not accept): the requests never reached the server.
      if (response.status >= 400) { for (const id of ids) session.running.delete(id); }
      return await withAnsweringId(response, answeringId(body));
    }
    if (request.method !== "POST") {
      return jsonError(400, "Mcp-Session-Id header is required; start with an initialize request (POST).");
    }
    const body = await this.#parseBody(request);
    if (body instanceof Response) return body;
    const messages = Array.isArray(body) ? body : [body];
    const initialize = messages.find((m) => isInitializeRequest(m));
    if (!initialize) {
      return jsonError(
        400,
        "No session: the first request must be initialize, without an Mcp-Session-Id.",
        {},
        -32000,
        answeringId(body),
      );
    }
    const protocolVersion = negotiatedVersion(initialize);
    const refusedBatch = batchRefusal(body, protocolVersion);
    if (refusedBatch) return refusedBatch;
    const sessionUser = user && new SessionUser(user);
    const events = this.events.forSession();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      eventStore: events,
      retryInterval: RESUME_RETRY_MS,
      onsessioninitialized: (id) => {
        this.#makeRoomForSession();
        this.#sessions.set(id, {
          transport,
          server,
          events,
          running,
          protocolVersion,
          lastSeen: Date.now(),
          user: sessionUser,
          scope,
        });
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      events.release();
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    const running = trackRunningRequests(transport);
    const server = createToolServer(this.#services, this.#scopedSelection(scope), sessionUser);
    await server.connect(transport);
    // The session's first request, alone: its stream opens after an await, so the expectation stays set.
    events.expectStream(requestIds(body));
    try {
      return await withAnsweringId(
        await transport.handleRequest(request, { parsedBody: body }),
        answeringId(body),
      );
    } finally {
      events.expectStream(undefined);
    }
  }

  /** The id of the request in `request`'s body, read within the limits; null when there is none. */
  async #bodyId(request: Request): Promise<RequestId | null> {
    const read = await this.#guard.readBody(request);
    if ("refusal" in read) return null;
    try {
      return answeringId(JSON.parse(read.text));
    } catch {
      return null;
    }
  }

  /** Reads the JSON-RPC body within the size limit; a parse failure is JSON-RPC error -32700. */
  async #parseBody(request: Request): Promise<unknown | Response> {
    const read = await this.#guard.readBody(request);
    if ("refusal" in read) return read.refusal;
    let body: unknown;
    try {
      body = JSON.parse(read.text);
    } catch {
      return jsonError(400, "Parse error: the body is not valid JSON.", {}, -32700);
    }
    // JSON-RPC: an empty batch is an invalid request (the SDK would accept it and answer nothing).
    if (Array.isArray(body) && body.length === 0) {
      return jsonError(
        400,
        "Invalid Request: the body is an empty batch; send at least one message.",
        {},
        -32600,
      );
    }
    const repeated = sharedIdProblem(requestIds(body));
    if (repeated) return jsonError(400, repeated, {}, -32600);
    return body;
  }

  #closeIdleSessions(): void {
    const cutoff = Date.now() - this.#sessionIdleMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen < cutoff) {
        this.#closeSession(
          id,
          session,
          `it was idle for more than ${Math.round(this.#sessionIdleMs / 1000)} s`,
        );
      }
    }
  }

  /** At the session limit, closes the least recently used session(s) to admit one more. */
  #makeRoomForSession(): void {
    for (const [id, session] of this.#sessions) {
      if (this.#sessions.size < this.#maxSessions) break;
      this.#closeSession(
        id,
        session,
        `the server keeps at most ${this.#maxSessions} sessions (CATALOG_MCP_MAX_SESSIONS) and this one was ` +
          "the least recently used",
      );
    }
  }

  #closeSession(id: string, session: StreamableSession, reason: string): void {
    this.#sessions.delete(id);
    this.#closedReasons.set(id, reason);
    if (this.#closedReasons.size > REMEMBERED_CLOSED) {
      this.#closedReasons.delete(this.#closedReasons.keys().next().value!);
    }
    void session.server.close().catch(() => {});
  }
}

/** Whether a resumption may be answered without the transport, which would check the same. */
function acceptsResumption(request: Request): boolean {
  const version = request.headers.get("mcp-protocol-version");
  return (request.headers.get("accept") ?? "").includes("text/event-stream") &&
    (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version));
}

/**
 * The rest of a finished stream (every request answered), as the transport writes SSE events, then the
 * end: the transport itself would keep a resumed stream open for messages that can no longer come.
 */
function finishedStream(
  events: Array<{ id: string; message: unknown }>,
  sessionId: string,
): Response {
  const text = events.map(({ id, message }) =>
    `event: message\nid: ${id}\ndata: ${JSON.stringify(message)}\n\n`
  )
    .join("");
  return new Response(text, {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      "mcp-session-id": sessionId,
    },
  });
}

/** Why a session's request asking for other toolsets than the session started with is refused. */
function scopeChanged(sessionId: string, started: RequestScope, asked: RequestScope): string {
  const describe = (scope: RequestScope) =>
    scope.toolsets
      ? `toolsets ${scope.toolsets.join(", ")} (${scope.source})`
      : "every toolset the server serves";
  return `Session ${sessionId} started with ${describe(started)}; this request asks for ${
    describe(asked)
  }. ` +
    "A session keeps the toolsets it started with: send every request of a session to the same URL with " +
    "the same X-MCP-Toolsets header, or initialize a new session for other toolsets.";
}

function notFound(pathname: string): Response {
  return jsonError(404, `Nothing is served at ${pathname}.`);
}

function methodNotAllowed(allow: string): Response {
  return jsonError(405, `Method not allowed; use ${allow}.`, { allow });
}
