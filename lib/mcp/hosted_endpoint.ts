/**
 * The MCP endpoint of the hosted mode (`/api/mcp`): stateless streamable HTTP, as an Azure
 * Functions custom handler receives it, where any instance may get any request and none may rely on
 * memory another request left behind.
 *
 * - `POST`: a fresh server and transport for the request. A request is answered as an SSE stream, so a
 *   long tool call streams its progress and log notifications before its result. The call stops when
 *   its client goes away (the stream is cancelled) or cancels it (`notifications/cancelled` in another
 *   POST, matched by {@link HostedCalls}).
 * - Sessions, as the spec's "GET initialises a session and DELETE tears it down" allows statelessly: a
 *   session is only a random id, handed out with `initialize` (as `Mcp-Session-Id`) or by a plain `GET`,
 *   that the client sends back. The server keeps nothing for it, so every instance serves it; it names
 *   the caller, which is what lets a cancellation reach that caller's calls and no one else's. `DELETE`
 *   stops the session's running calls, and the instance answers 404 to the id afterwards (other instances
 *   cannot know: a stateless host can only make teardown best effort).
 * - `GET` asking for an event stream (MCP's stream for server-initiated messages) is 405: a stateless
 *   server sends nothing unsolicited, and an idle open stream would hold a Functions instance for nothing.
 *
 * @module
 */
import {
  isInitializeRequest,
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCMessage,
  WebStandardStreamableHTTPServerTransport,
} from "../deps/mcp_sdk.ts";
import { HostedCalls } from "./hosted_calls.ts";
import { batchRefusal, requestVersion } from "./http_batches.ts";
import { jsonError } from "./http_security.ts";
import { answeringId, withAnsweringId } from "./request_ids.ts";
import type { Server } from "../deps/mcp_sdk.ts";
import type { SignedInUser } from "./auth/entra_token.ts";
import type { ToolSelection } from "./tool_selection.ts";

export interface HostedEndpointOptions {
  /** A new tool server over `selection`, one per request, acting for the signed-in user when there is one. */
  createServer(user: SignedInUser | undefined, selection: ToolSelection): Server;
  /** Reads and parses a POST body; a Response is a refusal to return as it is. */
  parseBody(request: Request): Promise<unknown | Response>;
}

/** Session ids ended by DELETE remembered by this instance, oldest forgotten first. */
const REMEMBERED_ENDED = 10_000;

export class HostedEndpoint {
  readonly #options: HostedEndpointOptions;
  readonly #calls = new HostedCalls();
  readonly #ended = new Set<string>();

  constructor(options: HostedEndpointOptions) {
    this.#options = options;
  }

  /** Number of calls running. */
  get runningCalls(): number {
    return this.#calls.size;
  }

  /**
   * Answers one request; `user` is the signed-in user (Entra sign-in), whose calls only their own session
   * id reaches: with sign-in, a session is the user's and the id together. `selection`: the tools of this
   * request (its toolsets); a stateless server has no session to keep them, so each request says them.
   */
  async handle(
    request: Request,
    user: SignedInUser | undefined,
    selection: ToolSelection,
  ): Promise<Response> {
    const given = request.headers.get("mcp-session-id") ?? undefined;
    const sessionId = given !== undefined && user ? `${user.tenantId}/${user.objectId}/${given}` : given;
    if (sessionId !== undefined && this.#ended.has(sessionId)) {
      // The request's id, so the client can tell which of its requests this answers.
      const body = request.method === "POST" ? await this.#options.parseBody(request) : undefined;
      return jsonError(
        404,
        `Session ${given} was ended by a DELETE request. Initialize a new session.`,
        {},
        -32001,
        body instanceof Response ? null : answeringId(body),
      );
    }
    if (request.method === "GET") return this.#get(request);
    if (request.method === "DELETE") return this.#delete(sessionId);
    if (request.method !== "POST") return methodNotAllowed();
    const body = await this.#options.parseBody(request);
    if (body instanceof Response) return body;
    const refusedBatch = batchRefusal(body, requestVersion(request, body));
    if (refusedBatch) return refusedBatch;
    return await this.#post(request, body, sessionId, user, selection);
  }

  /** Stops every running call, which ends their response streams. */
  close(): void {
    this.#calls.stopAll();
  }

  #get(request: Request): Response {
    if ((request.headers.get("accept") ?? "").includes("text/event-stream")) {
      return jsonError(
        405,
        "Method not allowed: this stateless server sends no messages outside a request's own response, " +
          "so it offers no GET event stream. Send requests with POST.",
        { allow: "GET, POST, DELETE" },
      );
    }
    const sessionId = crypto.randomUUID();
    return Response.json({
      sessionId,
      message: "Send this id as the Mcp-Session-Id header of your requests: a notifications/cancelled " +
        "then stops your own call, and DELETE with it stops all of them. The server keeps no state for it.",
    }, { headers: { "mcp-session-id": sessionId } });
  }

  #delete(sessionId: string | undefined): Response {
    if (sessionId === undefined) {
      return jsonError(
        400,
        "Mcp-Session-Id header is required: DELETE ends the session it names (the id initialize or GET " +
          "returned).",
      );
    }
    this.#calls.endSession(sessionId);
    this.#ended.add(sessionId);
    if (this.#ended.size > REMEMBERED_ENDED) this.#ended.delete(this.#ended.values().next().value!);
    return new Response(null, { status: 200 });
  }

  async #post(
    request: Request,
    body: unknown,
    sessionId: string | undefined,
    user: SignedInUser | undefined,
    selection: ToolSelection,
  ): Promise<Response> {
    const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    if (sessionId !== undefined) {
      for (const message of messages) {
        const requestId = cancelledRequestId(message);
        if (requestId !== undefined) this.#calls.cancel(sessionId, requestId);
      }
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = this.#options.createServer(user, selection);
    await server.connect(transport);
    let response: Response;
    try {
      response = await transport.handleRequest(request, { parsedBody: body });
    } catch (error) {
      await server.close();
      throw error;
    }
    const headers = new Headers(response.headers);
    // The one place a session starts: the initialize answer carries its id, as a stateful server's does.
    if (messages.some((message) => isInitializeRequest(message))) {
      headers.set("mcp-session-id", crypto.randomUUID());
    }
    if (!response.body || !headers.get("content-type")?.startsWith("text/event-stream")) {
      // Notifications only (202), or a refusal: complete already, so this request's server can go.
      await server.close();
      return await withAnsweringId(
        new Response(response.body, { status: response.status, headers }),
        answeringId(body),
      );
    }
    const requestIds = messages.filter((message) => isJSONRPCRequest(message)).map((message) =>
      (message as { id: string | number }).id
    );
    // Closing the server aborts its handlers (their signal) and ends the transport's streams.
    const stop = () => void server.close().catch(() => {});
    const untrack = this.#calls.track(sessionId, requestIds, stop);
    const ended = () => {
      untrack();
      stop();
    };
    return new Response(followed(response.body, ended), { status: response.status, headers });
  }
}

/** The id a `notifications/cancelled` names, if `message` is one. */
function cancelledRequestId(message: unknown): string | number | undefined {
  if (!isJSONRPCNotification(message) || message.method !== "notifications/cancelled") return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
}

/**
 * `body` passed through, calling `ended` once when it finishes or its reader cancels it: Deno cancels a
 * response body whose client has closed the connection. `request.signal` is no help here: in Deno 2.9's
 * default mode it aborts even when a response completes normally, so it cannot tell a departed client.
 */
function followed(body: ReadableStream<Uint8Array>, ended: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    ended();
  };
  return new ReadableStream({
    async pull(controller) {
      try {
        const read = await reader.read();
        if (read.done) {
          finish();
          controller.close();
        } else {
          controller.enqueue(read.value);
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason).catch(() => {});
    },
  });
}

function methodNotAllowed(): Response {
  return jsonError(405, "Method not allowed; use POST (GET issues a session id, DELETE ends one).", {
    allow: "GET, POST, DELETE",
  });
}
