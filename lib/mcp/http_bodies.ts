/**
 * The JSON-RPC bodies of POSTs to the streamable and hosted MCP endpoints, read within the limits of the
 * {@link HttpGuard} and refused with the JSON-RPC error a client can act on: -32700 when the body is not
 * JSON, -32600 for an empty batch or a batch that repeats a request id.
 *
 * @module
 */
import { type HttpGuard, jsonError } from "./http_security.ts";
import { answeringId, type RequestId, requestIds, sharedIdProblem } from "./request_ids.ts";

/** Reads the JSON-RPC body within the size limit; a parse failure is JSON-RPC error -32700. */
export async function parseJsonRpcBody(guard: HttpGuard, request: Request): Promise<unknown | Response> {
  const read = await guard.readBody(request);
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

/** The id of the request in `request`'s body, read within the limits; null when there is none. */
export async function bodyRequestId(guard: HttpGuard, request: Request): Promise<RequestId | null> {
  const read = await guard.readBody(request);
  if ("refusal" in read) return null;
  try {
    return answeringId(JSON.parse(read.text));
  } catch {
    return null;
  }
}
