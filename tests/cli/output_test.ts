import assert from "node:assert/strict";
import { formatOutput } from "../../cli/output.ts";

function lines(text: string): string[] {
  return text.split("\n");
}

Deno.test("json is the result as indented JSON; a string result is printed as it is", () => {
  assert.equal(formatOutput({ a: [1] }, "json"), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(formatOutput(undefined, "json"), "null");
  assert.equal(formatOutput("name,qualifiedName\n", "table"), "name,qualifiedName\n");
});

Deno.test("table: a list of records is one row each, columns in first-seen order", () => {
  const table = lines(
    formatOutput([{ guid: "g1", typeName: "DataSet" }, { guid: "g2", status: "ACTIVE" }], "table"),
  );
  assert.deepEqual(table, [
    "guid  typeName  status",
    "----  --------  ------",
    "g1    DataSet",
    "g2              ACTIVE",
  ]);
  assert.equal(formatOutput([], "table"), "(no rows)");
});

Deno.test("table: entities show their name and qualified name as columns", () => {
  const page = {
    entities: [{
      guid: "g1",
      typeName: "DataSet",
      attributes: { name: "orders", qualifiedName: "db://orders" },
    }],
  };
  const table = lines(formatOutput(page, "table"));
  assert.deepEqual(table[0].split(/\s+/), ["guid", "typeName", "name", "qualifiedName"]);
  assert.match(table[2], /^g1 +DataSet +orders +db:\/\/orders$/);
  assert.match(lines(formatOutput({ entity: page.entities[0] }, "table"))[2], /orders/);
});

Deno.test("table: a record holding a list of records is still shown as itself", () => {
  const term = { guid: "t1", name: "Revenue", assignedEntities: [{ guid: "e1" }, { guid: "e2" }] };
  const table = lines(formatOutput(term, "table"));
  assert.deepEqual(table.slice(2, 4), ["guid              t1", "name              Revenue"]);
  assert.match(table[4], /^assignedEntities +\[\{"guid":"e1"\},\{"guid":"e2"\}\]$/);
});

Deno.test("table: the list of records a list result holds is its rows (profiles, settings)", () => {
  const listed = {
    path: "/home/u/.config/govcat/profiles.json",
    active: "prod",
    profiles: [{ name: "prod", default: true }, { name: "dev", default: false }],
  };
  assert.deepEqual(lines(formatOutput(listed, "table")), [
    "name  default",
    "----  -------",
    "prod  true",
    "dev   false",
  ]);
});

Deno.test("table: one record is field/value rows; nested values are compact JSON, never [object Object]", () => {
  const status = { profile: "prod", credential: { kind: "chain" }, scopes: ["a", "b"], empty: [] };
  const table = formatOutput(status, "table");
  assert.doesNotMatch(table, /object Object/);
  assert.deepEqual(lines(table).slice(2), [
    "profile     prod",
    'credential  {"kind":"chain"}',
    'scopes      ["a","b"]',
    "empty       []",
  ]);
});

Deno.test("table: cells keep to one line and at most 60 characters", () => {
  const table = lines(
    formatOutput([{ description: "first line\nsecond line", long: "x".repeat(100) }], "table"),
  );
  assert.equal(table[2].split(/\s{2,}/)[0], "first line second line");
  assert.ok(table.every((line) => line.length <= 60 + 2 + 22), table.join("\n"));
  assert.ok(table[2].endsWith("x".repeat(60)));
});
