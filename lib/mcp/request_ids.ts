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
