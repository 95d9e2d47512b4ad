/**
 * `client.search` over real HTTP: against the seeded emulator (query, every page with queryAll, suggest,
 * autocomplete, browse), against a recording server (paths and api-versions: browse goes to the catalog
 * API 2023-02-01-preview), and its refusals before anything is sent.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { BROWSE_API_VERSION } from "../../../lib/catalog/search_api.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../../lib/emulator/mod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { json, startLocalServer } from "../../support/local_server.ts";

// The seed's 42 entities, its glossary "Retail Glossary" with 8 terms, and the glossary "Glossary" every new
// account has (glossaries and terms are search hits too).
const SEEDED_HITS = 52;

function clientFor(url: string): CatalogClient {
  return CatalogClient.fromConfig(loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: url }), {
    retryBaseMs: 5,
  });
}

async function withSeededClient(test: (client: CatalogClient, emulator: RunningEmulator) => Promise<void>) {
  const emulator = await startEmulator({ seed: true });
  try {
    await test(clientFor(emulator.url), emulator);
  } finally {
    await emulator.close();
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

Deno.test("query with facets, and queryAll following continuation tokens up to maxResults", async () => {
  await withSeededClient(async (client, emulator) => {
    const page = await client.search.query({ keywords: "*", limit: 5, facets: [{ facet: "entityType" }] });
    assert.equal(page["@search.count"], SEEDED_HITS);
    assert.equal(page.value?.length, 5);
    assert.ok(
      page["@search.facets"]?.entityType?.some((f) => f.value === "azure_sql_table" && f.count === 5),
    );

    const before = emulator.faults.stats().total;
    const all = await collect(client.search.queryAll({ keywords: "*", limit: 7 }));
    assert.equal(all.length, SEEDED_HITS);
    assert.equal(new Set(all.map((item) => item.id)).size, SEEDED_HITS, "every hit exactly once");
    assert.equal(emulator.faults.stats().total - before, 8, "pages of 7: seven full pages, then 3");

    const first10 = await collect(client.search.queryAll({ keywords: "*", limit: 4 }, { maxResults: 10 }));
    assert.deepEqual(first10.map((item) => item.id), all.slice(0, 10).map((item) => item.id), "same order");
    const sized = emulator.faults.stats().total;
    assert.equal((await collect(client.search.queryAll({ keywords: "*" }, { maxResults: 3 }))).length, 3);
    assert.equal(emulator.faults.stats().total - sized, 1, "one page of maxResults when no limit is given");
    assert.deepEqual(await collect(client.search.queryAll({ keywords: "*" }, { maxResults: 0 })), []);
    assert.deepEqual(await collect(client.search.queryAll({ keywords: "no-such-thing" })), []);
  });
});

Deno.test("suggest, autocomplete and browse answer in the contract's shapes", async () => {
  await withSeededClient(async (client) => {
    const suggestions = await client.search.suggest({ keywords: "cust", limit: 3 });
    assert.equal(suggestions.value?.length, 3);
    assert.match(String(suggestions.value?.[0]["@search.text"]), /<em>/);
    const tables = await client.search.suggest({
      keywords: "ord",
      filter: { entityType: "azure_sql_table" },
    });
    assert.deepEqual(tables.value?.map((item) => item.name), ["Orders"]);

    const completions = await client.search.autocomplete({ keywords: "Sales d" });
    assert.deepEqual(completions.value?.[0], { text: "db", queryPlusText: "Sales db" });

    const servers = await client.search.browse({ entityType: "azure_sql_server" });
    assert.equal(servers["@search.count"], 1);
    const databases = await client.search.browse({ path: servers.value![0].path });
    assert.deepEqual(databases.value?.map((item) => item.name).sort(), ["AnalyticsDb", "SalesDb"]);
    assert.ok(databases.value?.every((item) => item.isLeaf === false));
  });
});

Deno.test("discovery requests: data-map paths for search, the catalog API and its version for browse", async () => {
  const server = startLocalServer((request) =>
    json(200, request.path.endsWith("/browse") ? { "@search.count": 0, value: [] } : { value: [] })
  );
  try {
    const client = clientFor(server.url);
    await client.search.suggest({ keywords: "cust" });
    await client.search.autocomplete({ keywords: "cust", limit: 3 });
    await client.search.browse({ entityType: "azure_sql_table", limit: 10, offset: 20 });
    const sent = server.requests.map((r) => `${r.method} ${r.path}${r.search}`);
    assert.deepEqual(sent, [
      "POST /datamap/api/search/suggest?api-version=2023-09-01",
      "POST /datamap/api/search/autocomplete?api-version=2023-09-01",
      `POST /catalog/api/browse?api-version=${BROWSE_API_VERSION}`,
    ]);
    assert.equal(BROWSE_API_VERSION, "2023-02-01-preview");
    assert.deepEqual(JSON.parse(server.requests[1].body), { keywords: "cust", limit: 3 });
    assert.deepEqual(JSON.parse(server.requests[2].body), {
      entityType: "azure_sql_table",
      limit: 10,
      offset: 20,
    });
  } finally {
    await server.close();
  }
});

Deno.test("inputs outside the service's ranges are refused before anything is sent", async () => {
  const server = startLocalServer(() => json(200, {}));
  try {
    const client = clientFor(server.url);
    const refused: Array<[string, () => Promise<unknown>, RegExp]> = [
      ["query limit", () => client.search.query({ limit: 1001 }), /limit must be between 1 and 1000/],
      ["suggest empty", () => client.search.suggest({ keywords: " " }), /keywords must be 1 to 100/],
      ["suggest long", () => client.search.suggest({ keywords: "x".repeat(101) }), /keywords/],
      ["suggest limit", () => client.search.suggest({ keywords: "a", limit: 101 }), /limit/],
      ["autocomplete limit", () => client.search.autocomplete({ keywords: "a", limit: 0 }), /limit/],
      ["browse limit", () => client.search.browse({ limit: 10_001 }), /limit must be between 1 and 10000/],
      ["browse offset", () => client.search.browse({ offset: -1 }), /offset/],
      ["maxResults", () => collect(client.search.queryAll({}, { maxResults: -1 })), /maxResults/],
    ];
    for (const [what, send, message] of refused) {
      await assert.rejects(
        send,
        (error: Error) => error instanceof UsageError && message.test(error.message),
        what,
      );
    }
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

Deno.test("queryAll stops when the service sends a continuation token it sent before, new items or not", async () => {
  // A hostile or broken service: every page holds new hits, and every page names the same next page.
  const catalog = startLocalServer((_request, index) =>
    json(200, {
      "@search.count": 1_000_000,
      value: [{ id: `guid-${index}`, name: `asset ${index}` }],
      continuationToken: "same-token",
    })
  );
  try {
    const read: string[] = [];
    await assert.rejects(
      async () => {
        for await (
          const item of clientFor(catalog.url).search.queryAll({ keywords: "*" }, { maxResults: 500 })
        ) {
          read.push(item.id as string);
        }
      },
      (error: Error) => {
        assert.equal(error.name, "PagingError");
        assert.match(error.message, /sent the continuation "same-token" a second time/);
        return true;
      },
    );
    assert.deepEqual(read, ["guid-0", "guid-1"], "two pages read, the third never asked for");
    assert.equal(catalog.requests.length, 2);
  } finally {
    await catalog.close();
  }
});
