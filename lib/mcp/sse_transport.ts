/**
 * The legacy MCP HTTP+SSE transport (protocol revision 2024-11-05) over web-standard streams, so it runs on
 * `Deno.serve`. The SDK ships the same protocol only for Node's `http.ServerResponse`; this mirrors its wire
 * behaviour: a GET opens an event stream whose first `endpoint` event names where to POST messages, and the
 * server's messages come back as `message` events on that stream.
 *
 * @module
 */
import {
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from "../deps/mcp_sdk.ts";
import { answeringId, type RequestId } from "./request_ids.ts";

/** How an {@linkcode SseServerTransport} talks to its client. */
export interface SseServerTransportOptions {
  /** Path (relative or absolute) clients POST messages to; the transport appends `?sessionId=<id>`. e.g. "/messages" */
  messagesPath: string;
  /** Keep-alive comment interval in ms (default 15000; 0 disables). */
  keepAliveMs?: number;
  /** Largest accepted POST body in bytes (default 4 MiB); bigger → 413. */
  maxBodyBytes?: number;
  /** Time a POST body may take to arrive, in ms (default 30000); slower → 408. */
  bodyTimeoutMs?: number;
  /**
   * Bytes the stream may hold that the client has not read yet (default 1 MiB). A message sent while more
   * than this is waiting closes the session instead of buffering without end: a client that does not read
   * must not grow the server.
   */
  maxBufferedBytes?: number;
}

const DEFAULT_KEEP_ALIVE_MS = 15_000;
/** Default of {@linkcode SseServerTransportOptions.maxBufferedBytes}. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;
const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const DEFAULT_BODY_TIMEOUT_MS = 30_000;
const ALREADY_STARTED =
  "SseServerTransport already started! If using Server class, note that connect() calls start() automatically.";
const encoder = new TextEncoder();

function text(status: number, body: string): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** `id`: the id of the request answered, when the body carried one (JSON-RPC 2.0 §5). */
function jsonRpcError(status: number, code: number, message: string, id: RequestId | null = null): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
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

/**
 * One client's SSE session: {@linkcode response} is the GET stream, {@linkcode handlePostMessage} takes the
 * client's POSTs. Pass it to `Server.connect`, which calls {@linkcode start}.
 *
 * @example
 * ```ts
 * import type { Server } from "../deps/mcp_sdk.ts";
 * import { SseServerTransport } from "./sse_transport.ts";
 * async function openStream(server: Server): Promise<Response> {
 *   const transport = new SseServerTransport({ messagesPath: "/messages" });
 *   await server.connect(transport);
 *   return transport.response(); // answers GET /sse; route its POSTs to transport.handlePostMessage
 * }
 * ```
 */
export class SseServerTransport implements Transport {
  /** Names this session in the endpoint URL the client POSTs to. */
  readonly sessionId: string = crypto.randomUUID();
  /** Settles once the transport has closed, whoever closed it; `onclose` may be replaced by a `Server`. */
  readonly closed: Promise<void>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Why the server closed the session, when it did so for a reason the client should hear. */
  closeReason?: string;

  readonly #options: SseServerTransportOptions;
  readonly #stream: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #resolveClosed!: () => void;
  #started = false;
  #responded = false;
  #isClosed = false;
  #keepAlive?: ReturnType<typeof setInterval>;
  #stopWatchingSignal?: () => void;

  /** Creates a session; the endpoint event is queued at once, so it is always the stream's first event. */
  constructor(options: SseServerTransportOptions) {
    this.#options = options;
    this.closed = new Promise((resolve) => this.#resolveClosed = resolve);
    // Sized in bytes, so desiredSize tells how far the reader is behind.
    this.#stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.#controller = controller),
        cancel: () => this.close(),
      },
      new ByteLengthQueuingStrategy({
        highWaterMark: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      }),
    );
    // The SDK resolves against a dummy origin and keeps path + query, so the client resolves it against
    // its own connection URL and never gets pointed at another origin.
    const endpoint = new URL(options.messagesPath, "http://localhost");
    endpoint.searchParams.set("sessionId", this.sessionId);
    this.#enqueue(`event: endpoint\ndata: ${endpoint.pathname}${endpoint.search}${endpoint.hash}\n\n`);
  }

  /**
   * The GET /sse response. The client cancelling the body, or `requestSignal` aborting, closes the transport.
   * Under `Deno.serve` leave `requestSignal` out: the cancel already reports a disconnect, and Deno's legacy
   * mode warns when a watched `request.signal` aborts on a completed response.
   *
   * @example
   * ```ts
   * const transport = new SseServerTransport({ messagesPath: "/messages" });
   * const response = transport.response(); // first event: `event: endpoint`
   * ```
   */
  response(requestSignal?: AbortSignal): Response {
    if (this.#responded) throw new Error("SseServerTransport.response() may only be called once");
    this.#responded = true;
    if (requestSignal?.aborted) void this.close();
    else if (requestSignal) {
      const onAbort = () => void this.close();
      requestSignal.addEventListener("abort", onAbort, { once: true });
      this.#stopWatchingSignal = () => requestSignal.removeEventListener("abort", onAbort);
    }
    const keepAliveMs = this.#options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    if (keepAliveMs > 0 && !this.#isClosed) {
      // Proxies and idle-timeouts drop silent connections; a comment line is ignored by SSE parsers.
      this.#keepAlive = setInterval(() => this.#enqueue(": keep-alive\n\n"), keepAliveMs);
    }
    return new Response(this.#stream, {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" },
    });
  }

  /**
   * Answers a POST carrying one JSON-RPC message for this session: 202 when accepted, 413 when too large,
   * 415 for a non-JSON content type, 400 for bad JSON or a non-JSON-RPC message, 500 when the stream is not
   * open (not started yet, or closed) as the SDK does.
   *
   * @example
   * ```ts
   * import { SseServerTransport } from "./sse_transport.ts";
   * async function post(transport: SseServerTransport, request: Request): Promise<Response> {
   *   return await transport.handlePostMessage(request); // 202 once the message is accepted
   * }
   * ```
   */
  async handlePostMessage(request: Request, extra?: MessageExtraInfo): Promise<Response> {
    if (!this.#started || this.#isClosed) {
      await request.body?.cancel();
      return text(500, "SSE connection not established");
    }
    const [mediaType, ...parameters] = (request.headers.get("content-type") ?? "").split(";");
    if (mediaType.trim().toLowerCase() !== "application/json") {
      await request.body?.cancel();
      return text(415, "Unsupported Media Type: Content-Type must be application/json");
    }
    const charset = parameters.map((p) => p.trim().split("=")).find(([k]) => k.toLowerCase() === "charset");
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(charset?.[1]?.replace(/"/g, "") ?? "utf-8", { fatal: true });
    } catch {
      await request.body?.cancel();
      return text(415, `Unsupported charset: ${charset?.[1]}`);
    }
    const body = await readBody(
      request,
      this.#options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      this.#options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    );
    if (body === "large") return text(413, "Payload Too Large");
    if (body === "late") return text(408, "Request Timeout: the body did not arrive in time");

    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(body));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
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
      this.onerror?.(new Error(`Invalid JSON-RPC message: ${checked.error.message}`));
      return jsonRpcError(400, -32600, "Invalid Request: not a JSON-RPC message", answeringId(parsed));
    }
    const requestInfo = { headers: Object.fromEntries(request.headers), url: new URL(request.url) };
    try {
      this.onmessage?.(checked.data, { ...extra, requestInfo: extra?.requestInfo ?? requestInfo });
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return text(500, "Internal error while handling the message");
    }
    return text(202, "Accepted");
  }

  /** Called by `Server.connect`; a second call throws, as in the SDK. */
  start(): Promise<void> {
    if (this.#started) return Promise.reject(new Error(ALREADY_STARTED));
    this.#started = true;
    return Promise.resolve();
  }

  /** Writes `message` as an `event: message` on the stream; rejects unless started and open. */
  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (!this.#started || this.#isClosed) return Promise.reject(new Error("Not connected"));
    if (!this.#enqueue(`event: message\ndata: ${JSON.stringify(message)}\n\n`)) {
      return Promise.reject(new Error("Not connected: the client stopped reading its event stream"));
    }
    return Promise.resolve();
  }

  /** Ends the stream and stops the keep-alive; `onclose` fires on the first call only. */
  close(): Promise<void> {
    return this.#close();
  }

  /** `discard`: drop what the client has not read (an error ends the stream at once) rather than keep it. */
  #close(discard = false): Promise<void> {
    if (this.#isClosed) return Promise.resolve();
    this.#isClosed = true;
    clearInterval(this.#keepAlive);
    this.#stopWatchingSignal?.();
    try {
      if (discard) this.#controller.error(new Error("the client fell behind reading its event stream"));
      else this.#controller.close();
    } catch {
      // Already cancelled by the client: nothing left to end.
    }
    this.#resolveClosed();
    this.onclose?.();
    return Promise.resolve();
  }

  /** Queues `event`; false when the stream is closed, or now closed because the client fell behind. */
  #enqueue(event: string): boolean {
    if (this.#isClosed) return false;
    if ((this.#controller.desiredSize ?? 0) < 0) {
      // More than the bound is waiting for a client that does not read: end the session, free the buffer.
      const limit = this.#options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
      this.closeReason = `the client fell behind reading its event stream by more than ${limit} bytes ` +
        "(CATALOG_MCP_STREAM_BUFFER_BYTES)";
      this.onerror?.(new Error(`SSE session ${this.sessionId} closed: ${this.closeReason}`));
      void this.#close(true);
      return false;
    }
    try {
      this.#controller.enqueue(encoder.encode(event));
      return true;
    } catch (error) {
      // The client cancelled between our check and the write; the cancel handler closes the transport.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }
}

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
 * import { SseSessions } from "./sse_transport.ts";
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
      return text(500, `Could not start the MCP session: ${error instanceof Error ? error.message : error}`);
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
      if (!sessionId) return text(400, "Missing sessionId query parameter");
      const reason = this.#closedReasons.get(sessionId);
      return text(404, reason ? `Session closed: ${reason}. Open a new one.` : "Session not found");
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
