/**
 * The open sessions of the legacy HTTP+SSE transport, one {@linkcode SseServerTransport} each: `GET /sse`
 * opens one, a `POST /messages?sessionId=…` reaches its own. They are bounded: opening one past the limit
 * closes the least recently used, and a POST to a session closed for a reason is told the reason.
 *
 * @module
 */
import { textResponse } from "./sse_messages.ts";
import { SseServerTransport, type SseServerTransportOptions } from "./sse_transport.ts";

/** Options for {@linkcode SseSessions}: transport options plus how to attach each new session to a server. */
export interface SseSessionsOptions extends SseServerTransportOptions {
  /** Attaches a new transport, e.g. creates an MCP `Server` and calls `server.connect(transport)`. */
  connect(transport: SseServerTransport): Promise<void>;
  /** Sessions kept at once (default 1000); opening one more closes the least recently used. */
  maxSessions?: number;
}

/** Closed session ids remembered, so a POST to one is told why it is gone. */
const REMEMBERED_CLOSED = 10_000;

/**
 * The open SSE sessions of one HTTP front end, keyed by session id.
 *
 * @example
 * ```ts
 * import type { Server } from "../deps/mcp_sdk.ts";
 * import { SseSessions } from "./sse_sessions.ts";
 * function sseHandler(newServer: () => Server): (request: Request) => Promise<Response> {
 *   const sessions = new SseSessions({ messagesPath: "/messages", connect: (t) => newServer().connect(t) });
 *   return (request) => new URL(request.url).pathname === "/sse" ? sessions.open(request) : sessions.post(request);
 * }
 * ```
 */
export class SseSessions {
  readonly #options: SseSessionsOptions;
  /** Open sessions, least recently used first. */
  readonly #sessions = new Map<string, SseServerTransport>();
  readonly #closedReasons = new Map<string, string>();

  /** Sessions are created by {@linkcode open}; none exist yet. */
  constructor(options: SseSessionsOptions) {
    this.#options = options;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Answers GET /sse (405 for other methods): opens a session that lasts until either side closes it. */
  async open(request: Request): Promise<Response> {
    if (request.method !== "GET") {
      return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET" } });
    }
    const { connect: _, maxSessions = 1000, ...transportOptions } = this.#options;
    for (const [id, oldest] of this.#sessions) {
      if (this.#sessions.size < maxSessions) break;
      this.#remember(
        id,
        `the server keeps at most ${maxSessions} sessions (CATALOG_MCP_MAX_SESSIONS) and this one was the ` +
          "least recently used",
      );
      this.#sessions.delete(id);
      await oldest.close();
    }
    const transport = new SseServerTransport(transportOptions);
    this.#sessions.set(transport.sessionId, transport);
    transport.closed.then(() => {
      if (transport.closeReason) this.#remember(transport.sessionId, transport.closeReason);
      this.#sessions.delete(transport.sessionId);
    });
    try {
      await this.#options.connect(transport);
    } catch (error) {
      await transport.close();
      return textResponse(
        500,
        `Could not start the MCP session: ${error instanceof Error ? error.message : error}`,
      );
    }
    // Not request.signal: Deno.serve (legacy mode) also aborts it when a response completes, and warns.
    // A client disconnect cancels the response body, which closes the transport just the same.
    return transport.response();
  }

  /** Answers POST /messages?sessionId=…: 400 without a session id, 404 for an unknown one. */
  async post(request: Request): Promise<Response> {
    const sessionId = new URL(request.url).searchParams.get("sessionId");
    const transport = sessionId ? this.#sessions.get(sessionId) : undefined;
    if (!transport) {
      await request.body?.cancel();
      if (!sessionId) return textResponse(400, "Missing sessionId query parameter");
      const reason = this.#closedReasons.get(sessionId);
      return textResponse(404, reason ? `Session closed: ${reason}. Open a new one.` : "Session not found");
    }
    // Most recently used last: the map's order is the eviction order.
    this.#sessions.delete(transport.sessionId);
    this.#sessions.set(transport.sessionId, transport);
    return await transport.handlePostMessage(request);
  }

  #remember(sessionId: string, reason: string): void {
    this.#closedReasons.set(sessionId, reason);
    if (this.#closedReasons.size > REMEMBERED_CLOSED) {
      this.#closedReasons.delete(this.#closedReasons.keys().next().value!);
    }
  }

  /** Closes every open session, e.g. on shutdown. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((transport) => transport.close()));
  }
}
