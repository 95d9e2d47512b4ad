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

/** Sends a hand-written HTTP/1.1 request and reads the answer until its JSON body is complete. */
async function rawRequest(baseUrl: string, request: string): Promise<string> {
  const connection = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(baseUrl).port) });
  try {
    await connection.write(new TextEncoder().encode(request));
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(4096);
    let text = "";
    while (!/\r\n\r\n\{.*\}\s*$/s.test(text)) {
      const read = await connection.read(buffer);
      if (read === null) break;
      text += decoder.decode(buffer.subarray(0, read));
    }
    return text;
  } finally {
    connection.close();
  }
}

async function errorOf(
  response: Response,
): Promise<{ status: number; message: string; code: number; id: unknown }> {
  const body = await response.json();
  return { status: response.status, message: body.error?.message, code: body.error?.code, id: body.id };
}

Deno.test("security: Origin 403, Host 403, oversized body 413, malformed JSON-RPC 400", async () => {
  const h = await startHarness({ noClient: true });
  const url = `${h.baseUrl}/mcp`;
  try {
    const origin = await errorOf(await post(url, INIT, { origin: "https://evil.example" }));
    assert.equal(origin.status, 403);
    assert.match(origin.message, /Origin "https:\/\/evil.example" is not allowed/);
    const loopbackOrigin = await post(url, INIT, { origin: "http://localhost:6274" });
    assert.equal(loopbackOrigin.status, 200, "a local browser client (the MCP Inspector) is allowed");
    await loopbackOrigin.body?.cancel();

    // fetch always sends the real Host, so a DNS-rebound request is written by hand.
    const rebound = await rawRequest(
      h.baseUrl,
      "POST /mcp HTTP/1.1\r\nHost: attacker.example:8000\r\n" +
        "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
    );
    assert.match(rebound, /^HTTP\/1\.1 403/);
    assert.match(rebound, /Host \\"attacker.example:8000\\" is not allowed/);

    const huge = await errorOf(await post(url, { ...INIT, padding: "x".repeat(5 * 1024 * 1024) }));
    assert.equal(huge.status, 413);

    const malformed = await errorOf(await post(url, "{not json"));
    assert.equal(malformed.status, 400);
    assert.equal(malformed.code, -32700);

    const notFound = await fetch(`${h.baseUrl}/api/mcp`, { method: "POST", headers: HEADERS, body: "{}" });
    assert.equal(notFound.status, 404);
    await notFound.body?.cancel();
  } finally {
    await h.close();
  }
});

Deno.test("an access token is required when configured: 401 with WWW-Authenticate", async () => {
  const token = "local-test-token-5f2c9a";
  const h = await startHarness({ noClient: true, authToken: token });
  const url = `${h.baseUrl}/mcp`;
  try {
    const missing = await post(url, INIT);
    assert.equal(missing.status, 401);
    assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer realm="govcat"/);
    const body = await missing.text();
    assert.ok(!body.includes(token), "the token is never echoed");
    const wrong = await post(url, INIT, { authorization: "Bearer wrong-token" });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const right = await post(url, INIT, { authorization: `Bearer ${token}` });
    assert.equal(right.status, 200);
    await right.body?.cancel();
  } finally {
    await h.close();
  }
  const withClient = await startHarness({ authToken: token });
  try {
    assert.ok((await withClient.client.listTools()).tools.length > 0, "an SDK client with the header works");
  } finally {
    await withClient.close();
  }
});

Deno.test("hosted mode: stateless /api/mcp, /api/health, 404 on a different mount", async () => {
  const h = await startHarness({ mode: "hosted" });
  try {
    const health = await fetch(`${h.baseUrl}/api/health`);
    const body = await health.json();
    assert.equal(body.status, "healthy");
    assert.equal(body.tools, h.app.toolCount);
    assert.match(body.version, /^\d+\.\d+\.\d+/);
    const { tools } = await h.client.listTools();
    assert.equal(tools.length, h.app.toolCount);
    const call = await h.client.callTool({
      name: "search_entities",
      arguments: { query: "orders", limit: 1 },
    });
    assert.ok(!call.isError);
    assert.equal(h.app.sessionCount, 0, "stateless: nothing is kept between requests");
    const get = await fetch(`${h.baseUrl}/api/mcp`, { headers: { accept: "text/event-stream" } });
    assert.equal(get.status, 405, "no standalone stream from a stateless server");
    assert.equal(get.headers.get("allow"), "GET, POST, DELETE");
    assert.match((await get.json()).error.message, /sends no messages outside a request's own response/);
  } finally {
    await h.close();
  }
  const elsewhere = await startHarness({ mode: "hosted", path: "/custom/mcp" });
  try {
    const wrong = await fetch(`${elsewhere.baseUrl}/api/mcp`, {
      method: "POST",
      headers: HEADERS,
      body: JSON.stringify(INIT),
    });
    assert.equal(wrong.status, 404);
    await wrong.body?.cancel();
    assert.ok((await elsewhere.client.listTools()).tools.length > 0, "the custom mount works");
  } finally {
    await elsewhere.close();
  }
});

Deno.test("legacy SSE: an SDK client lists and calls tools", async () => {
  const h = await startHarness({ mode: "sse" });
  try {
    const { tools } = await h.client.listTools();
    assert.ok(tools.some((t) => t.name === "search_entities"));
    const call = await h.client.callTool({ name: "get_account_properties", arguments: {} });
    assert.equal((call.structuredContent as { account: { name: string } }).account.name, "emulator");
    assert.equal(h.app.sessionCount, 1);
    const origin = await fetch(`${h.baseUrl}/sse`, { headers: { origin: "https://evil.example" } });
    assert.equal(origin.status, 403);
    await origin.body?.cancel();
  } finally {
    await h.close();
  }
});

Deno.test("streamable HTTP: a method other than POST, GET or DELETE is 405, naming the ones allowed", async () => {
  const h = await startHarness({ noClient: true });
  try {
    const put = await fetch(`${h.baseUrl}/mcp`, {
      method: "PUT",
      headers: HEADERS,
      body: JSON.stringify(INIT),
    });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get("allow"), "GET, POST, DELETE");
    assert.equal((await put.json()).error.message, "Method not allowed; use GET, POST, DELETE.");
  } finally {
    await h.close();
  }
});
