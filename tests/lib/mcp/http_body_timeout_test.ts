/**
 * A request whose head arrived but whose body trickles (or never ends) is answered 408 once the body
 * timeout passes, on streamable HTTP and on the SSE transport's POSTs, so it cannot hold a request slot.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { DEFAULT_BODY_TIMEOUT_MS } from "../../../lib/mcp/http_security.ts";
import { McpHttpApp } from "../../../lib/mcp/http_app.ts";
import { createToolServices } from "../../../lib/mcp/server.ts";

function app(mode: "streamable-http" | "sse"): McpHttpApp {
  // No catalog call is made.
  const config = loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: "http://127.0.0.1:9" });
  const services = createToolServices({ config, logger: createLogger("error", { write: () => {} }) });
  return new McpHttpApp({ mode, services, host: "127.0.0.1", port: 8000, bodyTimeoutMs: 200 });
}

/** `answer`, or a failure after `ms`: a request that is never answered must fail the test, not hang it. */
async function within(answer: Promise<Response>, ms = 3_000): Promise<Response> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) =>
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A body that sends its first byte and then nothing more, never ending. */
function trickle(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) });
}

Deno.test("a body that never completes gets 408 after the body timeout (streamable HTTP and SSE)", async () => {
  assert.ok(DEFAULT_BODY_TIMEOUT_MS <= 60_000);
  const streamable = app("streamable-http");
  const sse = app("sse");
  let stream: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    const started = Date.now();
    const response = await within(streamable.handle(
      new Request("http://127.0.0.1:8000/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: trickle(),
      }),
    ));
    assert.equal(response.status, 408);
    assert.match((await response.json()).error.message, /not received within 200 ms/);
    assert.ok(Date.now() - started < 2_000);

    const events = await sse.handle(new Request("http://127.0.0.1:8000/sse"));
    stream = events.body!.getReader();
    const sessionId = /sessionId=([\w-]+)/.exec(new TextDecoder().decode((await stream.read()).value))![1];
    const post = await within(sse.handle(
      new Request(`http://127.0.0.1:8000/messages?sessionId=${sessionId}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: trickle(),
      }),
    ));
    assert.equal(post.status, 408);
    await post.body?.cancel();
  } finally {
    await stream?.cancel().catch(() => {});
    await streamable.close();
    await sse.close();
  }
});
