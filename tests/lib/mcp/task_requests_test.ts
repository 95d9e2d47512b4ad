/**
 * A `tools/call` augmented with a task (MCP 2025-11-25, `params.task`) on this server, which declares no
 * `tasks` capability: the specification has such a server process the call normally and answer its
 * result, not refuse it (the SDK's server answered -32603 "Server does not support task creation").
 */
import assert from "node:assert/strict";
import { startHarness } from "../../support/mcp_harness.ts";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const VERSION = "2025-11-25";

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC message of an answer sent as JSON or as one SSE event. */
async function message(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : text.split("\n").find((line) => line.startsWith("data: {"))?.slice("data: ".length);
  assert.ok(data, `no JSON-RPC message in ${JSON.stringify(text.slice(0, 600))}`);
  return JSON.parse(data);
}

Deno.test("tools/call with a task is processed normally by a server without the tasks capability", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const init = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    const initialized = await message(init);
    assert.equal(
      (initialized.result as { capabilities: Record<string, unknown> }).capabilities.tasks,
      undefined,
    );
    const headers = { "mcp-session-id": session, "mcp-protocol-version": VERSION };
    await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).body?.cancel();

    const call = await post(url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "list_available_operations",
        arguments: { category: "account", detail: "index" },
        task: { ttl: 60_000 },
      },
    }, headers);
    const answer = await message(call);
    assert.equal(answer.id, 2);
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const result = answer.result as {
      isError?: boolean;
      structuredContent: { categories: { name: string }[] };
    };
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent.categories.map((c) => c.name), ["account"]);
  } finally {
    await h.close();
  }
});
