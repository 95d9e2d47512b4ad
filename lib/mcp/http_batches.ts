/**
 * JSON-RPC batches over the HTTP transports, refused as stdio refuses them (`stdio_guard.ts`): MCP removed
 * batching in revision 2025-06-18 ("Remove support for JSON-RPC batching",
 * https://modelcontextprotocol.io/specification/2025-06-18/changelog), and 2025-11-25 has none either. A
 * session that negotiated 2025-06-18 or later gets one -32600 error (id null: a batch has no one id) with
 * HTTP 400, as the SDK's transport answers the batches it refuses; an older session (2025-03-26 allowed
 * batches) keeps them.
 *
 * @module
 */
import { isInitializeRequest, SUPPORTED_PROTOCOL_VERSIONS } from "../deps/mcp_sdk.ts";
import { jsonError } from "./http_security.ts";
import { negotiatedVersion } from "./protocol_version.ts";
import { NO_BATCH_SINCE } from "./stdio_guard.ts";

/**
 * The revision assumed for an HTTP request that names none: MCP's transports (2025-06-18) say a server
 * without an `MCP-Protocol-Version` header should assume 2025-03-26, as the SDK's transport does.
 */
const UNNAMED_HTTP_VERSION = "2025-03-26";

/**
 * The revision a POST without a session of its own speaks (hosted mode): the one its `initialize`
 * negotiates, else its `MCP-Protocol-Version` header, else the transports' default.
 */
export function requestVersion(request: Request, body: unknown): string {
  const initialize = (Array.isArray(body) ? body : [body]).find((message) => isInitializeRequest(message));
  if (initialize) return negotiatedVersion(initialize);
  const named = request.headers.get("mcp-protocol-version");
  return named !== null && SUPPORTED_PROTOCOL_VERSIONS.includes(named) ? named : UNNAMED_HTTP_VERSION;
}

/** The refusal of `body` when it is a batch and `version` has none; undefined otherwise. */
export function batchRefusal(body: unknown, version: string): Response | undefined {
  if (!Array.isArray(body) || version < NO_BATCH_SINCE) return undefined;
  return jsonError(
    400,
    `Invalid Request: MCP has no JSON-RPC batches since revision ${NO_BATCH_SINCE} and this session uses ` +
      `${version}; send each message in a POST of its own.`,
    {},
    -32600,
  );
}
