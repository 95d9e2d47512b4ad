/**
 * JSON-RPC batches over HTTP, as on stdio: refused (400, -32600, id null) in a session that negotiated
 * 2025-06-18 or later, which have no batches; handled as before in a 2025-03-26 session, which has them.
 */
import assert from "node:assert/strict";
import { openSseSession, startHarness } from "../../support/mcp_harness.ts";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const BATCHES_GONE = /no JSON-RPC batches since revision 2025-06-18 and this session uses 2025-11-25/;

function initialize(protocolVersion: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
}

const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
}

/** Opens a raw streamable session of `protocolVersion`; its headers. */
async function openSession(url: string, protocolVersion: string): Promise<Record<string, string>> {
  const opened = await post(url, initialize(protocolVersion));
  assert.match(await opened.text(), new RegExp(`"protocolVersion":"${protocolVersion}"`));
  const headers = {
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": protocolVersion,
  };
  await (await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).text();
  return headers;
}

async function assertBatchRefused(response: Response): Promise<void> {
  const body = await response.json();
  assert.equal(response.status, 400, JSON.stringify(body));
  assert.equal(body.error.code, -32600);
  assert.equal(body.id, null, "a batch has no one id");
  assert.match(body.error.message, BATCHES_GONE);
  assert.match(body.error.message, /send each message in a POST of its own/);
}

/** The ids of the results in an SSE answer. */
async function answeredIds(response: Response): Promise<number[]> {
  assert.equal(response.status, 200);
  const text = await response.text();
  return [...text.matchAll(/^data: (.+)$/gm)].map(([, data]) => JSON.parse(data))
    .filter((message) => message.result).map((message) => message.id).sort();
}

Deno.test("streamable HTTP: a batch is refused in a 2025-11-25 session and served in a 2025-03-26 one", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const current = await openSession(url, "2025-11-25");
    await assertBatchRefused(await post(url, [list(2), list(3)], current));
    assert.deepEqual(await answeredIds(await post(url, list(4), current)), [4], "the session goes on");
    await assertBatchRefused(await post(url, [initialize("2025-11-25")]));

    const older = await openSession(url, "2025-03-26");
    assert.deepEqual(await answeredIds(await post(url, [list(2), list(3)], older)), [2, 3]);
  } finally {
    await h.close();
  }
});

Deno.test("hosted: a batch is refused under 2025-11-25 and served under 2025-03-26", async () => {
  const h = await startHarness({ mode: "hosted", noClient: true });
  const url = `${h.baseUrl}/api/mcp`;
  try {
    await assertBatchRefused(await post(url, [list(2), list(3)], { "mcp-protocol-version": "2025-11-25" }));
    const older = await post(url, [list(2), list(3)], { "mcp-protocol-version": "2025-03-26" });
    assert.deepEqual(await answeredIds(older), [2, 3]);
  } finally {
    await h.close();
  }
});

Deno.test("legacy SSE: a batch is refused with a message saying so, as the SDK's SSE transport refuses it", async () => {
  const h = await startHarness({ mode: "sse", noClient: true });
  try {
    const { endpoint, close } = await openSseSession(h.baseUrl);
    const refused = await post(endpoint.href, [list(2), list(3)]);
    const body = await refused.json();
    assert.deepEqual([refused.status, body.error.code, body.id], [400, -32600, null]);
    assert.match(body.error.message, /one JSON-RPC message per POST, not a batch/);
    await close();
  } finally {
    await h.close();
  }
});
