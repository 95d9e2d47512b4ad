/**
 * The search commands as a user runs them: govcat as a subprocess, over real HTTP, against the seeded
 * emulator — query with facets, suggest, autocomplete, browse down the tree, and bad input refused with
 * exit code 2 before anything is sent.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

Deno.test("search query with facets, suggest, autocomplete and browse through the CLI", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const query = await setup.govcat(
      "search",
      "query",
      "--keywords=customers",
      "--limit=2",
      "--facet=entityType",
      "--facet",
      "classification",
    );
    assert.equal(query.code, 0, query.stderr);
    const page = query.json;
    assert.equal(page.value.length, 2);
    assert.equal(page.value[0].name, "Customers");
    const facets = page["@search.facets"];
    assert.deepEqual(Object.keys(facets).sort(), ["classification", "entityType"]);
    const counted = facets.entityType.reduce((sum: number, f: { count: number }) => sum + f.count, 0);
    assert.equal(counted, page["@search.count"], "facets count every match, not just the page");

    const suggest = await setup.govcat("search", "suggest", "--keywords=cust", "--limit=3");
    assert.equal(suggest.code, 0, suggest.stderr);
    const suggestions = suggest.json.value;
    assert.equal(suggestions.length, 3);
    assert.ok(suggestions.every((s: { "@search.text": string }) => s["@search.text"].includes("<em>")));

    const complete = await setup.govcat("search", "autocomplete", "--keywords=Sales d", "--limit=1");
    assert.equal(complete.code, 0, complete.stderr);
    assert.deepEqual(complete.json.value, [{ text: "db", queryPlusText: "Sales db" }]);

    const servers = await setup.govcat("search", "browse", "--entity-type=azure_sql_server");
    assert.equal(servers.code, 0, servers.stderr);
    const server = servers.json.value[0];
    assert.equal(server.path, "/azure_sql_server#contoso-sql.database.windows.net");
    const children = await setup.govcatText("search", "browse", `--path=${server.path}`, "--output=table");
    assert.equal(children.code, 0, children.stderr);
    assert.match(children.stdout, /SalesDb/);
    assert.match(children.stdout, /isLeaf/);
  });
});

Deno.test("search commands refuse bad input with exit code 2 and send nothing", async () => {
  await withCliSetup({}, async (setup) => {
    for (
      const [args, message] of [
        [["search", "query", "--facet=colour"], /facet/],
        [["search", "suggest", "--keywords="], /keywords/],
        [["search", "autocomplete", "--keywords=cust", "--limit=101"], /limit/],
        [["search", "browse", "--limit=0"], /limit/],
      ] as const
    ) {
      await assertRefusedLocally(setup, message, args);
    }
    assert.equal(setup.requests(), 0, "nothing reached the catalog");
  });
});

Deno.test("search query pages with --continuation-token to the end; null facets render as no facets", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    // The service answers "@search.facets": null when no facet is asked (Azure/azure-sdk-for-net
    // sdk/purview/Azure.Analytics.Purview.Catalog/tests/SessionRecords/CatalogClientTest/Search.json), and
    // a continuationToken only while more matches follow.
    const first = await setup.govcat("search", "query", "--keywords=*", "--limit=3");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json["@search.facets"], null);
    const total = first.json["@search.count"];
    const seen = new Set<string>(first.json.value.map((item: { id: string }) => item.id));
    let token: string | undefined = first.json.continuationToken;
    for (let pages = 1; token !== undefined && pages <= total; pages++) {
      const next = await setup.govcat(
        "search",
        "query",
        "--keywords=*",
        "--limit=3",
        `--continuation-token=${token}`,
      );
      assert.equal(next.code, 0, next.stderr);
      for (const item of next.json.value) seen.add(item.id);
      token = next.json.continuationToken;
    }
    assert.equal(token, undefined, "the last page has no token");
    assert.equal(seen.size, total, "every match once");

    const table = await setup.govcatText(
      "search",
      "query",
      "--keywords=customers",
      "--limit=2",
      "--output=table",
    );
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /Customers/);
    assert.match(table.stdout, /^continuationToken: \S+$/m);
    assert.doesNotMatch(table.stdout, /search\.facets/, "a null facet list is no note and no rows");
  });
});
