/**
 * JSON-RPC errors the HTTP transports answer themselves keep the id of the request they answer, over real
 * HTTP against a served app: null only when no id can be known (a body that is not JSON, a batch, a
 * message without one).
 */
import assert from "node:assert/strict";
import { openSseSession, startHarness } from "../../support/mcp_harness.ts";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function initialize(id: number | string, protocolVersion = "2025-11-25") {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** The HTTP status, JSON-RPC error code and id of an error answer. */
async function errorOf(response: Response): Promise<{ status: number; code: number; id: unknown }> {
  const body = await response.json();
  assert.ok(body.error, `an error answer: ${JSON.stringify(body)}`);
  return { status: response.status, code: body.error.code, id: body.id };
}

/** Opens a raw streamable session; its headers. */
async function openSession(url: string): Promise<Record<string, string>> {
  const opened = await post(url, initialize(1));
  await opened.text();
  const headers = {
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
  await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
  return headers;
}

const list = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/list" });

Deno.test("streamable HTTP: each error answered by the transport carries the request's id when it is known", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const session = await openSession(url);
    // Answered by govcat before the session's transport.
    assert.deepEqual(
      await errorOf(await post(url, list(31), { "mcp-session-id": "gone" })),
      { status: 404, code: -32001, id: 31 },
      "an unknown session",
    );
    assert.deepEqual(
      await errorOf(await post(url, list("first"))),
      { status: 400, code: -32000, id: "first" },
      "no session and not initialize",
    );
    // Answered by the SDK's transport, which writes id null.
    assert.deepEqual(
      await errorOf(await post(url, list(32), { ...session, "mcp-protocol-version": "1999-01-01" })),
      { status: 400, code: -32000, id: 32 },
      "an unsupported MCP-Protocol-Version",
    );
    assert.deepEqual(
      await errorOf(await post(url, list(33), { ...session, accept: "application/json" })),
      { status: 406, code: -32000, id: 33 },
      "an Accept header without text/event-stream",
    );
    assert.deepEqual(
      await errorOf(await post(url, { jsonrpc: "2.0", id: 34, params: {} }, session)),
      { status: 400, code: -32700, id: 34 },
      "a message without a method",
    );
    assert.deepEqual(
      await errorOf(await post(url, initialize(35), session)),
      { status: 400, code: -32600, id: 35 },
      "a second initialize",
    );
    // No id to keep.
    assert.equal((await errorOf(await post(url, "{not json", session))).id, null, "not JSON");
    assert.equal(
      (await errorOf(await post(url, { jsonrpc: "2.0", params: {} }, session))).id,
      null,
      "a message without an id",
    );
    assert.equal(
      (await errorOf(await post(url, { jsonrpc: "2.0", id: 36, result: {} }, { "mcp-session-id": "gone" })))
        .id,
      null,
      "an answer to a server request: its id is the server's",
    );
  } finally {
    await h.close();
  }
});

Deno.test("hosted and SSE: errors keep the request's id when it is known", async () => {
  const hosted = await startHarness({ mode: "hosted", noClient: true });
  try {
    const url = `${hosted.baseUrl}/api/mcp`;
    const opened = await post(url, initialize(1));
    await opened.text();
    const sessionId = opened.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    assert.deepEqual(
      await errorOf(await post(url, list(41), { ...headers, "content-type": "text/plain" })),
      { status: 415, code: -32000, id: 41 },
      "hosted: a wrong content type",
    );
    const ended = await fetch(url, { method: "DELETE", headers });
    await ended.body?.cancel();
    assert.deepEqual(
      await errorOf(await post(url, list(42), headers)),
      { status: 404, code: -32001, id: 42 },
      "hosted: a session ended by DELETE",
    );
  } finally {
    await hosted.close();
  }
  const sse = await startHarness({ mode: "sse", noClient: true });
  try {
    const { endpoint, close } = await openSseSession(sse.baseUrl);
    assert.deepEqual(
      await errorOf(await post(endpoint.href, { jsonrpc: "2.0", id: "s-1", params: {} })),
      { status: 400, code: -32600, id: "s-1" },
      "SSE: a message without a method",
    );
    await close();
  } finally {
    await sse.close();
  }
});
