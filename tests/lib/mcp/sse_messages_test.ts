/**
 * What a POST to the legacy HTTP+SSE transport must be (lib/mcp/sse_messages.ts): JSON in a known
 * charset, one JSON-RPC message, within the size limit even without Content-Length.
 *
 * @module
 */
import assert from "node:assert/strict";
import { INITIALIZE, openStream, postJson, startSseHarness } from "../../support/sse_harness.ts";

Deno.test("POST errors: 415 content type, 400 bad JSON/JSON-RPC, 413", async () => {
  const harness = startSseHarness({ maxBodyBytes: 256 });
  const { events, endpoint } = await openStream(harness.base);
  try {
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
