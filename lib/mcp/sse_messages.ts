/**
 * The POST endpoint of the legacy HTTP+SSE transport: what a client's POST must be to carry a message.
 * One JSON-RPC message per POST, as `application/json` in a charset the runtime decodes, within a size and
 * a time limit; each refusal is answered as the SDK's own SSE transport answers it (415, 413, 408, and 400
 * with JSON-RPC error -32700 or -32600).
 *
 * @module
 */
import { type JSONRPCMessage, JSONRPCMessageSchema } from "../deps/mcp_sdk.ts";
import { answeringId, type RequestId } from "./request_ids.ts";

/** The limits of a POSTed body; a default applies to each one left out. */
export interface PostLimits {
  /** Largest accepted POST body in bytes (default 4 MiB); bigger → 413. */
  maxBodyBytes?: number;
  /** Time a POST body may take to arrive, in ms (default 30000); slower → 408. */
  bodyTimeoutMs?: number;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/** A plain-text answer with `status`, as the SDK's SSE transport gives outside JSON-RPC. */
export function textResponse(status: number, body: string): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** `id`: the id of the request answered, when the body carried one (JSON-RPC 2.0 §5). */
function jsonRpcError(status: number, code: number, message: string, id: RequestId | null = null): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}

/**
 * The one JSON-RPC message `request` carries, or the refusal to answer it with. `onerror` hears why a
 * body that arrived is not a message (bad JSON, not JSON-RPC), as a transport's `onerror` does.
 */
export async function readPostedMessage(
  request: Request,
  limits: PostLimits,
  onerror: (error: Error) => void,
): Promise<JSONRPCMessage | Response> {
  const [mediaType, ...parameters] = (request.headers.get("content-type") ?? "").split(";");
  if (mediaType.trim().toLowerCase() !== "application/json") {
    await request.body?.cancel();
    return textResponse(415, "Unsupported Media Type: Content-Type must be application/json");
  }
  const charset = parameters.map((p) => p.trim().split("=")).find(([k]) => k.toLowerCase() === "charset");
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset?.[1]?.replace(/"/g, "") ?? "utf-8", { fatal: true });
  } catch {
    await request.body?.cancel();
    return textResponse(415, `Unsupported charset: ${charset?.[1]}`);
  }
  const body = await readBody(
    request,
    limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    limits.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
  );
  if (body === "large") return textResponse(413, "Payload Too Large");
  if (body === "late") return textResponse(408, "Request Timeout: the body did not arrive in time");

  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(body));
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    return jsonRpcError(400, -32700, "Parse error: body is not valid JSON");
  }
  if (Array.isArray(parsed)) {
    // As the SDK's own SSE transport: one message per POST. Batches came in 2025-03-26, after this
    // transport was replaced, and went again in 2025-06-18.
    return jsonRpcError(
      400,
      -32600,
      "Invalid Request: the HTTP+SSE transport takes one JSON-RPC message per POST, not a batch; send " +
        "each message in a POST of its own.",
    );
  }
  const checked = JSONRPCMessageSchema.safeParse(parsed);
  if (!checked.success) {
    onerror(new Error(`Invalid JSON-RPC message: ${checked.error.message}`));
    return jsonRpcError(400, -32600, "Invalid Request: not a JSON-RPC message", answeringId(parsed));
  }
  return checked.data;
}

/** Reads at most `limit` bytes of `request`'s body within `timeoutMs`; "large" or "late" otherwise. */
async function readBody(
  request: Request,
  limit: number,
  timeoutMs: number,
): Promise<Uint8Array | "large" | "late"> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) {
    await request.body?.cancel();
    return "large";
  }
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => timer = setTimeout(() => resolve("late"), timeoutMs));
  try {
    for (;;) {
      // A trickled body would hold the request (and its slot) for as long as the peer likes.
      const read = await Promise.race([reader.read(), late]);
      if (read === "late") {
        reader.cancel().catch(() => {});
        return "late";
      }
      if (read.done) break;
      total += read.value.byteLength;
      // Content-Length can lie or be absent (chunked), so the limit is enforced on what actually arrives.
      if (total > limit) {
        reader.cancel().catch(() => {});
        return "large";
      }
      chunks.push(read.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
