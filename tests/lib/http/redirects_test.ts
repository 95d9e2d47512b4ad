/**
 * Redirects within the request's origin are followed as browsers do (303, and 301/302 after a POST, go on
 * as a GET without the body); a redirect the core does not follow names what it pointed at and why.
 * Redirects to another origin or from https to http: tests/e2e/security_upstream_test.ts.
 */
import assert from "node:assert/strict";
import { RedirectRefusedError } from "../../../lib/core/errors.ts";
import { HttpClient } from "../../../lib/http/client.ts";
import { json, type RecordedRequest, startLocalServer } from "../../support/local_server.ts";

/** A catalog answering `/from/<status>` with that redirect to `/to`, and `/to` with 200. */
function redirecting(location: (request: RecordedRequest) => string | undefined = () => "/to") {
  return startLocalServer((request) => {
    const status = Number(request.path.match(/^\/from\/(\d+)$/)?.[1]);
    if (!status) return json(200, { landed: true });
    const target = location(request);
    return new Response(null, { status, headers: target === undefined ? {} : { location: target } });
  });
}

Deno.test("303, and 301/302 after a POST, continue as a GET without the body; 307/308 and a PUT keep both", async () => {
  const server = redirecting();
  const http = new HttpClient({ baseUrls: { datamap: server.url }, maxRetries: 0 });
  try {
    const cases: [method: "POST" | "PUT", status: number, expected: "GET" | "POST" | "PUT"][] = [
      ["POST", 303, "GET"],
      ["PUT", 303, "GET"],
      ["POST", 301, "GET"],
      ["POST", 302, "GET"],
      ["POST", 307, "POST"],
      ["POST", 308, "POST"],
      ["PUT", 302, "PUT"],
    ];
    for (const [method, status, expected] of cases) {
      const before = server.requests.length;
      const answer = await http.request({ method, path: `/from/${status}`, body: { a: 1 } });
      assert.deepEqual(answer, { landed: true });
      const [first, second] = server.requests.slice(before);
      assert.equal(first.body, '{"a":1}');
      const label = `${method} answered ${status}`;
      assert.equal(second.path, "/to", label);
      assert.equal(second.method, expected, label);
      if (expected === "GET") {
        assert.equal(second.body, "", label);
        assert.equal(second.headers.get("content-type"), null, label);
      } else {
        assert.equal(second.body, '{"a":1}', label);
        assert.equal(second.headers.get("content-type"), "application/json", label);
      }
    }
  } finally {
    await server.close();
  }
});

Deno.test("a redirect without a usable location is refused, saying what it named and why", async () => {
  const server = redirecting((request) => request.headers.get("x-location") ?? undefined);
  const http = new HttpClient({ baseUrls: { datamap: server.url }, maxRetries: 3, retryBaseMs: 5 });
  try {
    const refusal = async (headers: Record<string, string>) => {
      const error = await http.request({ method: "GET", path: "/from/302", headers }).catch((e) => e);
      assert.ok(error instanceof RedirectRefusedError, String(error));
      assert.equal(error.status, 302);
      assert.match(error.message, /^The catalog answered 302 with a redirect to /);
      assert.ok(error.message.endsWith(`Redirects are followed only within ${server.url}.`), error.message);
      assert.match(error.hint ?? "", /CATALOG_ENDPOINT/);
      return error.message;
    };
    assert.match(
      await refusal({}),
      /to \(no Location header\), which was not followed: the answer names no location/,
    );
    assert.match(
      await refusal({ "x-location": " " }),
      /to "", which was not followed: the answer names no location/,
    );
    assert.match(await refusal({ "x-location": "http://[::1" }), /the location is not a valid URL/);
    assert.equal(server.requests.length, 3, "a refused redirect is not retried");
  } finally {
    await server.close();
  }
});
