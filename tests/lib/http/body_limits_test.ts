/**
 * Bodies within bounds: an answer nested past the depth bound is refused unparsed. The size cap: see
 * tests/e2e/security_upstream_test.ts.
 */
import assert from "node:assert/strict";
import { AnswerTooDeepError } from "../../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../../lib/http/client.ts";
import { startLocalServer } from "../../support/local_server.ts";

function client(url: string, options: Partial<HttpClientOptions>): HttpClient {
  return new HttpClient({ baseUrls: { datamap: url }, retryBaseMs: 5, retryMaxMs: 20, ...options });
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
