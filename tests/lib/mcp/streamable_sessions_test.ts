/**
 * Streamable HTTP sessions (lib/mcp/streamable_sessions.ts) over real HTTP: opened by initialize, refused
 * without one or when unknown, ended by DELETE, and a request id taken while its request runs.
 *
 * @module
 */
import assert from "node:assert/strict";
import { startHarness } from "../../support/mcp_harness.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorOf(
  response: Response,
): Promise<{ status: number; message: string; code: number; id: unknown }> {
  const body = await response.json();
  return { status: response.status, message: body.error?.message, code: body.error?.code, id: body.id };
}

Deno.test("streamable HTTP: sessions, protocol version header, DELETE, unknown session", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const init = await post(url, INIT);
    assert.equal(init.status, 200);
    const session = init.headers.get("mcp-session-id");
    assert.ok(session);
    await init.body?.cancel();
    assert.equal(h.app.sessionCount, 1);

    const headers = { "mcp-session-id": session!, "mcp-protocol-version": "2025-06-18" };
    const initialized = await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    assert.equal(initialized.status, 202);
    await initialized.body?.cancel();

    const badVersion = await post(url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, {
      ...headers,
      "mcp-protocol-version": "1999-01-01",
    });
    const versionError = await errorOf(badVersion);
    assert.equal(versionError.status, 400);
    assert.match(versionError.message, /Unsupported protocol version: 1999-01-01/);

    const unknown = await errorOf(
      await post(url, { jsonrpc: "2.0", id: 3, method: "tools/list" }, { "mcp-session-id": "nope" }),
    );
    assert.equal(unknown.status, 404);
    assert.match(unknown.message, /Session not found/);

    const noSession = await errorOf(await post(url, { jsonrpc: "2.0", id: 4, method: "tools/list" }));
    assert.equal(noSession.status, 400);
    assert.match(noSession.message, /first request must be initialize/);

    const ended = await fetch(url, { method: "DELETE", headers });
    assert.equal(ended.status, 200);
    await ended.body?.cancel();
    assert.equal(h.app.sessionCount, 0, "DELETE ends the session");
  } finally {
    await h.close();
  }
});

Deno.test("streamable HTTP: a request with the id of one still running is refused (-32600); the id is free once answered", async () => {
  const harness = await startHarness({ noClient: true });
  try {
    const url = `${harness.baseUrl}/mcp`;
    const opened = await post(url, INIT);
    await opened.text();
    const session = {
      "mcp-session-id": opened.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-06-18",
    };
    await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
    // The catalog holds the first search for a while, so its request is still running.
    const scripted = await fetch(new URL("/_emulator/faults/script", harness.emulator.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify([{ delayMs: 600, method: "POST", path: "/search/query" }]),
    });
    assert.equal(scripted.status, 200, await scripted.text());
    const search = {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "search_entities", arguments: { query: "x" } },
    };
    const first = await post(url, search, session);
    assert.equal(first.status, 200);
    const again = await errorOf(await post(url, search, session));
    assert.deepEqual([again.status, again.code, again.id], [400, -32600, 9]);
    assert.match(again.message, /id 9 is still running in this session/);
    // The first request keeps its own answer.
    assert.match(await first.text(), /"jsonrpc":"2.0","id":9}/);
    const reused = await post(url, search, session);
    assert.equal(reused.status, 200);
    assert.match(await reused.text(), /"jsonrpc":"2.0","id":9}/);
  } finally {
    await harness.close();
  }
});
