/**
 * Bodies within bounds: an answer larger than the cap once decompressed is refused unread, one nested past
 * the depth bound is refused unparsed, error bodies are cut at 1 MiB, and answers decode as asked.
 */
import assert from "node:assert/strict";
import { AnswerTooDeepError, ResponseTooLargeError } from "../../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../../lib/http/client.ts";
import { encodeBody, readAnswer, readErrorText } from "../../../lib/http/body_limits.ts";
import { startLocalServer } from "../../support/local_server.ts";

function client(url: string, options: Partial<HttpClientOptions>): HttpClient {
  return new HttpClient({ baseUrls: { datamap: url }, retryBaseMs: 5, retryMaxMs: 20, ...options });
}

const CONTEXT = { method: "GET", url: "http://127.0.0.1:1/x" };
const LIMITS = { maxResponseBytes: 1024, maxJsonDepth: 8 };

/**
 * A response whose body streams `chunks` without a declared length: a byte stream (read through a BYOB
 * reader, as fetch's bodies are) or a plain one (chunks copied).
 */
function streamed(kind: "bytes" | "plain", ...chunks: string[]): Response {
  const bytes = chunks.map((chunk) => new TextEncoder().encode(chunk));
  const pull = (controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) => {
    const next = bytes.shift();
    if (next !== undefined) return controller.enqueue(next);
    controller.close();
    // A BYOB read waiting at the end completes only once its view is handed back empty.
    if ("byobRequest" in controller) controller.byobRequest?.respond(0);
  };
  return new Response(
    kind === "bytes" ? new ReadableStream({ type: "bytes", pull }) : new ReadableStream<Uint8Array>({ pull }),
  );
}

Deno.test("answer depth: an answer nested past the bound is refused, not parsed, and not retried", async () => {
  const server = startLocalServer(() => new Response("[".repeat(300) + "]".repeat(300)));
  try {
    const http = client(server.url, { maxRetries: 3, maxJsonDepth: 256 });
    const error = await http.request({ method: "GET", path: "/x" }).catch((e) => e);
    assert.ok(error instanceof AnswerTooDeepError, String(error));
    assert.match(error.message, /more than 256 levels deep \(CATALOG_MAX_JSON_DEPTH=256\)/);
    assert.equal(server.requests.length, 1);
    // Text answers (an exported CSV) are not JSON and are not scanned.
    assert.equal(
      await http.request({ method: "GET", path: "/x", responseType: "text" }),
      "[".repeat(300) + "]".repeat(300),
    );
  } finally {
    await server.close();
  }
});

Deno.test("answer size: up to the cap is read, one byte more is refused naming the cap", async () => {
  for (const kind of ["bytes", "plain"] as const) {
    const exact = await readAnswer(streamed(kind, '"', "y".repeat(1022), '"'), CONTEXT, LIMITS, "json");
    assert.ok("value" in exact && (exact.value as string).length === 1022, kind);
  }
  const over = [
    streamed("bytes", '"', "y".repeat(1023), '"'),
    streamed("plain", '"', "y".repeat(1023), '"'),
    new Response(`"${"y".repeat(1023)}"`, { headers: { "content-length": "1025" } }),
  ];
  for (const response of over) {
    const refused = await readAnswer(response, CONTEXT, LIMITS, "json");
    assert.ok("error" in refused && refused.error instanceof ResponseTooLargeError);
    assert.match(
      refused.error.message,
      /larger than 1024 bytes once decompressed \(CATALOG_MAX_RESPONSE_BYTES=1024\)/,
    );
  }
  const mib = await readAnswer(new Response("x".repeat(1024 * 1024 + 1)), CONTEXT, {
    ...LIMITS,
    maxResponseBytes: 1024 * 1024,
  }, "text");
  assert.ok("error" in mib && /larger than 1 MiB/.test(mib.error.message));
});

Deno.test("answer size: a declared length past the cap is refused unread; a compressed one proves nothing", async () => {
  let pulls = 0;
  const declared = (length: number, headers: Record<string, string> = {}) =>
    new Response(
      new ReadableStream({
        type: "bytes",
        pull(controller) {
          pulls++;
          controller.enqueue(new TextEncoder().encode("y".repeat(length)));
          controller.close();
        },
      }),
      { headers: { "content-length": String(length), ...headers } },
    );
  const refused = await readAnswer(declared(1025), CONTEXT, LIMITS, "text");
  assert.ok("error" in refused && refused.error instanceof ResponseTooLargeError);
  assert.equal(pulls, 0, "not a byte of the body was asked for");
  // A compressed body's length says nothing of its size once decompressed: it is read and measured.
  const compressed = await readAnswer(declared(10, { "content-encoding": "gzip" }), CONTEXT, {
    ...LIMITS,
    maxResponseBytes: 9,
  }, "text");
  assert.ok("error" in compressed);
  assert.equal(pulls, 1);
  const small = await readAnswer(declared(1024, { "content-encoding": "gzip" }), CONTEXT, LIMITS, "text");
  assert.ok("value" in small && (small.value as string).length === 1024);
});

Deno.test("error bodies are read up to 1 MiB and the rest dropped, not refused", async () => {
  for (const kind of ["bytes", "plain"] as const) {
    const text = await readErrorText(streamed(kind, "a".repeat(1024 * 1024 - 1), "bc", "d".repeat(4096)));
    assert.equal(text.length, 1024 * 1024, kind);
    assert.ok(text.endsWith("ab"), kind);
  }
});

Deno.test("answers decode as asked: JSON, text kept when not JSON, empty as undefined, text, bytes", async () => {
  const read = async (body: string, type: "json" | "text" | "bytes") => {
    const result = await readAnswer(new Response(body), CONTEXT, LIMITS, type);
    assert.ok("value" in result);
    return result.value;
  };
  assert.deepEqual(await read('{"a":[1]}', "json"), { a: [1] });
  assert.equal(await read("not json", "json"), "not json");
  assert.equal(await read("", "json"), undefined);
  assert.equal(await read('{"a":1}', "text"), '{"a":1}');
  assert.deepEqual(await read("ab", "bytes"), new Uint8Array([97, 98]));
});

Deno.test("request bodies: JSON with its content type, ready bodies as they are", () => {
  assert.deepEqual(encodeBody({ a: 1 }), { body: '{"a":1}', contentType: "application/json" });
  assert.deepEqual(encodeBody("a,b"), { body: "a,b" });
  const bytes = new Uint8Array([1]);
  assert.equal(encodeBody(bytes).body, bytes);
  assert.deepEqual(encodeBody(undefined), {});
});
