/**
 * A hostile catalog on loopback cannot hold govcat for ever: paging that never ends
 * (the same continuation token, a new token for the same page, a nextLink back to the page just read, an
 * offset the catalog ignores), an answer nested a million levels deep, and a catalog that sends its headers
 * slowly. Each case runs the real CLI as a subprocess (or the real tool server with an MCP client) and
 * asserts a fast, clear, specific failure.
 */
import assert from "node:assert/strict";
import { LOOPBACK_PERMISSIONS, type ProcessResult, runGovcat } from "../support/govcat_process.ts";
import { json, type LocalServer, type RecordedRequest, withLocalServer } from "../support/local_server.ts";
import { resultJson, startHarness } from "../support/mcp_harness.ts";

const GLOSSARY = "11111111-1111-4111-8111-111111111111";
const ENTITY = "22222222-2222-4222-8222-222222222222";
/** Past this a case counts as held: the old code was killed here (or ran far longer). */
const HELD_MS = 20_000;

function env(server: LocalServer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CATALOG_ACCOUNT_NAME: "hostile",
    CATALOG_ENDPOINT: server.url,
    CATALOG_MAX_RETRIES: "0",
    ...extra,
  };
}

/** Runs govcat against the hostile catalog; returns its result and how long it took. */
async function timedRun(
  args: string[],
  environment: Record<string, string>,
): Promise<ProcessResult & { ms: number }> {
  const started = performance.now();
  const result = await runGovcat(args, environment, {
    timeoutMs: HELD_MS,
    permissions: LOOPBACK_PERMISSIONS,
  });
  return { ...result, ms: performance.now() - started };
}

/** The failure is clear: an `error:` line and a hint, exit 1 or 2, and no stack trace. */
function assertClearFailure(result: ProcessResult & { ms: number }, message: RegExp): void {
  assert.ok(result.ms < HELD_MS - 2000, `govcat was held ${Math.round(result.ms)} ms`);
  assert.ok(result.code === 1 || result.code === 2, `exit code ${result.code}; stderr: ${result.stderr}`);
  assert.match(result.stderr, message);
  assert.match(result.stderr, /^hint: /m);
  assert.doesNotMatch(result.stderr, /unexpected failure|RangeError|\n\s+at /);
}

/** A page of 1,000 term headers; `first` numbers the first term, or every page is the same. */
function termHeaders(first: number): unknown[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    termGuid: `33333333-3333-4333-8333-${String(first + i).padStart(12, "0")}`,
    displayText: `term ${first + i}`,
  }));
}

function exportCsv(request: RecordedRequest): Response {
  const guids = JSON.parse(request.body) as string[];
  const csv = ["Name,Status", ...guids.map((guid) => `${guid},Draft`)].join("\n") + "\n";
  return new Response(csv, { headers: { "content-type": "text/csv" } });
}

/** The business metadata group the walks below look up first. */
const GOVERNANCE_GROUP = {
  category: "BUSINESS_METADATA",
  name: "Governance",
  attributeDefs: [{ name: "owner", typeName: "string" }],
};

Deno.test("hostile catalog: glossary export-terms stops at once when the offset is ignored", async () => {
  const outputFile = await Deno.makeTempFile({ suffix: ".csv" });
  await Deno.remove(outputFile);
  await withLocalServer((request) => {
    if (request.path.endsWith("/terms/headers")) return json(200, termHeaders(0));
    if (request.path.endsWith("/terms/export")) return exportCsv(request);
    return json(404, { errorCode: "NotFound", errorMessage: "no route" });
  }, async (server) => {
    const result = await timedRun(
      ["glossary", "export-terms", `--glossary-guid=${GLOSSARY}`, `--output-file=${outputFile}`],
      env(server),
    );
    assertClearFailure(result, /Stopped reading the terms of glossary .* after 2 pages and 2000 items/);
    assert.match(result.stderr, /same page again/);
    const pages = server.requests.filter((r) => r.path.endsWith("/terms/headers")).length;
    assert.equal(pages, 2, "stopped at the first repeated page");
    // Written whole or not at all: nothing is left behind.
    await assert.rejects(Deno.stat(outputFile), Deno.errors.NotFound);
  });
});

Deno.test("hostile catalog: glossary export-terms of endless pages stops at CATALOG_MAX_PAGES, streaming", async () => {
  const outputFile = await Deno.makeTempFile({ suffix: ".csv" });
  await Deno.remove(outputFile);
  let exports = 0;
  await withLocalServer((request, index) => {
    if (request.path.endsWith("/terms/headers")) return json(200, termHeaders(index * 1000));
    if (request.path.endsWith("/terms/export")) {
      exports++;
      return exportCsv(request);
    }
    return json(404, { errorCode: "NotFound", errorMessage: "no route" });
  }, async (server) => {
    const result = await timedRun(
      ["glossary", "export-terms", `--glossary-guid=${GLOSSARY}`, `--output-file=${outputFile}`],
      env(server, { CATALOG_MAX_PAGES: "3" }),
    );
    assertClearFailure(result, /after 3 pages and 3000 items .*past 3 pages \(CATALOG_MAX_PAGES\)/);
    assert.match(result.stderr, /raise CATALOG_MAX_PAGES/);
    // Each page was exported as it arrived, not after the whole list was held.
    assert.equal(exports, 3);
  });
});

Deno.test("glossary export-terms of three pages writes one header and every row, page by page", async () => {
  const outputFile = await Deno.makeTempFile({ suffix: ".csv" });
  await withLocalServer((request) => {
    if (request.path.endsWith("/terms/headers")) {
      const offset = Number(new URLSearchParams(request.search).get("offset"));
      return json(200, termHeaders(offset).slice(0, offset === 2000 ? 500 : 1000));
    }
    if (request.path.endsWith("/terms/export")) return exportCsv(request);
    return json(404, { errorCode: "NotFound", errorMessage: "no route" });
  }, async (server) => {
    const result = await timedRun(
      [
        "glossary",
        "export-terms",
        `--glossary-guid=${GLOSSARY}`,
        `--output-file=${outputFile}`,
        "--overwrite",
      ],
      env(server),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).terms, 2500);
    const lines = (await Deno.readTextFile(outputFile)).trimEnd().split("\n");
    assert.equal(lines.length, 2501);
    assert.equal(lines.filter((line) => line === "Name,Status").length, 1);
    assert.equal(server.requests.filter((r) => r.path.endsWith("/terms/export")).length, 3);
  });
  await Deno.remove(outputFile);
});

Deno.test("hostile catalog: types business-metadata-assets stops when the same page comes back", async () => {
  await withLocalServer((request, index) => {
    if (request.path.includes("/types/businessmetadatadef/name/")) {
      return json(200, GOVERNANCE_GROUP);
    }
    if (request.path.endsWith("/search/query")) {
      // A new token every time, for the same hits: only the page tells that paging never ends.
      return json(200, { value: [{ id: ENTITY }], continuationToken: `t${index}` });
    }
    return json(404, { errorCode: "NotFound", errorMessage: "no route" });
  }, async (server) => {
    const result = await timedRun(["types", "business-metadata-assets", "--name=Governance"], env(server));
    assertClearFailure(result, /Stopped reading the search for assets carrying Governance after 2 pages/);
    assert.match(result.stderr, /same page again/);
    assert.equal(server.requests.filter((r) => r.path.endsWith("/search/query")).length, 2);
  });
});

Deno.test("hostile catalog: collections list stops when new tokens lead to the same page", async () => {
  await withLocalServer((request, index) => {
    if (request.path === "/account/collections") {
      return json(200, {
        value: [{ name: "finance" }, { name: "sales" }],
        nextLink: `http://127.0.0.1/account/collections?$skipToken=t${index}`,
      });
    }
    return json(404, { error: { code: "NotFound", message: "no route" } });
  }, async (server) => {
    const result = await timedRun(["collections", "list"], env(server));
    assertClearFailure(result, /Stopped reading the collection list after 2 pages and 4 items/);
    assert.match(result.stderr, /same page again/);
    assert.equal(server.requests.length, 2);
  });
});

Deno.test("hostile catalog: a unified list whose nextLink leads back to the same page stops at once", async () => {
  await withLocalServer((request) => {
    if (request.path.startsWith("/datagovernance/catalog/")) {
      // A link back to the page just asked for, spelled differently (absolute, api-version first).
      const query = new URLSearchParams(request.search);
      const link = `http://${request.headers.get("host")}${request.path}?api-version=${
        query.get("api-version")
      }`;
      return json(200, { value: [{ id: "d1", name: "Finance" }], nextLink: link });
    }
    return json(404, { error: { code: "NotFound", message: "no route" } });
  }, async (server) => {
    const result = await timedRun(["uc", "domain", "list"], env(server));
    assertClearFailure(result, /sent the continuation ".*" a second time/);
    assert.equal(server.requests.length, 1, "the link back to the first page was never followed");
  });
});

/** `levels` nested arrays: `[[[…]]]`, two million bytes for a million levels. */
function nested(levels: number): string {
  return "[".repeat(levels) + "]".repeat(levels);
}

Deno.test("hostile catalog: a 1,000,000-level nested answer is a clear error in every output format", async () => {
  await withLocalServer(
    () =>
      new Response(`{"entity":${nested(1_000_000)}}`, { headers: { "content-type": "application/json" } }),
    async (server) => {
      for (const output of ["json", "table", "tsv"]) {
        const result = await timedRun(
          ["entity", "get", `--guid=${ENTITY}`, `--output=${output}`],
          env(server),
        );
        assertClearFailure(
          result,
          /nests arrays and objects more than 256 levels deep \(CATALOG_MAX_JSON_DEPTH=256\)/,
        );
        assert.equal(result.code, 1);
      }
    },
  );
});

Deno.test("hostile catalog: tool calls end with a clear error on deep answers and a repeated token", async () => {
  await withLocalServer((request, index) => {
    if (request.path.includes("/entity/guid/")) {
      return new Response(nested(1_000_000), { headers: { "content-type": "application/json" } });
    }
    if (request.path.includes("/types/businessmetadatadef/name/")) {
      return json(200, GOVERNANCE_GROUP);
    }
    if (request.path.endsWith("/search/query")) {
      // New hits on every page, the same token: only the token tells that paging never ends.
      return json(200, { value: [{ id: `hit-${index}` }], continuationToken: "again" });
    }
    return json(404, { errorCode: "NotFound", errorMessage: "no route" });
  }, async (server) => {
    const harness = await startHarness({ env: { CATALOG_ENDPOINT: server.url, CATALOG_MAX_RETRIES: "0" } });
    try {
      const deep = await harness.client.callTool({ name: "get_entity", arguments: { guid: ENTITY } });
      assert.equal(deep.isError, true);
      const deepBody = resultJson(deep);
      assert.equal(deepBody.error, "AnswerTooDeepError");
      assert.match(String(deepBody.message), /CATALOG_MAX_JSON_DEPTH=256/);

      const started = performance.now();
      const endless = await harness.client.callTool({
        name: "uc_cleanup_metadata_definition",
        arguments: { name: "Governance", check_only: true },
      });
      assert.ok(performance.now() - started < 5000);
      assert.equal(endless.isError, true);
      const endlessBody = resultJson(endless);
      assert.equal(endlessBody.error, "PagingError");
      assert.match(String(endlessBody.message), /sent the continuation "again" a second time/);
    } finally {
      await harness.close();
    }
  });
});

Deno.test("hostile catalog: headers sent slowly end at CATALOG_REQUEST_DEADLINE, not attempts × timeout", async () => {
  const release = new AbortController();
  const slowly = () =>
    new Promise<Response>((resolve) => {
      const answer = () => resolve(json(200, { entity: { guid: ENTITY } }));
      const timer = setTimeout(answer, 15_000);
      release.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        answer();
      });
    });
  await withLocalServer(slowly, async (server) => {
    try {
      // Four attempts of 2 s each would take 8 s and more with backoff; the deadline ends it at 3 s.
      const result = await timedRun(
        ["entity", "get", `--guid=${ENTITY}`],
        env(server, { CATALOG_TIMEOUT: "2", CATALOG_MAX_RETRIES: "3", CATALOG_REQUEST_DEADLINE: "3" }),
      );
      assertClearFailure(result, /within the 3 s deadline of one request \(CATALOG_REQUEST_DEADLINE\)/);
      assert.ok(result.ms < 7000, `took ${Math.round(result.ms)} ms`);
      assert.match(result.stderr, /raise CATALOG_REQUEST_DEADLINE/);
    } finally {
      release.abort();
    }
  });
});
