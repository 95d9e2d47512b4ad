/**
 * The legacy MCP HTTP+SSE transport (protocol revision 2024-11-05) over web-standard streams, so it runs on
 * `Deno.serve`. The SDK ships the same protocol only for Node's `http.ServerResponse`; this mirrors its wire
 * behaviour: a GET opens an event stream whose first `endpoint` event names where to POST messages, and the
 * server's messages come back as `message` events on that stream. This module writes the stream; what a
 * POST must be to carry a message is sse_messages.ts, and the open sessions of a server sse_sessions.ts.
 *
 * @module
 */
import {
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from "../deps/mcp_sdk.ts";
import { type PostLimits, readPostedMessage, textResponse } from "./sse_messages.ts";

/** How an {@linkcode SseServerTransport} talks to its client. */
export interface SseServerTransportOptions extends PostLimits {
  /** Path (relative or absolute) clients POST messages to; the transport appends `?sessionId=<id>`. e.g. "/messages" */
  messagesPath: string;
  /** Keep-alive comment interval in ms (default 15000; 0 disables). */
  keepAliveMs?: number;
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
const ALREADY_STARTED =
  "SseServerTransport already started! If using Server class, note that connect() calls start() automatically.";
const encoder = new TextEncoder();

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
      return textResponse(500, "SSE connection not established");
    }
    const message = await readPostedMessage(request, this.#options, (error) => this.onerror?.(error));
    if (message instanceof Response) return message;
    const requestInfo = { headers: Object.fromEntries(request.headers), url: new URL(request.url) };
    try {
      this.onmessage?.(message, { ...extra, requestInfo: extra?.requestInfo ?? requestInfo });
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return textResponse(500, "Internal error while handling the message");
    }
    return textResponse(202, "Accepted");
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
