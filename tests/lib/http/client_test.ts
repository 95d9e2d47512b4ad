import assert from "node:assert/strict";
import { NetworkError, RateLimitError, ServerError, TimeoutError } from "../../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../../lib/http/client.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { droppedResponse, json, startLocalServer } from "../../support/local_server.ts";

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

Deno.test("429 with Retry-After is waited for, then the call succeeds", async () => {
  const server = startLocalServer((_, i) =>
    i === 0
      ? json(429, { error: { code: "Throttled", message: "slow down" } }, { "retry-after": "1" })
      : json(200, { ok: true })
  );
  try {
    const started = performance.now();
    const result = await client(server.url).request({ method: "GET", path: "/x" });
    assert.deepEqual(result, { ok: true });
    assert.equal(server.requests.length, 2);
    assert.ok(performance.now() - started >= 950, "Retry-After: 1 means at least a second");
  } finally {
    await server.close();
  }
});

Deno.test("retry-after-ms and x-ms-retry-after-ms take precedence over backoff", async () => {
  const server = startLocalServer((_, i) =>
    i === 0
      ? json(503, {}, { "retry-after-ms": "30" })
      : i === 1
      ? json(429, {}, { "x-ms-retry-after-ms": "20" })
      : json(200, [1, 2])
  );
  try {
    const result = await client(server.url, { retryBaseMs: 60_000 }).request({ method: "GET", path: "/x" });
    assert.deepEqual(result, [1, 2], "a 60 s backoff would have hung: the headers were used");
    assert.equal(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

Deno.test("a 5xx storm exhausts the retries and raises ServerError", async () => {
  const server = startLocalServer(() =>
    json(503, { requestId: "r-1", errorCode: "Unavailable", errorMessage: "busy" })
  );
  try {
    const error = await rejection(
      client(server.url, { maxRetries: 3 }).request({ method: "GET", path: "/x" }),
      ServerError,
    );
    assert.equal(server.requests.length, 4, "first attempt plus three retries");
    assert.equal(error.status, 503);
    assert.equal(error.code, "Unavailable");
    assert.equal(error.requestId, "r-1");
    assert.match(error.message, /busy \(after 4 attempts\)/);
    assert.match(error.hint ?? "", /retry later/);
  } finally {
    await server.close();
  }
});

Deno.test("a 500 is not retried: it is a failure, not a transient state", async () => {
  const server = startLocalServer(() => json(500, { errorCode: "ATLAS-500-00-001", errorMessage: "boom" }));
  try {
    await rejection(client(server.url).request({ method: "GET", path: "/x" }), ServerError);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

Deno.test("a slow answer times out with TimeoutError, retried for a GET", async () => {
  const server = startLocalServer(async () => {
    await new Promise((r) => setTimeout(r, 300));
    return json(200, {});
  });
  try {
    const error = await rejection(
      client(server.url, { timeoutMs: 50, maxRetries: 1 }).request({ method: "GET", path: "/slow" }),
      TimeoutError,
    );
    assert.match(error.message, /within 0.05 s/);
    assert.match(error.hint ?? "", /CATALOG_TIMEOUT/);
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("a non-idempotent POST that reached the service is never sent twice", async (t) => {
  await t.step("503 after sending", async () => {
    const server = startLocalServer(() =>
      json(503, { error: { code: "ServiceUnavailable", message: "down" } })
    );
    try {
      const error = await rejection(
        client(server.url).request({ method: "POST", path: "/create", body: { a: 1 } }),
        ServerError,
      );
      assert.equal(server.requests.length, 1);
      assert.match(error.message, /not repeated because it may already have been applied/);
    } finally {
      await server.close();
    }
  });
  await t.step("connection dropped mid-response", async () => {
    const server = startLocalServer(() => droppedResponse());
    try {
      const error = await rejection(
        client(server.url).request({ method: "POST", path: "/create", body: {} }),
        NetworkError,
      );
      assert.equal(server.requests.length, 1);
      assert.equal(error.status, 0);
    } finally {
      await server.close();
    }
  });
  await t.step("timeout", async () => {
    const server = startLocalServer(async () => {
      await new Promise((r) => setTimeout(r, 200));
      return json(200, {});
    });
    try {
      await rejection(
        client(server.url, { timeoutMs: 40 }).request({ method: "POST", path: "/create", body: {} }),
        TimeoutError,
      );
      assert.equal(server.requests.length, 1);
    } finally {
      await server.close();
    }
  });
  await t.step("429 means it was not processed, so it is retried", async () => {
    const server = startLocalServer((_, i) =>
      i === 0 ? json(429, {}, { "retry-after-ms": "10" }) : json(200, { created: true })
    );
    try {
      assert.deepEqual(await client(server.url).request({ method: "POST", path: "/create", body: {} }), {
        created: true,
      });
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
  await t.step("a POST marked idempotent is retried like a GET", async () => {
    const server = startLocalServer((_, i) => i === 0 ? json(503, {}) : json(200, { upserted: true }));
    try {
      const result = await client(server.url).request({
        method: "POST",
        path: "/upsert",
        body: {},
        idempotent: true,
      });
      assert.deepEqual(result, { upserted: true });
      assert.equal(server.requests.length, 2);
    } finally {
      await server.close();
    }
  });
});

Deno.test("a dropped GET response is retried and succeeds", async () => {
  const server = startLocalServer((_, i) => i === 0 ? droppedResponse() : json(200, { whole: true }));
  try {
    assert.deepEqual(await client(server.url).request({ method: "GET", path: "/x" }), { whole: true });
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("api-version, query arrays, headers and the bearer token are sent; the token is never logged", async () => {
  const token = "eyJ0eXAiOiJKV1QiLCJhbGciOi.secret-token-part.signature";
  const server = startLocalServer(() => json(200, { fine: true }));
  const lines: string[] = [];
  const http = new HttpClient({
    baseUrls: { datamap: server.url, unified: `${server.url}/uc` },
    apiVersions: { datamap: "2023-09-01", unified: "2025-09-15-preview" },
    tokens: { getToken: () => Promise.resolve(token) },
    logger: createLogger("debug", { write: (line) => lines.push(line) }),
  });
  try {
    await http.request({
      method: "GET",
      path: "/entity/bulk",
      query: { guid: ["a", "b"], minExtInfo: true, skip: undefined },
    });
    await http.request({ method: "POST", area: "unified", path: "/terms", body: { name: "x" } });
    const [first, second] = server.requests;
    assert.equal(first.search, "?api-version=2023-09-01&guid=a&guid=b&minExtInfo=true");
    assert.equal(first.headers.get("authorization"), `Bearer ${token}`);
    assert.match(first.headers.get("user-agent") ?? "", /^govcat\//);
    assert.ok(first.headers.get("x-ms-client-request-id"));
    assert.equal(second.path, "/uc/terms");
    assert.equal(second.search, "?api-version=2025-09-15-preview");
    assert.equal(second.headers.get("content-type"), "application/json");
    assert.equal(second.body, '{"name":"x"}');
    assert.ok(
      lines.some((l) => /debug: GET http:\/\/127\.0\.0\.1:\d+\/entity\/bulk\?.* -> 200 in \d+ ms/.test(l)),
    );
    assert.ok(lines.every((l) => !l.includes("secret-token-part")), "no log line carries the token");
  } finally {
    await server.close();
  }
});

Deno.test("one client request id is kept across retries", async () => {
  const server = startLocalServer((_, i) => i < 2 ? json(503, {}) : json(200, {}));
  try {
    await client(server.url).request({ method: "GET", path: "/x" });
    const ids = new Set(server.requests.map((r) => r.headers.get("x-ms-client-request-id")));
    assert.equal(ids.size, 1);
  } finally {
    await server.close();
  }
});

Deno.test("a Retry-After beyond the limit fails at once with RateLimitError", async () => {
  const server = startLocalServer(() => json(429, {}, { "retry-after": "3600" }));
  try {
    const error = await rejection(
      client(server.url, { maxRetryAfterMs: 1000 }).request({ method: "GET", path: "/x" }),
      RateLimitError,
    );
    assert.equal(error.retryAfterSeconds, 3600);
    assert.equal(server.requests.length, 1);
  } finally {
    await server.close();
  }
});
