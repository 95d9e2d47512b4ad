/**
 * The ids of a streamable HTTP session's requests: a POST body's, the ones its batch repeats or its
 * cancellations free, and those the transport has not answered yet. The SDK's transport keeps one stream
 * per request id, so two requests sharing an id would share one answer and leave the other stream open.
 *
 * @module
 */
import { isJSONRPCRequest, type WebStandardStreamableHTTPServerTransport } from "../deps/mcp_sdk.ts";

export type RequestId = string | number;

/** The JSON-RPC request ids of a POST body (one message or a batch). */
export function requestIds(body: unknown): RequestId[] {
  return (Array.isArray(body) ? body : [body]).filter((message) => isJSONRPCRequest(message))
    .map((message) => (message as { id: RequestId }).id);
}

/**
 * The id an error about `body` answers (JSON-RPC 2.0 §5: the request's id, null when it cannot be
 * detected): a single message's own id, if it carries a valid one and is not an answer to one of the
 * server's requests (whose id is the server's, not the client's); null for a batch or anything else.
 */
export function answeringId(body: unknown): RequestId | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const message = body as Record<string, unknown>;
  if ("result" in message || "error" in message) return null;
  const id = message.id;
  return typeof id === "string" || Number.isInteger(id) ? id as RequestId : null;
}

/**
 * `response` with `id` in place of the null id of its JSON-RPC error: the SDK's transport writes every
 * error it answers itself (a wrong header, a session it does not know) with `"id": null`. Any other
 * response is returned as it is.
 */
export async function withAnsweringId(response: Response, id: RequestId | null): Promise<Response> {
  if (id === null || response.status < 400) return response;
  if (!response.headers.get("content-type")?.toLowerCase().startsWith("application/json")) return response;
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return new Response(text, { status: response.status, headers: response.headers });
  }
  const error = answer as { error?: unknown; id?: unknown };
  if (typeof error === "object" && error !== null && error.error !== undefined && error.id === null) {
    error.id = id;
  }
  return new Response(JSON.stringify(answer), { status: response.status, headers: response.headers });
}

/** The ids of the requests a POST body's `notifications/cancelled` cancel. */
export function cancelledRequestIds(body: unknown): RequestId[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message) => {
    const id = message?.method === "notifications/cancelled" ? message.params?.requestId : undefined;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}

/**
 * Why these requests cannot be taken, if two of them share an id or one has the id of a request of the
 * session still `running`: the transport would give both the one answer and leave the other stream open.
 */
export function sharedIdProblem(ids: RequestId[], running?: Set<RequestId>): string | undefined {
  const seen = new Set<RequestId>();
  for (const id of ids) {
    if (running?.has(id)) {
      return `Invalid Request: a request with id ${JSON.stringify(id)} is still running in this session; ` +
        "give each request of a session an id of its own.";
    }
    if (seen.has(id)) {
      return `Invalid Request: the batch has more than one request with id ${JSON.stringify(id)}; ` +
        "give each request of a session an id of its own.";
    }
    seen.add(id);
  }
  return undefined;
}

/**
 * The ids of the requests `transport` has been given and not yet answered: added as each POST's requests
 * reach the server, removed as their answers leave (even an answer that cannot be delivered).
 */
export function trackRunningRequests(
  transport: InstanceType<typeof WebStandardStreamableHTTPServerTransport>,
): Set<RequestId> {
  const running = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!("method" in message) && "id" in message) running.delete(message.id as RequestId);
    return send(message, options);
  };
  return running;
}
