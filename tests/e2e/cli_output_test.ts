/**
 * Output people can script with, as a user runs it: govcat as a subprocess against the seeded emulator on
 * 127.0.0.1 — a search table that shows the count and the continuation token (and the token fetches the
 * next page), csv read back by a CSV parser with the paging fields on stderr, `--query` on a real result
 * before and after the command, and a bad `--query` or `--output` refused with exit code 2 before
 * anything is sent.
 */
import assert from "node:assert/strict";
import { parseCsv } from "../../lib/deps/csv.ts";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

function readCsv(text: string): Promise<Array<Record<string, string>>> {
  return new Promise((resolve, reject) =>
    parseCsv(text, { columns: true }, (error: Error | undefined, records: unknown) => {
      if (error) reject(error);
      else resolve(records as Array<Record<string, string>>);
    })
  );
}

Deno.test("search --output=table shows the count and the continuation token, which fetches the next page", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const all = await setup.govcat("search", "query", "--keywords=customers", "--limit=100");
    assert.equal(all.code, 0, all.stderr);
    const total = all.json["@search.count"];
    assert.ok(total > 2, "the seed has more than one page of customers");

    const first = await setup.govcatText(
      "search",
      "query",
      "--keywords=customers",
      "--limit=2",
      "--output=table",
    );
    assert.equal(first.code, 0, first.stderr);
    const [table, notes] = first.stdout.trimEnd().split("\n\n");
    assert.ok(notes, `a blank line and the paging fields follow the table:\n${first.stdout}`);
    const lines = table.split("\n");
    assert.match(lines[0], /^@search\.score +objectType +id +qualifiedName +name /);
    assert.match(lines[1], /^-+ +-+/);
    assert.equal(lines.length, 4, "a header, a rule and the two rows of the page");
    assert.match(notes, new RegExp(`^@search\\.count: ${total}$`, "m"));
    const token = notes.match(/^continuationToken: (\S+)$/m)?.[1];
    assert.ok(token, `the table shows the continuation token:\n${first.stdout}`);

    // Times are ISO 8601 in the table, epoch milliseconds in JSON.
    assert.match(lines[2], / \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
    assert.equal(typeof all.json.value[0].createTime, "number");

    const next = await setup.govcat(
      "search",
      "query",
      "--keywords=customers",
      "--limit=2",
      `--continuation-token=${token}`,
    );
    assert.equal(next.code, 0, next.stderr);
    const ids = (page: Array<{ id: string }>) => page.map((item) => item.id);
    assert.deepEqual(ids(next.json.value), ids(all.json.value).slice(2, 4), "the token gives the next page");
  });
});

Deno.test("--output=csv of a list command reads back as CSV: one record per item, paging fields on stderr", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const json = await setup.govcat("search", "query", "--keywords=customers", "--limit=3");
    assert.equal(json.code, 0, json.stderr);
    const csv = await setup.govcatText(
      "search",
      "query",
      "--keywords=customers",
      "--limit=3",
      "--output=csv",
    );
    assert.equal(csv.code, 0, csv.stderr);
    const records = await readCsv(csv.stdout);
    assert.equal(records.length, 3);
    // deno-lint-ignore no-explicit-any
    json.json.value.forEach((item: any, i: number) => {
      assert.equal(records[i].id, item.id);
      assert.equal(records[i].name, item.name);
      assert.equal(records[i].qualifiedName, item.qualifiedName);
      assert.equal(records[i].description ?? "", item.description ?? "");
      assert.equal(records[i].createTime, new Date(item.createTime).toISOString());
      assert.deepEqual(JSON.parse(records[i].classification), item.classification);
    });
    assert.doesNotMatch(csv.stdout, /continuationToken|@search\.count/, "stdout holds only the rows");
    assert.match(csv.stderr, new RegExp(`^@search\\.count: ${json.json["@search.count"]}$`, "m"));
    assert.match(csv.stderr, /^continuationToken: \S+$/m);

    // The same rule for another list: the collections of the account.
    const collections = await setup.govcat("collections", "list");
    const listed = await setup.govcatText("-o", "csv", "collections", "list");
    assert.equal(listed.code, 0, listed.stderr);
    const rows = await readCsv(listed.stdout);
    assert.deepEqual(
      rows.map((row) => [row.name, row.friendlyName]),
      // deno-lint-ignore no-explicit-any
      collections.json.value.map((c: any) => [c.name, c.friendlyName]),
    );
    assert.match(listed.stderr, new RegExp(`^count: ${collections.json.count}$`, "m"));
  });
});

Deno.test("--query picks from a real result, written before or after the command", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const json = await setup.govcat("search", "query", "--keywords=customers", "--limit=3");
    assert.equal(json.code, 0, json.stderr);
    // deno-lint-ignore no-explicit-any
    const names = json.json.value.map((item: any) => item.name);

    const after = await setup.govcatText(
      "search",
      "query",
      "--keywords=customers",
      "--limit=3",
      "--query",
      "value[].name",
      "-o",
      "tsv",
    );
    assert.equal(after.code, 0, after.stderr);
    assert.equal(after.stdout, `${names.join("\n")}\n`);

    const before = await setup.govcat(
      "--query=value[0].{name: name, id: id}",
      "search",
      "query",
      "--keywords=customers",
      "--limit=3",
    );
    assert.equal(before.code, 0, before.stderr);
    assert.deepEqual(before.json, { name: names[0], id: json.json.value[0].id });

    const count = await setup.govcat("search", "query", "--keywords=customers", '--query="@search.count"');
    assert.equal(count.code, 0, count.stderr);
    assert.equal(count.json, json.json["@search.count"]);
  });
});

Deno.test("a bad --query or --output is refused with exit code 2 before anything is sent", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const query = /error: --query "value\[\?name==" is not a valid JMESPath expression: Syntax error/;
    await assertRefusedLocally(setup, query, ["search", "query", "--query=value[?name=="]);
    await assertRefusedLocally(setup, query, ["--query", "value[?name==", "search", "query"]);
    const output = /error: --output must be one of json, table, csv, tsv, got "yaml"/;
    await assertRefusedLocally(setup, output, ["search", "query", "--output=yaml"]);
    await assertRefusedLocally(setup, output, ["-o", "yaml", "collections", "list"]);
  });
});
