/**
 * One session cannot freeze the HTTP server. Each sequence below once pegged the
 * server's main thread: it answered nobody after it, and only SIGKILL stopped it. After each, over real
 * HTTP against `govcat serve --emulator`, a second client initialises and calls a tool within a bound,
 * and SIGTERM stops the server within a bound.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { within, withServeProcess } from "../support/serve_process.ts";

const sdk = await loadMcpClientSdk();
type Client = InstanceType<typeof sdk.Client>;

/** How long one step may take on a loaded machine before the server counts as frozen. */
const STEP_MS = 15_000;

/** Runs `body` against a fresh `serve --emulator --transport=http`; it must stop cleanly on SIGTERM. */
async function withServer(body: (url: URL) => Promise<void>): Promise<void> {
  const stop = await withServeProcess(["--emulator", "--transport=http", "--port=0"], body);
  assert.equal(stop.code, 0, `a clean stop:\n${stop.stderr}`);
}

async function connect(url: URL, name: string): Promise<Client> {
  const client = new sdk.Client({ name, version: "1.0.0" });
  await within(STEP_MS, `${name}: initialize`, client.connect(new sdk.StreamableHTTPClientTransport(url)));
  return client;
}

/** A second client is served: it initialises, calls a catalog tool and reads a catalog resource. */
async function othersAreServed(url: URL): Promise<void> {
  const other = await connect(url, "bystander");
  try {
    const result = await within(
      STEP_MS,
      "bystander: tools/call",
      other.callTool({ name: "search_entities", arguments: { query: "customers", limit: 2 } }),
    );
    assert.ok(!result.isError, JSON.stringify(result.content));
    const typedefs = await within(
      STEP_MS,
      "bystander: resources/read",
      other.readResource({ uri: "govcat://typedefs" }),
    );
    assert.ok(typedefs.contents.length > 0);
  } finally {
    await other.close();
  }
}

for (const order of ["the registry first", "debug first"] as const) {
  Deno.test(`livelock: registry call, logging/setLevel debug (${order}), then catalog requests; others are served, SIGTERM stops`, async () => {
    await withServer(async (url) => {
      const client = await connect(url, "livelock");
      const loadRegistry = () =>
        within(
          STEP_MS,
          "list_available_operations",
          client.callTool({ name: "list_available_operations", arguments: {} }),
        );
      if (order === "the registry first") await loadRegistry();
      await within(STEP_MS, "logging/setLevel", client.setLoggingLevel("debug"));
      if (order === "debug first") await loadRegistry();
      const search = await within(
        STEP_MS,
        "search after the registry",
        client.callTool({ name: "search_entities", arguments: { query: "customers", limit: 2 } }),
      );
      assert.ok(!search.isError, JSON.stringify(search.content));
      await within(
        STEP_MS,
        "resources/read after the registry",
        client.readResource({ uri: "govcat://collections" }),
      );
      await othersAreServed(url);
      await client.close();
    });
  });
}

Deno.test("livelock: a batch of two tools/call with one id is refused (-32600); others are served, SIGTERM stops", async () => {
  await withServer(async (url) => {
    const client = await connect(url, "batch");
    const transport = client.transport as InstanceType<typeof sdk.StreamableHTTPClientTransport>;
    await within(STEP_MS, "logging/setLevel", client.setLoggingLevel("debug"));
    await within(
      STEP_MS,
      "tools/call",
      client.callTool({ name: "search_entities", arguments: { query: "x" } }),
    );
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "search_entities", arguments: { query: "customers", limit: 1 } },
    });
    const answer = await within(
      STEP_MS,
      "the batch",
      fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": transport.sessionId!,
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify([call(77), call(77)]),
      }),
    );
    const body = await answer.json();
    assert.equal(answer.status, 400, JSON.stringify(body));
    assert.equal(body.error.code, -32600);
    assert.match(body.error.message, /more than one request with id 77/);
    // The session itself goes on.
    const again = await within(
      STEP_MS,
      "tools/call after the batch",
      client.callTool({ name: "search_entities", arguments: { query: "x" } }),
    );
    assert.ok(!again.isError);
    await othersAreServed(url);
    await client.close();
  });
});

/** Valid messages of a session, the fuzz's starting points. */
const VALID_MESSAGES: Array<Record<string, unknown>> = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_entities", arguments: { query: "customers" } },
  },
  {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "list_available_operations", arguments: {} },
  },
  { jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: "govcat://collections" } },
  { jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: { level: "debug" } },
  { jsonrpc: "2.0", id: 5, method: "tools/list", params: {} },
  { jsonrpc: "2.0", id: 6, method: "ping" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "fuzz" } },
];

const MUTATIONS = ["id", "method", "params", "jsonrpc", "drop", "batch", "value", "none"] as const;

/** One mutated body: a field replaced, dropped or retyped, a message doubled in a batch, or the whole replaced. */
function mutated(
  [base, kind, value, index]: [Record<string, unknown>, (typeof MUTATIONS)[number], unknown, number],
): unknown {
  const message: Record<string, unknown> = structuredClone(base);
  const keys = Object.keys(message);
  switch (kind) {
    case "id":
    case "method":
    case "params":
    case "jsonrpc":
      message[kind] = value;
      return message;
    case "drop":
      delete message[keys[index % keys.length]];
      return message;
    case "batch":
      // The same id twice, or a message beside a mutated copy of itself.
      return index % 2 === 0 ? [message, message] : [message, { ...message, params: value }];
    case "value":
      return value;
    case "none":
      return message;
  }
}

Deno.test("livelock: 500 mutations of valid messages in a debug-level session; others are served throughout, SIGTERM stops", async () => {
  const { fc, propertyRuns } = await import("../support/property.ts");
  const bodies = fc.sample(
    fc.tuple(
      fc.constantFrom(...VALID_MESSAGES),
      fc.constantFrom(...MUTATIONS),
      fc.jsonValue({ maxDepth: 3 }),
      fc.nat({ max: 9 }),
    ).map(mutated),
    { seed: propertyRuns().seed, numRuns: 500 },
  );
  await withServer(async (url) => {
    const client = await connect(url, "fuzz");
    const sessionId = (client.transport as InstanceType<typeof sdk.StreamableHTTPClientTransport>).sessionId!;
    await within(STEP_MS, "logging/setLevel", client.setLoggingLevel("debug"));
    for (const [index, body] of bodies.entries()) {
      const answer = await within(
        STEP_MS,
        `mutation #${index} ${JSON.stringify(body).slice(0, 200)}`,
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": sessionId,
            "mcp-protocol-version": "2025-06-18",
          },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, text: await response.text() })),
      );
      assert.ok(answer.status < 500, `mutation #${index}: ${answer.status} ${answer.text}`);
      if (index % 100 === 99) await othersAreServed(url);
    }
    await othersAreServed(url);
    await client.close();
  });
});
