/**
 * The sessions of the streamable HTTP transport (`POST|GET|DELETE /mcp`): a server and transport per
 * `Mcp-Session-Id`, opened by an `initialize` without one. The sessions are bounded: one idle for longer than
 * the idle time is closed, and opening one past the limit closes the least recently used; the next request
 * of a closed session is told why. A session serves only the user who opened it and keeps the toolsets it
 * started with. Its events carry ids and are kept, bounded, in {@link ResumableEvents}, so a client whose
 * stream broke gets what it missed after `Last-Event-ID`.
 *
 * @module
 */
import {
  isInitializeRequest,
  type Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "../deps/mcp_sdk.ts";
import type { SignedInUser } from "./auth/entra_token.ts";
import { SessionUser } from "./auth/session_user.ts";
import type { ResumableEvents, SessionEventStore } from "./event_store.ts";
import { batchRefusal } from "./http_batches.ts";
import { bodyRequestId, parseJsonRpcBody } from "./http_bodies.ts";
import { type HttpGuard, jsonError } from "./http_security.ts";
import { negotiatedVersion } from "./protocol_version.ts";
import {
  answeringId,
  cancelledRequestIds,
  type RequestId,
  requestIds,
  sharedIdProblem,
  trackRunningRequests,
  withAnsweringId,
} from "./request_ids.ts";
import type { RequestScope } from "./toolset_scope.ts";

/** Sessions idle this long are closed by default, so abandoned clients do not hold servers for long. */
export const SESSION_IDLE_MS = 10 * 60 * 1000;
/**
 * Milliseconds a client waits before resuming a broken stream, sent as the SSE `retry` field of each
 * stream's first event (the SDK client otherwise starts from its own 1 s backoff).
 */
const RESUME_RETRY_MS = 1000;
/** Closed session ids remembered, so their next request is told why rather than just "not found". */
const REMEMBERED_CLOSED = 10_000;

export interface StreamableSessionsOptions {
  /** Reads request bodies within the HTTP front end's limits. */
  guard: HttpGuard;
  /** Where every session's events are kept for resumption. */
  events: ResumableEvents;
  /** Sessions kept at once; a new one beyond closes the least recently used. */
  maxSessions: number;
  /** A session without requests for this long is closed. */
  sessionIdleMs: number;
  /** A new tool server for a session asking for `scope`, acting for `user` when there is one. */
  createServer(scope: RequestScope, user: SessionUser | undefined): Server;
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

export class StreamableSessions {
  readonly #options: StreamableSessionsOptions;
  /** Open sessions, least recently used first (a use moves a session to the end). */
  readonly #sessions = new Map<string, StreamableSession>();
  /** Why recently closed sessions were closed, by id (bounded, oldest forgotten first). */
  readonly #closedReasons = new Map<string, string>();
  readonly #sweeper: ReturnType<typeof setInterval>;

  /** Starts the sweeper that closes idle sessions; none is open yet. */
  constructor(options: StreamableSessionsOptions) {
    this.#options = options;
    this.#sweeper = setInterval(
      () => this.#closeIdleSessions(),
      Math.min(60_000, Math.max(1000, options.sessionIdleMs / 4)),
    );
    // Node typings widen the id to an object; in Deno it is the number unrefTimer takes.
    Deno.unrefTimer(Number(this.#sweeper));
  }

  /** Number of open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Answers a `POST`, `GET` or `DELETE` to the endpoint, of a session or opening one. */
  async handle(request: Request, user: SignedInUser | undefined, scope: RequestScope): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) return await this.#continue(request, sessionId, user, scope);
    if (request.method !== "POST") {
      return jsonError(400, "Mcp-Session-Id header is required; start with an initialize request (POST).");
    }
    return await this.#open(request, user, scope);
  }

  /** Stops the idle sweeper and closes every session. */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((s) => s.server.close()));
  }

  /** A request of session `sessionId`: refused when the session is gone or not the requester's. */
  async #continue(
    request: Request,
    sessionId: string,
    user: SignedInUser | undefined,
    scope: RequestScope,
  ): Promise<Response> {
    const session = this.#sessions.get(sessionId);
    if (!session) {
      // The request's id, so the client can tell which of its requests this answers.
      const id = request.method === "POST" ? await bodyRequestId(this.#options.guard, request) : null;
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
    return await this.#post(request, session);
  }

  /** A POST of an open session: its requests are running until answered, and their ids taken till then. */
  async #post(request: Request, session: StreamableSession): Promise<Response> {
    const body = await parseJsonRpcBody(this.#options.guard, request);
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

  /** A POST without a session: its initialize opens one, kept once the transport names it. */
  async #open(request: Request, user: SignedInUser | undefined, scope: RequestScope): Promise<Response> {
    const body = await parseJsonRpcBody(this.#options.guard, request);
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
    const events = this.#options.events.forSession();
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
    const server = this.#options.createServer(scope, sessionUser);
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

  #closeIdleSessions(): void {
    const idleMs = this.#options.sessionIdleMs;
    const cutoff = Date.now() - idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastSeen < cutoff) {
        this.#closeSession(id, session, `it was idle for more than ${Math.round(idleMs / 1000)} s`);
      }
    }
  }

  /** At the session limit, closes the least recently used session(s) to admit one more. */
  #makeRoomForSession(): void {
    const maxSessions = this.#options.maxSessions;
    for (const [id, session] of this.#sessions) {
      if (this.#sessions.size < maxSessions) break;
      this.#closeSession(
        id,
        session,
        `the server keeps at most ${maxSessions} sessions (CATALOG_MCP_MAX_SESSIONS) and this one was ` +
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
