/**
 * Typed errors of the HTTP core: error bodies of both shapes become the error of their status with the
 * service's code, message and request id; a connection that fails is a NetworkError naming where it went.
 */
import assert from "node:assert/strict";
import {
  AuthenticationError,
  AuthorizationError,
  BadRequestError,
  NetworkError,
  NotFoundError,
  RateLimitError,
} from "../../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../../lib/http/client.ts";
import { parseErrorBody } from "../../../lib/http/error_mapping.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

function client(url: string, options: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({ baseUrls: { datamap: url }, retryBaseMs: 5, retryMaxMs: 20, ...options });
}

async function rejection<T extends Error>(
  promise: Promise<unknown>,
  kind: new (...args: never[]) => T,
): Promise<T> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof kind, `expected ${kind.name}, got ${(e as Error)?.constructor?.name}: ${e}`);
    return e;
  }
  assert.fail(`expected ${kind.name}, but the call succeeded`);
}

Deno.test("a refused connection is a NetworkError that points at the account or endpoint", async () => {
  const server = startLocalServer(() => json(200, {}));
  const url = server.url;
  await server.close();
  const error = await rejection(
    client(url, { maxRetries: 1 }).request({ method: "POST", path: "/x", body: {} }),
    NetworkError,
  );
  assert.match(error.message, /Could not reach the catalog/);
  // The address tried, so a wrong CATALOG_ENDPOINT shows itself.
  assert.ok(error.message.includes(`at ${new URL(url).origin}:`), error.message);
  assert.match(error.hint ?? "", /CATALOG_ENDPOINT/);
});

Deno.test("error bodies become typed errors with code, message, request id and hint", async () => {
  const server = startLocalServer((req) => {
    switch (req.path) {
      case "/atlas":
        return json(404, {
          requestId: "6c6f-1",
          errorCode: "ATLAS-404-00-005",
          errorMessage: "Given instance guid abc is invalid/not found",
        });
      case "/arm":
        return json(400, { error: { code: "InvalidRequest", message: "name is required", target: "name" } });
      case "/401":
        return new Response("", { status: 401 });
      case "/403":
        return json(403, { error: { code: "Forbidden", message: "no" } }, { "x-ms-request-id": "hdr-9" });
      default:
        return new Response("<html>gateway</html>", { status: 429 });
    }
  });
  const http = client(server.url, { maxRetries: 0 });
  try {
    const notFound = await rejection(http.request({ method: "GET", path: "/atlas" }), NotFoundError);
    assert.equal(notFound.status, 404);
    assert.equal(notFound.code, "ATLAS-404-00-005");
    assert.equal(notFound.requestId, "6c6f-1");
    assert.match(notFound.message, /Given instance guid abc/);
    assert.match(notFound.hint ?? "", /search_entities/);

    const bad = await rejection(http.request({ method: "POST", path: "/arm", body: {} }), BadRequestError);
    assert.equal(bad.code, "InvalidRequest");
    assert.match(bad.message, /name is required \(target: name\)/);

    const unauthenticated = await rejection(
      http.request({ method: "GET", path: "/401" }),
      AuthenticationError,
    );
    assert.match(unauthenticated.hint ?? "", /az login/);
    assert.match(unauthenticated.message, /HTTP 401 with an empty body/);

    const forbiddenWrite = await rejection(
      http.request({ method: "PUT", path: "/403", body: {} }),
      AuthorizationError,
    );
    assert.match(forbiddenWrite.hint ?? "", /Data Curator/);
    assert.equal(forbiddenWrite.requestId, "hdr-9");
    const forbiddenRead = await rejection(http.request({ method: "GET", path: "/403" }), AuthorizationError);
    assert.match(forbiddenRead.hint ?? "", /Data Reader/);

    const throttled = await rejection(http.request({ method: "GET", path: "/html" }), RateLimitError);
    assert.match(throttled.message, /HTTP 429: <html>gateway<\/html>/);
    assert.match(throttled.hint ?? "", /CATALOG_BATCH_SIZE/);
  } finally {
    await server.close();
  }
});

Deno.test("parseErrorBody: ARM details and bare messages are kept; text without structure is cut short", () => {
  assert.deepEqual(
    parseErrorBody(
      JSON.stringify({
        error: { code: "Bad", message: "invalid", details: [{ message: "a" }, {}, { message: "b" }] },
      }),
      400,
    ),
    { code: "Bad", message: "invalid a b" },
  );
  assert.deepEqual(parseErrorBody(JSON.stringify({ code: "C", message: "plain" }), 409), {
    code: "C",
    message: "plain",
  });
  assert.deepEqual(parseErrorBody(JSON.stringify({ errorCode: "ATLAS-1" }), 400), {
    code: "ATLAS-1",
    message: "HTTP 400",
  });
  const long = parseErrorBody(`  ${"x".repeat(2000)}  `, 502);
  assert.equal(long.message, `HTTP 502: ${"x".repeat(500)}`);
  assert.equal(long.code, undefined);
});
