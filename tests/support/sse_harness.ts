/**
 * A real `Deno.serve` on 127.0.0.1 in front of {@linkcode SseSessions}, each session served by a one-tool
 * MCP server, and a reader of the event streams it writes: what the tests of the legacy HTTP+SSE
 * transport's modules (sse_transport.ts, sse_messages.ts, sse_sessions.ts) share.
 *
 * @module
 */
import assert from "node:assert/strict";
import { CallToolRequestSchema, ListToolsRequestSchema, Server } from "../../lib/deps/mcp_sdk.ts";
import type { SseServerTransportOptions } from "../../lib/mcp/sse_transport.ts";
import { SseSessions } from "../../lib/mcp/sse_sessions.ts";

export const NON_ASCII = "Zoë – 東京";
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

export function newMcpServer(): Server {
  const server = new Server({ name: "test", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{
      name: "echo",
      description: "Answers with its text argument.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    }],
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (request: { params: { arguments?: Record<string, unknown> } }) => ({
      content: [{ type: "text", text: String(request.params.arguments?.text) }],
    }),
  );
  return server;
}

/** Settles with `promise`, or fails after `ms` so a broken stream cannot hang the suite. */
export async function within<T>(promise: Promise<T>, ms = 5_000, what = "operation"): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function eventually(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface SseEvent {
  event?: string;
  data?: string;
  comment?: string;
}

/** A minimal SSE parser over a response body; enough for the single-line events the transport writes. */
export class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next event, or undefined once the stream has ended. */
  async next(): Promise<SseEvent | undefined> {
    while (!this.#buffer.includes("\n\n")) {
      const { done, value } = await within(this.#reader.read(), 5_000, "reading the event stream");
      if (done) return undefined;
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
    const end = this.#buffer.indexOf("\n\n");
    const block = this.#buffer.slice(0, end);
    this.#buffer = this.#buffer.slice(end + 2);
    const event: SseEvent = {};
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) event.comment = line.slice(1).trim();
      else if (line.startsWith("event: ")) event.event = line.slice(7);
      else if (line.startsWith("data: ")) event.data = line.slice(6);
    }
    return event;
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

export interface SseHarness {
  base: string;
  sessions: SseSessions;
  close(): Promise<void>;
}

export function startSseHarness(options: Partial<SseServerTransportOptions> = {}): SseHarness {
  const sessions = new SseSessions({
    messagesPath: "/messages",
    keepAliveMs: 0,
    ...options,
    connect: (transport) => newMcpServer().connect(transport),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === "GET" && pathname === "/sse") return sessions.open(request);
    if (request.method === "POST" && pathname === "/messages") return sessions.post(request);
    return new Response("Not found", { status: 404 });
  });
  return {
    base: `http://127.0.0.1:${server.addr.port}`,
    sessions,
    async close() {
      // Open event streams would keep shutdown() waiting, so end them first.
      await sessions.closeAll();
      await server.shutdown();
    },
  };
}

/** Opens GET /sse and returns the reader plus the absolute URL from the endpoint event. */
export async function openStream(base: string): Promise<{ events: EventReader; endpoint: URL }> {
  const response = await fetch(`${base}/sse`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const events = new EventReader(response.body!);
  const first = await events.next();
  assert.equal(first?.event, "endpoint");
  return { events, endpoint: new URL(first.data!, base) };
}

export function postJson(url: URL | string, body: string, headers: HeadersInit = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}
