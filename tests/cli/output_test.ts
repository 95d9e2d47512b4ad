import assert from "node:assert/strict";
import { formatOutput, prepareOutput, renderOutput } from "../../cli/output.ts";
import { readCsvTextSync } from "../../lib/csv/reader.ts";
import { parseCsv } from "../../lib/deps/csv.ts";
import { AnswerTooDeepError, UsageError } from "../../lib/core/errors.ts";

/** CSV text read back by csv-parse, a record per row keyed by the header. */
function readCsv(text: string): Promise<Array<Record<string, string>>> {
  return new Promise((resolve, reject) =>
    parseCsv(text, { columns: true }, (error: Error | undefined, records: unknown) => {
      if (error) reject(error);
      else resolve(records as Array<Record<string, string>>);
    })
  );
}

/** The result of a search page, as the service gives it. */
const PAGE = {
  "@search.count": 8,
  "@search.count.approximate": false,
  value: [
    { id: "g1", name: "orders", classification: ["PII"], contact: [{ id: "c1" }], createTime: 1704067200000 },
    { id: "g2", name: "customers", classification: [], createTime: 1704067260000 },
  ],
  continuationToken: "tok1",
};

Deno.test("json is the result as indented JSON; a string result is printed as it is", () => {
  assert.equal(formatOutput({ a: [1] }, "json"), '{\n  "a": [\n    1\n  ]\n}');
  assert.equal(formatOutput(undefined, "json"), "null");
  for (const format of ["json", "table", "csv", "tsv"] as const) {
    assert.deepEqual(renderOutput("name,qualifiedName\n", format), {
      text: "name,qualifiedName\n",
      notes: [],
    });
  }
  // JSON keeps times and nested values exactly as the service gave them.
  assert.equal(formatOutput(PAGE, "json"), JSON.stringify(PAGE, null, 2));
});

Deno.test("table: a list of records is one row each, columns in first-seen order", () => {
  assert.equal(
    formatOutput([{ guid: "g1", typeName: "DataSet" }, { guid: "g2", status: "ACTIVE" }], "table"),
    [
      "guid  typeName  status",
      "----  --------  ------",
      "g1    DataSet",
      "g2              ACTIVE",
    ].join("\n"),
  );
  assert.equal(formatOutput([], "table"), "(no rows)");
});

Deno.test("a page's records are the rows; its count and continuation token follow the table, or go to stderr", () => {
  assert.deepEqual(renderOutput(PAGE, "table"), {
    text: [
      "id  name       classification  createTime",
      "--  ---------  --------------  ------------------------",
      'g1  orders     ["PII"]         2024-01-01T00:00:00.000Z',
      "g2  customers  []              2024-01-01T00:01:00.000Z",
      "",
      "@search.count: 8",
      "@search.count.approximate: false",
      "continuationToken: tok1",
    ].join("\n"),
    notes: [],
  });
  const notes = ["@search.count: 8", "@search.count.approximate: false", "continuationToken: tok1"];
  assert.deepEqual(renderOutput(PAGE, "csv"), {
    text: [
      "id,name,classification,createTime",
      'g1,orders,"[""PII""]",2024-01-01T00:00:00.000Z',
      "g2,customers,[],2024-01-01T00:01:00.000Z",
    ].join("\n"),
    notes,
  });
  assert.deepEqual(renderOutput(PAGE, "tsv"), {
    text: [
      "id\tname\tclassification\tcreateTime",
      'g1\torders\t["PII"]\t2024-01-01T00:00:00.000Z',
      "g2\tcustomers\t[]\t2024-01-01T00:01:00.000Z",
    ].join("\n"),
    notes,
  });
  // An empty page: the table says so; csv and tsv print nothing on stdout but still give the count.
  const empty = { "@search.count": 0, value: [] };
  assert.equal(formatOutput(empty, "table"), "(no rows)\n\n@search.count: 0");
  assert.deepEqual(renderOutput(empty, "csv"), { text: undefined, notes: ["@search.count: 0"] });
  assert.deepEqual(renderOutput(empty, "tsv"), { text: undefined, notes: ["@search.count: 0"] });
});

Deno.test("the list fields of list results: items, entities, list, templates, profiles, settings", () => {
  const rows = [{ name: "a" }, { name: "b" }];
  for (const field of ["items", "entities", "list", "templates", "profiles", "settings"]) {
    assert.equal(formatOutput({ [field]: rows }, "csv"), "name\na\nb", field);
  }
  assert.equal(
    formatOutput({ path: "/p.json", active: "prod", profiles: [{ name: "prod", default: true }] }, "table"),
    ["name  default", "----  -------", "prod  true", "", "path: /p.json", "active: prod"].join("\n"),
  );
  // Classifications of an entity: `list` with Atlas paging fields.
  const classifications = {
    list: [{ typeName: "PII", entityGuid: "e1" }],
    startIndex: 0,
    pageSize: 1,
    totalCount: 1,
    sortType: "NONE",
  };
  assert.equal(
    formatOutput(classifications, "table"),
    [
      "typeName  entityGuid",
      "--------  ----------",
      "PII       e1",
      "",
      "startIndex: 0",
      "pageSize: 1",
      "totalCount: 1",
      "sortType: NONE",
    ].join("\n"),
  );
});

Deno.test("entities show their name and qualified name as columns; one entity is field/value rows", () => {
  const entity = {
    guid: "g1",
    typeName: "DataSet",
    attributes: { name: "orders", qualifiedName: "db://orders" },
    labels: ["gold"],
  };
  assert.equal(
    formatOutput({ entities: [entity], referredEntities: {} }, "table"),
    [
      "guid  typeName  labels    name    qualifiedName",
      "----  --------  --------  ------  -------------",
      'g1    DataSet   ["gold"]  orders  db://orders',
    ].join("\n"),
  );
  assert.equal(
    formatOutput({ entity, referredEntities: { g9: { guid: "g9" } } }, "table"),
    [
      "field                     value",
      "------------------------  -----------",
      "guid                      g1",
      "typeName                  DataSet",
      "attributes.name           orders",
      "attributes.qualifiedName  db://orders",
      'labels                    ["gold"]',
    ].join("\n"),
  );
});

Deno.test("one record is field/value rows: nested records as dotted names, lists as compact JSON", () => {
  const domain = {
    id: "d1",
    name: "Sales",
    systemData: { createdAt: "2026-01-01T00:00:00Z", createdBy: "u1" },
    owners: [{ id: "o1" }],
    scopes: ["a", "b"],
    empty: [],
    none: {},
  };
  assert.equal(
    formatOutput(domain, "table"),
    [
      "field                 value",
      "--------------------  --------------------",
      "id                    d1",
      "name                  Sales",
      "systemData.createdAt  2026-01-01T00:00:00Z",
      "systemData.createdBy  u1",
      'owners                [{"id":"o1"}]',
      'scopes                ["a","b"]',
      "empty                 []",
      "none                  {}",
    ].join("\n"),
  );
  assert.deepEqual(renderOutput(domain, "csv"), {
    text: [
      "field,value",
      "id,d1",
      "name,Sales",
      "systemData.createdAt,2026-01-01T00:00:00Z",
      "systemData.createdBy,u1",
      'owners,"[{""id"":""o1""}]"',
      'scopes,"[""a"",""b""]"',
      "empty,[]",
      "none,{}",
    ].join("\n"),
    notes: [],
  });
  assert.equal(formatOutput({ count: 3 }, "tsv"), "field\tvalue\ncount\t3");
  assert.doesNotMatch(formatOutput({ credential: { kind: "chain" } }, "table"), /object Object/);
});

Deno.test("a typedef list is every definition, one row each; its nested definitions are left out", () => {
  const typedefs = {
    enumDefs: [{ category: "ENUM", name: "status", elementDefs: [{ value: "A" }] }],
    entityDefs: [
      { category: "ENTITY", name: "DataSet", superTypes: ["Asset"], attributeDefs: [{ name: "x" }] },
      { category: "ENTITY", name: "Asset", superTypes: [], attributeDefs: [] },
    ],
    relationshipDefs: [],
  };
  assert.equal(
    formatOutput(typedefs, "table"),
    [
      "category  name     superTypes",
      "--------  -------  ----------",
      "ENUM      status",
      'ENTITY    DataSet  ["Asset"]',
      "ENTITY    Asset    []",
    ].join("\n"),
  );
  // One definition with its element definitions is one record, not a typedef list.
  assert.match(formatOutput({ name: "status", elementDefs: [{ value: "A" }] }, "table"), /^field +value/);
});

Deno.test("lineage is its edges, each end with its name and type; the lineage fields follow", () => {
  const lineage = {
    baseEntityGuid: "t1",
    lineageDirection: "BOTH",
    guidEntityMap: {
      f1: { guid: "f1", typeName: "file", displayText: "customers.csv" },
      p1: { guid: "p1", typeName: "Process", attributes: { name: "load" } },
      t1: { guid: "t1", typeName: "table", displayText: "Customers" },
    },
    widthCounts: { INPUT: { t1: 1 } },
    relations: [
      { fromEntityId: "f1", toEntityId: "p1", relationshipId: "r1" },
      { fromEntityId: "p1", toEntityId: "t1", relationshipId: "r2" },
      { fromEntityId: "p1", toEntityId: "gone", relationshipId: "r3" },
    ],
    parentRelations: [],
  };
  assert.equal(
    formatOutput(lineage, "table"),
    [
      "fromName       fromType  toName     toType   fromEntityId  toEntityId  relationshipId",
      "-------------  --------  ---------  -------  ------------  ----------  --------------",
      "customers.csv  file      load       Process  f1            p1          r1",
      "load           Process   Customers  table    p1            t1          r2",
      "load           Process                       p1            gone        r3",
      "",
      "baseEntityGuid: t1",
      "lineageDirection: BOTH",
    ].join("\n"),
  );
  assert.equal(
    formatOutput({ ...lineage, relations: [] }, "csv"),
    "",
    "no edges: no rows",
  );
});

Deno.test("counts per facet are one row per facet value", () => {
  const facets = {
    facets: {
      status: [{ value: "PUBLISHED", count: 3 }, { value: "DRAFT", count: 1 }],
      owners: [],
    },
  };
  assert.equal(
    formatOutput(facets, "csv"),
    ["facet,value,count", "status,PUBLISHED,3", "status,DRAFT,1"].join("\n"),
  );
});

Deno.test("a tree is flattened depth first with depth and path columns; no child is dropped", () => {
  const hierarchy = {
    domainId: "d1",
    value: [
      {
        id: "t1",
        name: "Revenue",
        children: [
          {
            id: "t2",
            name: "Net revenue",
            isLeaf: false,
            children: [{ id: "t3", name: "Net EU", isLeaf: true, children: [] }],
          },
        ],
      },
      { id: "t4", name: "Cost", children: [] },
    ],
  };
  assert.equal(
    formatOutput(hierarchy, "table"),
    [
      "depth  path                            id  name         isLeaf",
      "-----  ------------------------------  --  -----------  ------",
      "0      Revenue                         t1  Revenue",
      "1      Revenue / Net revenue           t2  Net revenue  false",
      "2      Revenue / Net revenue / Net EU  t3  Net EU       true",
      "0      Cost                            t4  Cost",
      "",
      "domainId: d1",
    ].join("\n"),
  );
  // One term's hierarchy: its ancestors (root first), itself, its descendants.
  const term = {
    id: "t2",
    name: "Net revenue",
    ancestors: [{ id: "t0", name: "Finance" }, { id: "t1", name: "Revenue" }],
    children: [{ id: "t3", name: "Net EU", children: [] }],
  };
  assert.equal(
    formatOutput(term, "tsv"),
    [
      "depth\tpath\tid\tname",
      "0\tFinance\tt0\tFinance",
      "1\tFinance / Revenue\tt1\tRevenue",
      "2\tFinance / Revenue / Net revenue\tt2\tNet revenue",
      "3\tFinance / Revenue / Net revenue / Net EU\tt3\tNet EU",
    ].join("\n"),
  );
});

Deno.test("Atlas epoch-millisecond times are ISO 8601 in table, csv and tsv; counters and other numbers are not", () => {
  const typedef = {
    name: "t",
    createTime: 1704067200000,
    updateTime: "1704067200000",
    lastModifiedTS: "1",
    version: 1704067200000,
    startTime: 12,
  };
  const expected = [
    "field,value",
    "name,t",
    "createTime,2024-01-01T00:00:00.000Z",
    "updateTime,2024-01-01T00:00:00.000Z",
    "lastModifiedTS,1",
    "version,1704067200000",
    "startTime,12",
  ].join("\n");
  assert.equal(formatOutput(typedef, "csv"), expected);
  assert.equal(formatOutput(typedef, "tsv"), expected.replaceAll(",", "\t"));
  assert.match(formatOutput(typedef, "table"), /createTime +2024-01-01T00:00:00\.000Z/);
});

Deno.test("table: cells keep to one line, invisible characters escaped, and a cut cell ends in …", () => {
  const table = formatOutput(
    [{ description: "first line\nsecond\tline", long: "x".repeat(100), evil: "a\u001b[31mb\u202Ec" }],
    "table",
  );
  assert.equal(
    table,
    [
      `description             ${"long".padEnd(60)}  evil`,
      `----------------------  ${"-".repeat(60)}  -------------------`,
      `first line second line  ${"x".repeat(59)}…  a\\u001B[31mb\\u202Ec`,
    ].join("\n"),
  );
  assert.ok(table.split("\n").every((line) => !line.includes("\u001b")));
});

Deno.test("csv quotes what needs it and reads back to the same values", async () => {
  const rows = [
    { name: 'say "hi", then go', note: "line one\nline two", plain: "x" },
    { name: "=1+1", note: "", plain: " padded " },
  ];
  const text = formatOutput(rows, "csv");
  assert.equal(
    text,
    'name,note,plain\n"say ""hi"", then go","line one\nline two",x\n\'=1+1,, padded ',
  );
  // A plain CSV parser keeps the guard; govcat's readers take it off.
  assert.deepEqual(await readCsv(text), [rows[0], { ...rows[1], name: "'=1+1" }]);
  assert.deepEqual([...readCsvTextSync(text, "out.csv")].slice(1).map((row) => row.cells), [
    ['say "hi", then go', "line one\nline two", "x"],
    ["=1+1", "", " padded "],
  ]);
});

Deno.test("tsv escapes backslash, tab, line feed and carriage return, so each record is one line", () => {
  const text = formatOutput([{ a: "t\tab", b: "l\nf\r\n", c: "back\\slash" }], "tsv");
  assert.equal(text, "a\tb\tc\nt\\tab\tl\\nf\\r\\n\tback\\\\slash");
  assert.equal(text.split("\n").length, 2);
});

Deno.test("plain values print one per line without a header; lists of lists one row each", () => {
  for (const format of ["table", "csv", "tsv"] as const) {
    assert.equal(formatOutput(["a", "b"], format), "a\nb", format);
    assert.equal(formatOutput(3, format), "3", format);
    assert.equal(renderOutput(null, format).text, undefined, format);
  }
  assert.equal(formatOutput(["a b,c"], "csv"), '"a b,c"');
  assert.equal(formatOutput([["orders", "g1"], ["customers", "g22"]], "tsv"), "orders\tg1\ncustomers\tg22");
  assert.equal(formatOutput([["orders", "g1"], ["customers", "g22"]], "csv"), "orders,g1\ncustomers,g22");
  assert.equal(
    formatOutput([["orders", "g1"], ["customers", "g22"]], "table"),
    "orders     g1\ncustomers  g22",
  );
});

Deno.test("--query picks from the result before it is formatted", async () => {
  const names = await prepareOutput({ output: "tsv", query: "value[].name" });
  assert.deepEqual(names(PAGE), { text: "orders\ncustomers", notes: [] });
  const projected = await prepareOutput({ output: "csv", query: "value[].{id: id, created: createTime}" });
  assert.deepEqual(projected(PAGE), { text: "id,created\ng1,1704067200000\ng2,1704067260000", notes: [] });
  // A picked string is data: JSON quotes it.
  const first = await prepareOutput({ output: "json", query: "continuationToken" });
  assert.deepEqual(first(PAGE), { text: '"tok1"', notes: [] });
  const missing = await prepareOutput({ output: "json", query: "nothing.here" });
  assert.equal(missing(PAGE).text, "null");
  // Without a query, the result is formatted as it is.
  assert.deepEqual((await prepareOutput({ output: "json" }))(PAGE), renderOutput(PAGE, "json"));
});

Deno.test("a bad --query is a usage error naming the expression and the parser's message", async () => {
  await assert.rejects(
    () => prepareOutput({ output: "json", query: "value[?" }),
    (e) =>
      e instanceof UsageError && e.exitCode === 2 &&
      e.message ===
        '--query "value[?" is not a valid JMESPath expression: Syntax error: invalid token (EOF): ""',
  );
  const failing = await prepareOutput({ output: "json", query: "length(`1`)" });
  assert.throws(
    () => failing(PAGE),
    (e) =>
      e instanceof UsageError &&
      /^--query "length\(`1`\)" failed on the result: Invalid type/.test(e.message),
  );
});

Deno.test("a result nested past the render bound is a clear AnswerTooDeepError in every format", async () => {
  let deep: unknown = [];
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  for (const format of ["json", "table", "csv", "tsv"] as const) {
    assert.throws(
      () => renderOutput({ value: deep }, format),
      (error) => error instanceof AnswerTooDeepError && /more than 1000 levels deep/.test(error.message),
      format,
    );
  }
  const queried = await prepareOutput({ output: "json", query: "value" });
  assert.throws(() => queried({ value: deep }), AnswerTooDeepError);
});
