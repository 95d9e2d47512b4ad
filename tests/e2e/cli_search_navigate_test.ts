/**
 * `govcat search navigate` as a user runs it: a subprocess of main.ts, over real HTTP, against the seeded
 * emulator's `POST /datamap/api/navigate` (data-map API 2024-03-01-preview). Walking from the top to a
 * table by each item's fullPath, counts, pages, and the refusals.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

interface Item {
  name: string;
  fullPath: string;
  isEntity: boolean;
  isLeafNode: boolean;
  count?: number;
}

Deno.test("search navigate walks from the top to the tables by each item's fullPath", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-navigate-" }, async (setup) => {
    const top = await setup.govcat("search", "navigate", "--include-next-level-asset-count");
    assert.equal(top.code, 0, top.stderr);
    const server = (top.json.items as Item[]).find((i) => i.name === "azure_sql_server")!;
    assert.equal(server.fullPath, "/azure_sql_server");
    assert.equal(server.count, 1);

    let path = server.fullPath;
    const walked: string[] = [];
    for (
      const next of ["contoso-sql", "azure_sql_db", "SalesDb", "azure_sql_schema", "dbo", "azure_sql_table"]
    ) {
      const level = await setup.govcat("search", "navigate", `--path=${path}`);
      assert.equal(level.code, 0, level.stderr);
      const item = (level.json.items as Item[]).find((i) => i.name === next);
      assert.ok(item, `${next} under ${path}: ${level.stdout}`);
      walked.push(item.name);
      path = item.fullPath;
    }
    assert.equal(
      path,
      "/azure_sql_server/contoso-sql/azure_sql_db/SalesDb/azure_sql_schema/dbo/azure_sql_table",
    );
    const tables = await setup.govcat("search", "navigate", `--path=${path}`, "--max-page-size=2");
    assert.equal(tables.code, 0, tables.stderr);
    assert.equal(tables.json.items.length, 2);
    assert.equal(typeof tables.json.continuationToken, "string");
    const more = await setup.govcat(
      "search",
      "navigate",
      `--path=${path}`,
      "--max-page-size=2",
      `--continuation-token=${tables.json.continuationToken}`,
    );
    assert.equal(more.code, 0, more.stderr);
    const firstNames = (tables.json.items as Item[]).map((i) => i.name);
    assert.ok(
      (more.json.items as Item[]).every((i) => !firstNames.includes(i.name)),
      "the next page, not the same",
    );
  });
});

Deno.test("search navigate refuses a bad page size itself, and reports a path naming nothing", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-navigate-" }, async (setup) => {
    await assertRefusedLocally(setup, /max-page-size|maxPageSize/, [
      "search",
      "navigate",
      "--max-page-size=0",
    ]);
    await assertRefusedLocally(setup, /navigation-mode|navigationMode/, [
      "search",
      "navigate",
      "--navigation-mode=sideways",
    ]);
    const missing = await setup.govcat("search", "navigate", "--path=/azure_sql_server/no-such-server");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /status: 404/);
    assert.match(missing.stderr, /Navigate \/azure_sql_server/);
    assert.match(missing.stderr, /hint: .*govcat search navigate/);
  });
});
