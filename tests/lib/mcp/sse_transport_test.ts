/**
 * The legacy HTTP+SSE transport's stream (lib/mcp/sse_transport.ts): the endpoint event first, messages
 * as events, keep-alive comments, and its lifecycle (start, send, close, the request signal).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { JSONRPCMessage } from "../../../lib/deps/mcp_sdk.ts";
import { SseServerTransport } from "../../../lib/mcp/sse_transport.ts";
import {
  EventReader,
  INITIALIZE,
  NON_ASCII,
  openStream,
  postJson,
  type SseEvent,
  startSseHarness,
  within,
} from "../../support/sse_harness.ts";

Deno.test("raw protocol: endpoint event first, POST answers 202, the reply arrives as a message event", async () => {
  const harness = startSseHarness();
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

Deno.test("keep-alive comments arrive at the configured interval and stop on close", async () => {
  const harness = startSseHarness({ keepAliveMs: 30 });
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
