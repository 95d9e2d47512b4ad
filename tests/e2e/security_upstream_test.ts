/**
 * A hostile catalog, on loopback: what answers in the catalog's place cannot exhaust memory with a gzip
 * bomb or an oversized body, cannot send requests (and tokens or bodies) to another host with a redirect,
 * and cannot make govcat retry at once or overflow a timer with a strange Retry-After.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { runBulkImport } from "../../lib/csv/engine.ts";
import { csvTemplate } from "../../lib/templates/csv/mod.ts";
import {
  RateLimitError,
  RedirectRefusedError,
  ResponseTooLargeError,
  RetryWaitTooLongError,
} from "../../lib/core/errors.ts";
import { HttpClient, type HttpClientOptions } from "../../lib/http/client.ts";
import { redirectTarget } from "../../lib/http/redirects.ts";
import { entityCsvImport } from "../../lib/imports/entity_csv_import.ts";
import { json, startLocalServer, withLocalServer } from "../support/local_server.ts";
import { startHarness } from "../support/mcp_harness.ts";

const MiB = 1024 * 1024;

function client(url: string, options: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({ baseUrls: { datamap: url }, retryBaseMs: 5, retryMaxMs: 20, ...options });
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  assert.fail("the call succeeded");
}

/** `size` bytes of JSON-ish whitespace, gzip-compressed in the test: about 1,000 times smaller. */
async function gzipBomb(size: number): Promise<Uint8Array> {
  const chunk = new Uint8Array(MiB).fill(0x20);
  let sent = 0;
  const source = new ReadableStream<BufferSource>({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
  return new Uint8Array(await new Response(source.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

/** Runs `task` while sampling the resident set size; returns its result and the peak growth in bytes. */
async function peakGrowth<T>(task: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const baseline = Deno.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => peak = Math.max(peak, Deno.memoryUsage().rss), 2);
  try {
    const result = await task();
    peak = Math.max(peak, Deno.memoryUsage().rss);
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

Deno.test("a gzip bomb fails with ResponseTooLargeError naming the cap, memory stays near the cap", async () => {
  const cap = 32 * MiB;
  const bomb = await gzipBomb(256 * MiB);
  assert.ok(bomb.byteLength < 1 * MiB, `the bomb is small on the wire (${bomb.byteLength} bytes)`);
  const answer = (request: { path: string }) =>
    request.path === "/warm-up" ? json(200, {}) : new Response(bomb.slice(), {
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
  await withLocalServer(answer, async (server) => {
    const http = client(server.url, { maxResponseBytes: cap });
    // Warmed up first, so what is measured is the answer, not the first use of fetch.
    await http.request({ method: "GET", path: "/warm-up" });
    const { result: error, growth } = await peakGrowth(() =>
      failure(http.request({ method: "GET", path: "/catalog/api/atlas/v2/entity/guid/bomb" }))
    );
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    assert.match(error.message, /larger than 32 MiB once decompressed/);
    assert.match(error.message, /CATALOG_MAX_RESPONSE_BYTES=33554432/);
    assert.match(error.hint ?? "", /CATALOG_MAX_RESPONSE_BYTES/);
    assert.equal(server.requests.length, 2, "a refused answer is not read again");
    assert.ok(growth < 2 * cap, `memory grew by ${(growth / MiB).toFixed(1)} MiB; the cap is 32 MiB`);
  });
});

Deno.test("three get_entity calls on a gzip bomb: error results naming the cap, memory near three caps", async () => {
  const cap = 32 * MiB;
  const bomb = await gzipBomb(256 * MiB);
  await withLocalServer(
    (request) =>
      request.path.includes("/warm-up") ? json(404, { errorCode: "ATLAS-404-00-005", errorMessage: "no" }) : (
        new Response(bomb.slice(), {
          headers: { "content-type": "application/json", "content-encoding": "gzip" },
        })
      ),
    async (server) => {
      const harness = await startHarness({
        env: { CATALOG_ENDPOINT: server.url, CATALOG_MAX_RESPONSE_BYTES: String(cap) },
      });
      try {
        const call = (guid: string) => harness.client.callTool({ name: "get_entity", arguments: { guid } });
        const guid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
        await call(guid(0));
        const { result, growth } = await peakGrowth(() => Promise.all([1, 2, 3].map((n) => call(guid(n)))));
        for (const answer of result) {
          assert.equal(answer.isError, true);
          const text = JSON.stringify(answer.content);
          assert.match(text, /ResponseTooLargeError/);
          assert.match(text, /CATALOG_MAX_RESPONSE_BYTES=33554432/);
        }
        assert.ok(
          growth < 6 * cap,
          `memory grew by ${(growth / MiB).toFixed(1)} MiB for 3 answers capped at 32 MiB`,
        );
      } finally {
        await harness.close();
      }
    },
  );
});

Deno.test("an oversized plain body is refused; one within the cap is read; the variable sets the cap", async () => {
  const big = JSON.stringify({ value: "x".repeat(2 * MiB) });
  await withLocalServer((request) => {
    if (request.path.endsWith("/chunked")) {
      // No length declared: counted while read.
      const bytes = new TextEncoder().encode(big);
      return new Response(new Blob([bytes]).stream(), { headers: { "content-type": "application/json" } });
    }
    return request.path.endsWith("/small") ? json(200, { ok: true }) : new Response(big);
  }, async (server) => {
    const http = client(server.url, { maxResponseBytes: MiB });
    for (const path of ["/declared", "/chunked"]) {
      const error = await failure(http.request({ method: "GET", path }));
      assert.ok(error instanceof ResponseTooLargeError, `${path}: ${error}`);
      assert.match(error.message, /larger than 1 MiB/);
    }
    assert.deepEqual(await http.request({ method: "GET", path: "/small" }), { ok: true });
    // The default cap reads it.
    assert.equal(
      (await client(server.url).request<{ value: string }>({ method: "GET", path: "/x" })).value.length,
      2 * MiB,
    );

    // From the configuration: CATALOG_MAX_RESPONSE_BYTES reaches the client.
    const configured = CatalogClient.fromConfig(loadConfig({
      CATALOG_ACCOUNT_NAME: "hostile",
      CATALOG_ENDPOINT: server.url,
      CATALOG_MAX_RESPONSE_BYTES: String(MiB),
    }));
    const viaConfig = await failure(configured.http.request({ method: "GET", path: "/declared" }));
    assert.ok(viaConfig instanceof ResponseTooLargeError, String(viaConfig));
    assert.match(viaConfig.message, /CATALOG_MAX_RESPONSE_BYTES=1048576/);
  });
});

Deno.test("a body that is not a byte stream (a stubbed fetch) is capped the same way", async () => {
  const real = globalThis.fetch;
  const answer = (body: string) => (() => Promise.resolve(new Response(body))) as typeof fetch;
  try {
    const http = client("http://127.0.0.1:9", { maxResponseBytes: MiB });
    globalThis.fetch = answer("x".repeat(2 * MiB));
    const error = await failure(http.request({ method: "GET", path: "/x" }));
    assert.ok(error instanceof ResponseTooLargeError, String(error));
    globalThis.fetch = answer(JSON.stringify({ ok: "y".repeat(MiB - 20) }));
    assert.equal((await http.request<{ ok: string }>({ method: "GET", path: "/x" })).ok.length, MiB - 20);
  } finally {
    globalThis.fetch = real;
  }
});

Deno.test("a redirect to another origin is not followed: the other port sees no request", async () => {
  const elsewhere = startLocalServer(() => json(200, { stolen: true }));
  try {
    await withLocalServer((request) => {
      if (request.path === "/same") {
        return new Response(null, { status: 302, headers: { location: "/target" } });
      }
      if (request.path === "/target") {
        return json(200, { followed: true, auth: request.headers.get("authorization") });
      }
      if (request.path === "/loop") {
        return new Response(null, { status: 307, headers: { location: "/loop" } });
      }
      return new Response(null, {
        status: request.method === "POST" ? 307 : 302,
        headers: {
          location: `${elsewhere.url}/steal?from=${request.path}`,
        },
      });
    }, async (server) => {
      const tokens = { getToken: () => Promise.resolve("catalog-token-for-this-host-only") };
      const http = client(server.url, { tokens });
      for (const method of ["GET", "POST"] as const) {
        const error = await failure(
          http.request({ method, path: "/away", body: method === "POST" ? { a: 1 } : undefined }),
        );
        assert.ok(error instanceof RedirectRefusedError, String(error));
        assert.ok(error.message.includes(`${elsewhere.url}/steal?from=/away`), error.message);
        assert.match(error.message, /another origin/);
      }
      assert.equal(elsewhere.requests.length, 0, "the other port saw no request");

      // Within the origin a redirect is followed, with the token (it is the same catalog).
      const same = await http.request<{ followed: boolean; auth: string }>({ method: "GET", path: "/same" });
      assert.deepEqual(same, { followed: true, auth: "Bearer catalog-token-for-this-host-only" });
      // A loop ends.
      const loop = await failure(http.request({ method: "GET", path: "/loop" }));
      assert.ok(loop instanceof RedirectRefusedError, String(loop));
      assert.match(loop.message, /more than 5 redirects/);
    });
  } finally {
    await elsewhere.close();
  }
});

Deno.test("a redirect from https to http is never followed, nor to another host", () => {
  const from = new URL("https://contoso.purview.azure.com/catalog/api/atlas/v2/entity/guid/x");
  const downgrade = redirectTarget(from, "http://contoso.purview.azure.com/catalog/api/x");
  assert.ok("refusal" in downgrade && /downgrade the connection from https to http/.test(downgrade.refusal));
  const other = redirectTarget(from, "https://evil.example/x");
  assert.ok("refusal" in other && /another origin \(https:\/\/evil\.example\)/.test(other.refusal));
  const port = redirectTarget(from, "https://contoso.purview.azure.com:8443/x");
  assert.ok("refusal" in port);
  assert.ok("refusal" in redirectTarget(from, null));
  const relative = redirectTarget(from, "../guid/y?page=2");
  assert.ok(
    "url" in relative &&
      relative.url.href === "https://contoso.purview.azure.com/catalog/api/atlas/v2/entity/guid/y?page=2",
  );
});

Deno.test("Retry-After values that are not a wait fall back to the backoff; they never mean now", async () => {
  const past = new Date(Date.now() - 3_600_000).toUTCString();
  for (const value of ["-5", "garbage", "1e3", past, "0x10"]) {
    const seen: number[] = [];
    await withLocalServer((_, i) => {
      seen.push(performance.now());
      return i === 0 ? json(429, {}, { "retry-after": value }) : json(200, { ok: true });
    }, async (server) => {
      const http = client(server.url, { retryBaseMs: 200, retryMaxMs: 200, maxRetries: 1 });
      assert.deepEqual(await http.request({ method: "GET", path: "/x" }), { ok: true });
      const gap = seen[1] - seen[0];
      // The backoff of the first retry is 100-200 ms with these settings.
      assert.ok(gap >= 90, `Retry-After: ${value} retried after ${gap.toFixed(0)} ms, not after the backoff`);
    });
  }
});

Deno.test("a wait longer than the maximum fails at once with RetryWaitTooLongError saying when", async () => {
  const future = new Date(Date.now() + 2 * 3_600_000).toUTCString();
  for (const value of ["1000000000", future, "99999999999999999999999"]) {
    await withLocalServer(
      () => json(429, { error: { code: "Throttled", message: "slow down" } }, { "retry-after": value }),
      async (server) => {
        const http = client(server.url, { maxRetryAfterMs: 120_000 });
        const started = performance.now();
        const error = await failure(http.request({ method: "GET", path: "/x" }));
        assert.ok(error instanceof RetryWaitTooLongError && error instanceof RateLimitError, String(error));
        assert.match(error.message, /slow down/);
        assert.match(
          error.message,
          /longer than the 120 s this client waits at most \(CATALOG_MAX_RETRY_WAIT\)/,
        );
        assert.match(error.hint ?? "", /^Retry after /);
        if (value !== "99999999999999999999999") {
          const until = /until (\S+)\)/.exec(error.message)?.[1];
          assert.ok(until && Date.parse(until) > Date.now() + 3_600_000, error.message);
        }
        assert.equal(server.requests.length, 1);
        assert.ok(performance.now() - started < 1_000);
      },
    );
  }
  // A date within the maximum is waited for.
  const soon = new Date(Math.ceil((Date.now() + 1_500) / 1000) * 1000).toUTCString();
  await withLocalServer(
    (_, i) => i === 0 ? json(429, {}, { "retry-after": soon }) : json(200, { ok: true }),
    async (server) => {
      const started = Date.now();
      assert.deepEqual(await client(server.url).request({ method: "GET", path: "/x" }), { ok: true });
      assert.ok(Date.now() >= Date.parse(soon) - 5, "waited until the date");
      assert.ok(Date.now() - started < 3_000);
    },
  );
});

Deno.test("a bulk import throttled with Retry-After: 1e9 s stops at once, no timer overflows", async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  const dir = await Deno.makeTempDir({ prefix: "govcat-security-" });
  try {
    await withLocalServer(() => json(429, {}, { "retry-after": "1000000000" }), async (server) => {
      const catalog = CatalogClient.fromConfig(
        loadConfig({
          CATALOG_ACCOUNT_NAME: "hostile",
          CATALOG_ENDPOINT: server.url,
          CATALOG_MAX_RETRIES: "3",
        }),
        { retryBaseMs: 5 },
      );
      const path = `${dir}/entities.csv`;
      const rows = Array.from({ length: 30 }, (_, i) => `DataSet,ds://throttled/${i},Set ${i}`);
      await Deno.writeTextFile(path, ["typeName,qualifiedName,displayName", ...rows].join("\n") + "\n");
      const started = performance.now();
      const error = await failure(
        runBulkImport(entityCsvImport(catalog, csvTemplate("entity-bulk-import")!), {
          file: path,
          batchSize: 10,
          concurrency: 3,
        }),
      );
      const elapsed = performance.now() - started;
      assert.match(error.message, /CATALOG_MAX_RETRY_WAIT/, String(error));
      assert.match(error.message, /until \d{4}-\d{2}-\d{2}T/);
      assert.ok(
        server.requests.length <= 3,
        `${server.requests.length} requests: one per batch in flight at most`,
      );
      assert.ok(elapsed < 5_000, `${elapsed} ms`);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(warnings.filter((w) => /TimeoutOverflow/.test(w)), []);
  } finally {
    process.off("warning", onWarning);
    await Deno.remove(dir, { recursive: true });
  }
});
