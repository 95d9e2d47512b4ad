/**
 * The deadline of one request (CATALOG_REQUEST_DEADLINE): every attempt and backoff of a request ends by
 * it, whatever the per-attempt timeout and the retries allow; a Retry-After the catalog asks for adds to it
 * (that wait has its own bound).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { ConfigError, RequestDeadlineError, TimeoutError } from "../../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../../lib/http/client.ts";
import { json, type LocalServer, startLocalServer } from "../../support/local_server.ts";

function client(url: string, options: Partial<HttpClientOptions>): HttpClient {
  return new HttpClient({ baseUrls: { datamap: url }, retryBaseMs: 5, retryMaxMs: 20, ...options });
}

/** A server that sends its headers only when released (or after 10 s). */
function slowServer(): { server: LocalServer; release(): void } {
  const release = new AbortController();
  const server = startLocalServer(() =>
    new Promise<Response>((resolve) => {
      const answer = () => resolve(json(200, { ok: true }));
      const timer = setTimeout(answer, 10_000);
      release.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        answer();
      });
    })
  );
  return { server, release: () => release.abort() };
}

/** A catalog whose first answer is a 429 asking for a 1 s wait, and every later one 200. */
function throttledOnce(): LocalServer {
  return startLocalServer((_, index) =>
    index === 0
      ? json(429, { error: { code: "Throttled", message: "slow down" } }, { "retry-after": "1" })
      : json(200, { ok: true })
  );
}

Deno.test("request deadline: slow headers end at the deadline, not at attempts × timeout", async () => {
  const { server, release } = slowServer();
  try {
    const http = client(server.url, { timeoutMs: 400, maxRetries: 5, requestDeadlineMs: 1000 });
    const started = performance.now();
    const error = await http.request({ method: "GET", path: "/x" }).catch((e) => e);
    const elapsed = performance.now() - started;
    assert.ok(error instanceof RequestDeadlineError, String(error));
    assert.ok(error instanceof TimeoutError, "a deadline is a kind of timeout");
    assert.ok(elapsed < 1500, `took ${Math.round(elapsed)} ms`);
    assert.match(
      error.message,
      /within the 1 s deadline of one request \(CATALOG_REQUEST_DEADLINE\), after \d attempts/,
    );
    assert.match(error.hint ?? "", /raise CATALOG_REQUEST_DEADLINE/);
    assert.ok(server.requests.length <= 3, `${server.requests.length} attempts`);
  } finally {
    release();
    await server.close();
  }
});

Deno.test("request deadline: a Retry-After wait the catalog asks for is added to the deadline", async () => {
  const server = throttledOnce();
  try {
    const http = client(server.url, { timeoutMs: 400, maxRetries: 2, requestDeadlineMs: 500 });
    assert.deepEqual(await http.request({ method: "GET", path: "/x" }), { ok: true });
    assert.equal(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("request deadline: a request held by the client's throttle pause keeps its whole deadline", async () => {
  const server = throttledOnce();
  try {
    const http = client(server.url, { timeoutMs: 400, maxRetries: 2, requestDeadlineMs: 500 });
    const throttled = http.request({ method: "GET", path: "/first" });
    // Sent once the 429 has paused the whole client for 1 s: it waits out the pause, then is answered.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const paused = http.request({ method: "GET", path: "/second" });
    assert.deepEqual(await paused, { ok: true });
    assert.deepEqual(await throttled, { ok: true });
  } finally {
    await server.close();
  }
});

Deno.test("config: the deadline, paging and depth variables, their defaults and their bounds", () => {
  const base = { CATALOG_ACCOUNT_NAME: "contoso" };
  const defaults = loadConfig(base);
  assert.equal(defaults.requestDeadlineSeconds, 90);
  assert.equal(defaults.maxPages, 10_000);
  assert.equal(defaults.maxItems, 1_000_000);
  assert.equal(defaults.pagingTimeoutSeconds, 600);
  assert.equal(defaults.maxJsonDepth, 256);
  // Unset, the deadline is never shorter than one attempt.
  assert.equal(loadConfig({ ...base, CATALOG_TIMEOUT: "300" }).requestDeadlineSeconds, 300);
  const set = loadConfig({
    ...base,
    CATALOG_REQUEST_DEADLINE: "5",
    CATALOG_MAX_PAGES: "3",
    CATALOG_MAX_ITEMS: "7",
    CATALOG_PAGING_TIMEOUT: "9",
    CATALOG_MAX_JSON_DEPTH: "64",
  });
  assert.deepEqual(
    [set.requestDeadlineSeconds, set.maxPages, set.maxItems, set.pagingTimeoutSeconds, set.maxJsonDepth],
    [5, 3, 7, 9, 64],
  );
  for (
    const [name, value] of [
      ["CATALOG_REQUEST_DEADLINE", "0"],
      ["CATALOG_MAX_PAGES", "0"],
      ["CATALOG_MAX_ITEMS", "many"],
      ["CATALOG_PAGING_TIMEOUT", "-1"],
      ["CATALOG_MAX_JSON_DEPTH", "5000"],
    ]
  ) {
    assert.throws(
      () => loadConfig({ ...base, [name]: value }),
      (error) => error instanceof ConfigError && error.message.includes(name),
    );
  }
});
