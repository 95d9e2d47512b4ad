/**
 * The search commands as a user runs them: govcat as a subprocess, over real HTTP, against the seeded
 * emulator — query with facets, suggest, autocomplete, browse down the tree, and bad input refused with
 * exit code 2 before anything is sent.
 */
import assert from "node:assert/strict";
import { startEmulator } from "../../lib/emulator/mod.ts";
import { runGovcat } from "../support/govcat_process.ts";

Deno.test("search query with facets, suggest, autocomplete and browse through the CLI", async () => {
  const emulator = await startEmulator({ seed: true });
  const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url };
  try {
    const query = await runGovcat([
      "search",
      "query",
      "--keywords=customers",
      "--limit=2",
      "--facet=entityType",
      "--facet",
      "classification",
    ], env);
    assert.equal(query.code, 0, query.stderr);
    const page = JSON.parse(query.stdout);
    assert.equal(page.value.length, 2);
    assert.equal(page.value[0].name, "Customers");
    const facets = page["@search.facets"];
    assert.deepEqual(Object.keys(facets).sort(), ["classification", "entityType"]);
    const counted = facets.entityType.reduce((sum: number, f: { count: number }) => sum + f.count, 0);
    assert.equal(counted, page["@search.count"], "facets count every match, not just the page");

    const suggest = await runGovcat(["search", "suggest", "--keywords=cust", "--limit=3"], env);
    assert.equal(suggest.code, 0, suggest.stderr);
    const suggestions = JSON.parse(suggest.stdout).value;
    assert.equal(suggestions.length, 3);
    assert.ok(suggestions.every((s: { "@search.text": string }) => s["@search.text"].includes("<em>")));

    const complete = await runGovcat(["search", "autocomplete", "--keywords=Sales d", "--limit=1"], env);
    assert.equal(complete.code, 0, complete.stderr);
    assert.deepEqual(JSON.parse(complete.stdout).value, [{ text: "db", queryPlusText: "Sales db" }]);

    const servers = await runGovcat(["search", "browse", "--entity-type=azure_sql_server"], env);
    assert.equal(servers.code, 0, servers.stderr);
    const server = JSON.parse(servers.stdout).value[0];
    assert.equal(server.path, "/azure_sql_server#contoso-sql.database.windows.net");
    const children = await runGovcat(["search", "browse", `--path=${server.path}`, "--output=table"], env);
    assert.equal(children.code, 0, children.stderr);
    assert.match(children.stdout, /SalesDb/);
    assert.match(children.stdout, /isLeaf/);
  } finally {
    await emulator.close();
  }
});

Deno.test("search commands refuse bad input with exit code 2 and send nothing", async () => {
  const emulator = await startEmulator();
  const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url };
  try {
    for (
      const [args, message] of [
        [["search", "query", "--facet=colour"], /facet/],
        [["search", "suggest", "--keywords="], /keywords/],
        [["search", "autocomplete", "--keywords=cust", "--limit=101"], /limit/],
        [["search", "browse", "--limit=0"], /limit/],
      ] as const
    ) {
      const result = await runGovcat([...args], env);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.equal(emulator.faults.stats().total, 0, "nothing reached the catalog");
  } finally {
    await emulator.close();
  }
});
