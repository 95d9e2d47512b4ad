/**
 * A `tools/call` augmented with a task (MCP 2025-11-25, `params.task`) in hosted mode (stateless
 * `/api/mcp`), which holds nothing between requests and so declares no `tasks` capability: the
 * specification has such a server process the call normally and answer its result, not refuse it (the
 * SDK's server answered -32603 "Server does not support task creation"). Sessions serve tasks
 * (`tests/lib/mcp/tasks/tool_tasks_test.ts`).
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

Deno.test("hosted mode: no tasks capability, and a tools/call with a task is processed normally", async () => {
  const h = await startHarness({ noClient: true, mode: "hosted" });
  const url = `${h.baseUrl}/api/mcp`;
  try {
    const init = await post(url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id");
    const initialized = await message(init);
    assert.equal(
      (initialized.result as { capabilities: Record<string, unknown> }).capabilities.tasks,
      undefined,
    );
    const headers: Record<string, string> = {
      "mcp-protocol-version": VERSION,
      ...(session ? { "mcp-session-id": session } : {}),
    };
    await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).body?.cancel();

    const call = await post(url, {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "invoke_operation",
        arguments: { operation: "account.get", arguments: {} },
        task: { ttl: 60_000 },
      },
    }, headers);
    const answer = await message(call);
    assert.equal(answer.id, 2);
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    const result = answer.result as {
      isError?: boolean;
      task?: unknown;
      structuredContent: { operation: string };
    };
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(result.task, undefined, "no task: the call's own result");
    assert.equal(result.structuredContent.operation, "account.get");
  } finally {
    await h.close();
  }
});
