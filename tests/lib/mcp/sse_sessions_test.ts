/**
 * The open sessions of the legacy HTTP+SSE transport (lib/mcp/sse_sessions.ts): opened by GET, closed
 * by either side and then unregistered, and a POST refused without a session or for an unknown one.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import {
  eventually,
  INITIALIZE,
  NON_ASCII,
  openStream,
  postJson,
  startSseHarness,
  within,
} from "../../support/sse_harness.ts";

Deno.test("the SDK's own SSE client lists and calls tools, and closing it ends the session", async () => {
  const harness = startSseHarness();
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

Deno.test("the client dropping its event stream closes and unregisters the session", async () => {
  const harness = startSseHarness();
  try {
    const { events } = await openStream(harness.base);
    assert.equal(harness.sessions.size, 1);
    await events.cancel();
    await eventually(() => harness.sessions.size === 0, "the session to close after the client disconnected");
  } finally {
    await harness.close();
  }
});

Deno.test("POST errors: 400 without sessionId, 404 for an unknown one", async () => {
  const harness = startSseHarness();
  const { events } = await openStream(harness.base);
  try {
    const noSession = await postJson(`${harness.base}/messages`, JSON.stringify(INITIALIZE));
    assert.equal(noSession.status, 400);
    await noSession.body?.cancel();

    const unknown = await postJson(`${harness.base}/messages?sessionId=${crypto.randomUUID()}`, "{}");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  } finally {
    await events.cancel();
    await harness.close();
  }
});
