import assert from "node:assert/strict";
import {
  CallToolRequestSchema,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  loadMcpClientSdk,
  Server,
} from "../../../lib/deps/mcp_sdk.ts";
import {
  SseServerTransport,
  type SseServerTransportOptions,
  SseSessions,
} from "../../../lib/mcp/sse_transport.ts";

const NON_ASCII = "Zoë – 東京";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

function newMcpServer(): Server {
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
async function within<T>(promise: Promise<T>, ms = 5_000, what = "operation"): Promise<T> {
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

async function eventually(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface SseEvent {
  event?: string;
  data?: string;
  comment?: string;
}

/** A minimal SSE parser over a response body; enough for the single-line events the transport writes. */
class EventReader {
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

interface Harness {
  base: string;
  sessions: SseSessions;
  close(): Promise<void>;
}

function startHarness(options: Partial<SseServerTransportOptions> = {}): Harness {
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
async function openStream(base: string): Promise<{ events: EventReader; endpoint: URL }> {
  const response = await fetch(`${base}/sse`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const events = new EventReader(response.body!);
  const first = await events.next();
  assert.equal(first?.event, "endpoint");
  return { events, endpoint: new URL(first.data!, base) };
}

function postJson(url: URL | string, body: string, headers: HeadersInit = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
}

Deno.test("the SDK's own SSE client lists and calls tools, and closing it ends the session", async () => {
  const harness = startHarness();
  const { Client, SSEClientTransport } = await loadMcpClientSdk();
  const client = new Client({ name: "t", version: "0" });
  try {
    await within(client.connect(new SSEClientTransport(new URL(`${harness.base}/sse`))), 5_000, "connect");
    assert.equal(harness.sessions.size, 1);

    const { tools }: { tools: { name: string }[] } = await within(client.listTools(), 5_000, "listTools");
    assert.deepEqual(tools.map((tool) => tool.name), ["echo"]);

    const result: Record<string, unknown> = await within(
      client.callTool({ name: "echo", arguments: { text: NON_ASCII } }),
    );
    assert.deepEqual(result.content, [{ type: "text", text: NON_ASCII }]);

    await client.close();
    await eventually(() => harness.sessions.size === 0, "the session to be removed after client.close()");
  } finally {
    await client.close();
    await harness.close();
  }
});

Deno.test("raw protocol: endpoint event first, POST answers 202, the reply arrives as a message event", async () => {
  const harness = startHarness();
  const { events, endpoint } = await openStream(harness.base);
  try {
    assert.equal(endpoint.pathname, "/messages");
    assert.match(
      endpoint.searchParams.get("sessionId")!,
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );

    const accepted = await postJson(endpoint, JSON.stringify(INITIALIZE));
    assert.equal(accepted.status, 202);
    assert.equal(await accepted.text(), "Accepted");

    const reply = await events.next();
    assert.equal(reply?.event, "message");
    const message = JSON.parse(reply.data!);
    assert.equal(message.id, 1);
    assert.equal(message.result.protocolVersion, "2024-11-05");
    assert.equal(message.result.serverInfo.name, "test");
  } finally {
    await events.cancel();
    await harness.close();
  }
});

Deno.test("the client dropping its event stream closes and unregisters the session", async () => {
  const harness = startHarness();
  try {
    const { events } = await openStream(harness.base);
    assert.equal(harness.sessions.size, 1);
    await events.cancel();
    await eventually(() => harness.sessions.size === 0, "the session to close after the client disconnected");
  } finally {
    await harness.close();
  }
});

Deno.test("POST errors: 400 without sessionId, 404 unknown, 415 content type, 400 bad JSON/JSON-RPC, 413", async () => {
  const harness = startHarness({ maxBodyBytes: 256 });
  const { events, endpoint } = await openStream(harness.base);
  try {
    const noSession = await postJson(`${harness.base}/messages`, JSON.stringify(INITIALIZE));
    assert.equal(noSession.status, 400);
    await noSession.body?.cancel();

    const unknown = await postJson(`${harness.base}/messages?sessionId=${crypto.randomUUID()}`, "{}");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();

    const wrongType = await postJson(endpoint, JSON.stringify(INITIALIZE), { "content-type": "text/plain" });
    assert.equal(wrongType.status, 415);
    await wrongType.body?.cancel();

    const withCharset = await postJson(
      endpoint,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      { "content-type": "Application/JSON; charset=UTF-8" },
    );
    assert.equal(withCharset.status, 202, "media type and charset are case-insensitive");
    await withCharset.body?.cancel();

    const badJson = await postJson(endpoint, "{not json");
    assert.equal(badJson.status, 400);
    assert.equal((await badJson.json()).error.code, -32700);

    const notJsonRpc = await postJson(endpoint, JSON.stringify({ hello: "world" }));
    assert.equal(notJsonRpc.status, 400);
    assert.equal((await notJsonRpc.json()).error.code, -32600);

    const oversized = await postJson(endpoint, JSON.stringify({ ...INITIALIZE, padding: "x".repeat(1_000) }));
    assert.equal(oversized.status, 413);
    await oversized.body?.cancel();

    // Without Content-Length the limit must still hold on the bytes that actually arrive.
    const chunk = new TextEncoder().encode("x".repeat(200));
    const chunked = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: ReadableStream.from([chunk, chunk]),
    });
    assert.equal(chunked.status, 413);
    await chunked.body?.cancel();

    assert.equal(harness.sessions.size, 1, "rejected POSTs leave the session open");
  } finally {
    await events.cancel();
    await harness.close();
  }
});

Deno.test("keep-alive comments arrive at the configured interval and stop on close", async () => {
  const harness = startHarness({ keepAliveMs: 30 });
  const { events } = await openStream(harness.base);
  try {
    const next = await events.next();
    assert.equal(next?.comment, "keep-alive");
    await harness.sessions.closeAll();
    // The stream ends instead of ticking forever; a leaked interval would also fail the sanitizer.
    let event: SseEvent | undefined;
    do event = await events.next(); while (event?.comment === "keep-alive");
    assert.equal(event, undefined);
  } finally {
    await events.cancel();
    await harness.close();
  }
});

Deno.test("transport lifecycle: start once, 500 before start and after close, onclose once, send after close rejects", async () => {
  const transport = new SseServerTransport({
    messagesPath: "https://elsewhere.example/rpc?x=1",
    keepAliveMs: 0,
  });
  let closes = 0;
  const received: JSONRPCMessage[] = [];
  transport.onclose = () => closes++;
  transport.onmessage = (message) => received.push(message);
  const events = new EventReader(transport.response().body!);
  assert.throws(() => transport.response(), /only be called once/);

  const endpoint = await events.next();
  assert.equal(endpoint?.event, "endpoint");
  assert.equal(endpoint.data, `/rpc?x=1&sessionId=${transport.sessionId}`, "path and query only, as the SDK");

  const post = () =>
    transport.handlePostMessage(
      new Request("http://127.0.0.1/rpc", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      }),
    );
  const early = await post();
  assert.equal(early.status, 500);
  assert.equal(await early.text(), "SSE connection not established");
  await assert.rejects(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 }), /Not connected/);

  await transport.start();
  await assert.rejects(transport.start(), /already started/);
  assert.equal((await post()).status, 202);
  assert.equal(received.length, 1);

  await transport.send({ jsonrpc: "2.0", id: 7, result: { text: NON_ASCII } });
  const sent = await events.next();
  assert.equal(sent?.event, "message");
  assert.equal(JSON.parse(sent.data!).result.text, NON_ASCII, "multi-byte text survives encoding");

  await transport.close();
  await transport.close();
  await transport.closed;
  assert.equal(closes, 1);
  assert.equal(await events.next(), undefined, "the stream has ended");
  await assert.rejects(transport.send({ jsonrpc: "2.0", method: "ping", id: 2 }), /Not connected/);
  assert.equal((await post()).status, 500);
});

Deno.test("aborting the request signal closes the transport and ends its stream", async () => {
  const transport = new SseServerTransport({ messagesPath: "/messages", keepAliveMs: 10 });
  let closes = 0;
  transport.onclose = () => closes++;
  const disconnect = new AbortController();
  const events = new EventReader(transport.response(disconnect.signal).body!);
  await transport.start();
  assert.equal((await events.next())?.event, "endpoint");
  disconnect.abort();
  await within(transport.closed, 1_000, "closing on abort");
  assert.equal(closes, 1);
  let event: SseEvent | undefined;
  do event = await events.next(); while (event?.comment === "keep-alive");
  assert.equal(event, undefined);

  const alreadyGone = new SseServerTransport({ messagesPath: "/messages" });
  alreadyGone.response(AbortSignal.abort());
  await within(alreadyGone.closed, 1_000, "closing on an already-aborted signal");
});
