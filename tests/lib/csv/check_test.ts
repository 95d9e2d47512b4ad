import assert from "node:assert/strict";
import { UsageError } from "../../../lib/core/errors.ts";
import {
  bindHeader,
  checkCsvFile,
  checkCsvText,
  checkedRowBatches,
  checkedRows,
  checkedRowsFromText,
  checkRow,
  DuplicateTracker,
  REJECT_COLUMNS,
  templateHint,
} from "../../../lib/csv/check.ts";
import { columnKey, formatProblem, problemsError } from "../../../lib/csv/problems.ts";
import { csvLine, fileFingerprint } from "../../../lib/csv/reader.ts";
import type { CheckedRow, CsvProblem, CsvTemplate } from "../../../lib/csv/types.ts";

const GUID_A = "9F1C2D3E-4B5A-4C6D-8E7F-0A1B2C3D4E5F";

/** Every kind, a multi-value column, an alias, a pattern, a unique group and a cross-cell check. */
const ASSETS: CsvTemplate = {
  name: "test-assets",
  summary: "Assets for the checker tests",
  usage: "govcat test import --csv-file <file>",
  columns: [
    { name: "typeName", kind: "text", required: true, description: "the asset type" },
    {
      name: "qualifiedName",
      aliases: ["Qualified Name", "qn"],
      kind: "text",
      requiredColumn: true,
      description: "the asset's unique name",
    },
    { name: "guid", kind: "guid", description: "the asset GUID" },
    { name: "retention", kind: "integer", description: "days kept" },
    { name: "active", kind: "boolean", description: "in use" },
    { name: "confidence", kind: "score", description: "how sure" },
    { name: "status", kind: "enum", values: ["Draft", "Approved", "Expired"], description: "the status" },
    { name: "metadata", kind: "json", description: "extra JSON" },
    { name: "contacts", kind: "email", multi: true, description: "e-mail addresses" },
    { name: "link", kind: "url", description: "a web page" },
    { name: "tags", kind: "text", multi: true, description: "labels" },
    { name: "owners", kind: "guid", multi: true, description: "owner object IDs" },
  ],
  patterns: [{ prefix: "attr.", kind: "integer", description: "a numeric attribute" }],
  unique: [["typeName", "qualifiedName"]],
  checkRow: (row) =>
    row.values.status === "Expired" && row.values.active === true
      ? [["active", "an expired asset cannot be active; set active to false"]]
      : [],
  sample: [],
};

/** Looser: unknown columns allowed, one of guid or name needed, names unique on their own. */
const LOOSE: CsvTemplate = {
  name: "test-loose",
  summary: "",
  usage: "",
  columns: [
    { name: "guid", kind: "guid", description: "GUID" },
    { name: "name", kind: "text", description: "name" },
  ],
  strictColumns: false,
  oneOf: [["guid", "name"]],
  unique: [["name"]],
  sample: [],
};

const header = (...cells: string[]) => ({ line: 1, cells });
const bind = (template: CsvTemplate, ...cells: string[]) => bindHeader(template, header(...cells), "t.csv");

async function withFile<T>(content: string, body: (path: string) => Promise<T>): Promise<T> {
  const path = await Deno.makeTempFile({ prefix: "govcat_check_", suffix: ".csv" });
  try {
    await Deno.writeTextFile(path, content);
    return await body(path);
  } finally {
    await Deno.remove(path);
  }
}

Deno.test("header names match by column key and alias; reject columns are ignored", () => {
  assert.equal(columnKey("  Qualified_Name "), "qualifiedname");
  assert.equal(columnKey("type-name"), "typename");
  const { binding, problems } = bind(ASSETS, "TYPE NAME", "qn", "Source Line", "import_error", "attr.days");
  assert.deepEqual(problems, []);
  assert.deepEqual([...binding.positions], [["typeName", 0], ["qualifiedName", 1]]);
  assert.deepEqual(binding.slots.map((slot) => slot.type), [
    "column",
    "column",
    "ignored",
    "ignored",
    "pattern",
  ]);
  assert.deepEqual(REJECT_COLUMNS, ["source_line", "import_error"]);
});

Deno.test("header problems: unknown column with a suggestion, missing required column, a column twice", () => {
  const { problems } = bind(ASSETS, "typeName", "qualifedName", "Type_Name", "colour");
  assert.deepEqual(problems.map(formatProblem), [
    't.csv:1:2: column qualifedName: not a column of template test-assets. Did you mean "qualifiedName"? ' +
    "Known columns: typeName, qualifiedName, guid, retention, active, confidence, status, metadata, contacts, " +
    "link, tags, owners, attr.<name>.",
    't.csv:1:3: column Type_Name: the column typeName is already in the header as field 1 ("typeName"); ' +
    "remove one of them.",
    "t.csv:1:4: column colour: not a column of template test-assets. Known columns: typeName, qualifiedName, " +
    "guid, retention, active, confidence, status, metadata, contacts, link, tags, owners, attr.<name>.",
    "t.csv:1: the header has no qualifiedName column, which is required (the asset's unique name).",
  ]);
});

Deno.test("pattern columns must have their form and may not name __proto__, prototype or constructor", () => {
  const grouped: CsvTemplate = {
    ...ASSETS,
    patterns: [
      ...(ASSETS.patterns ?? []),
      {
        prefix: "bm.",
        kind: "text",
        description: "business metadata",
        nameParts: 2,
        nameForm: "bm.<group>.<attribute>",
      },
    ],
  };
  const { binding, problems } = bind(
    grouped,
    "typeName",
    "qualifiedName",
    "bm.Governance",
    "bm.__proto__.polluted",
    "attr.constructor",
    "attr.a..b",
    "bm.Governance.owner",
  );
  assert.deepEqual(problems.map(formatProblem), [
    't.csv:1:3: column bm.Governance: the column name "bm.Governance" does not have the form ' +
    "bm.<group>.<attribute>; name the column that way.",
    't.csv:1:4: column bm.__proto__.polluted: the column name "bm.__proto__.polluted" uses "__proto__", ' +
    "which cannot name an attribute; rename the column.",
    't.csv:1:5: column attr.constructor: the column name "attr.constructor" uses "constructor", which cannot ' +
    "name an attribute; rename the column.",
    't.csv:1:6: column attr.a..b: the column name "attr.a..b" does not have the form attr.<name>; name the ' +
    "column that way.",
  ]);
  assert.equal(binding.slots[6].type, "pattern", "a well-formed one is taken");
});

Deno.test("a loose template accepts unknown columns but needs one of its oneOf group", () => {
  assert.deepEqual(bind(LOOSE, "name", "whatever").problems, []);
  assert.deepEqual(bind(LOOSE, "whatever").problems.map((p) => p.message), [
    "the header needs at least one of the columns guid, name.",
  ]);
});

Deno.test("a header read with one separator but written with another says which and how to choose", () => {
  const { problems } = bind(ASSETS, "typeName;qualifiedName;status");
  assert.equal(problems.length, 1);
  assert.match(
    problems[0].message,
    /the file seems to use ';' to separate fields, but it was read with commas; give --delimiter=semicolon, or leave --delimiter out/,
  );
  assert.match(
    bind(ASSETS, "typeName\tqualifiedName").problems[0].message,
    /seems to use tabs.*--delimiter=tab/,
  );
  // Read with semicolons, a comma header is named as such.
  const comma = bindHeader(ASSETS, header("typeName,qualifiedName"), "t.csv", ";").problems;
  assert.match(comma[0].message, /seems to use ',' .* read with semicolons; give --delimiter=comma/);
});

Deno.test("good cells of every kind are converted; empty cells are absent", () => {
  const { binding } = bind(
    ASSETS,
    ...[
      "typeName",
      "qualifiedName",
      "guid",
      "retention",
      "active",
      "confidence",
      "status",
      "metadata",
      "contacts",
      "link",
      "tags",
      "owners",
      "attr.days",
    ],
  );
  const cells = [
    " table ",
    "db://x/y",
    GUID_A,
    "+30",
    "Yes",
    "0.85",
    "approved",
    '{"pipeline":"nightly"}',
    "a@contoso.com; b@contoso.com;",
    "https://contoso.com/wiki",
    " pii ; ;finance ",
    GUID_A,
    "7",
  ];
  const { row, problems } = checkRow(binding, { line: 2, cells });
  assert.deepEqual(problems, []);
  assert.deepEqual(row, {
    line: 2,
    cells,
    values: {
      typeName: "table",
      qualifiedName: "db://x/y",
      guid: GUID_A.toLowerCase(),
      retention: 30,
      active: true,
      confidence: 0.85,
      status: "Approved",
      metadata: { pipeline: "nightly" },
      contacts: ["a@contoso.com", "b@contoso.com"],
      link: "https://contoso.com/wiki",
      tags: ["pii", "finance"],
      owners: [GUID_A.toLowerCase()],
    },
    extras: { "attr.days": 7 },
  });
  const empty = checkRow(binding, {
    line: 3,
    cells: ["t", "q", "", "", "", "", "", "", " ; ", "", "", "", ""],
  });
  assert.deepEqual(empty.problems, []);
  assert.deepEqual(empty.row.values, { typeName: "t", qualifiedName: "q" });
  assert.deepEqual(empty.row.extras, {});
});

Deno.test("booleans take true/false, yes/no and 1/0 in any case; scores take 0 to 1", () => {
  const { binding } = bind(ASSETS, "typeName", "qualifiedName", "active", "confidence");
  const value = (active: string, confidence: string) =>
    checkRow(binding, { line: 2, cells: ["t", "q", active, confidence] }).row.values;
  for (
    const [text, expected] of [["TRUE", true], ["no", false], ["1", true], ["0", false], ["False", false]]
  ) {
    assert.equal(value(text as string, "").active, expected, String(text));
  }
  for (const [text, expected] of [["0", 0], ["1", 1], [".5", 0.5], ["1.0", 1], ["5e-1", 0.5]]) {
    assert.equal(value("", text as string).confidence, expected, String(text));
  }
});

Deno.test("bad cells are reported with line, column, name and what is expected", () => {
  const { binding } = bind(
    ASSETS,
    "typeName",
    "qualifiedName",
    "guid",
    "retention",
    "active",
    "confidence",
    "status",
    "metadata",
    "contacts",
    "link",
    "owners",
    "attr.days",
  );
  const { problems } = checkRow(binding, {
    line: 9,
    cells: [
      "",
      "q",
      "not-a-guid",
      "12.5",
      "maybe",
      "1.5",
      "Aproved",
      "{oops",
      "a@contoso.com;bob",
      "ftp://x",
      "x;" + GUID_A,
      "many",
    ],
  });
  assert.match(
    formatProblem(problems[6]),
    /^t\.csv:9:8: column metadata: "\{oops" is not valid JSON \(.+\); e\.g\./,
  );
  assert.deepEqual(problems.map(formatProblem).filter((_, i) => i !== 6), [
    "t.csv:9:1: column typeName: a value is required (the asset type).",
    't.csv:9:3: column guid: "not-a-guid" is not a GUID: 32 hexadecimal digits written 8-4-4-4-12 are expected, ' +
    "e.g. 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
    't.csv:9:4: column retention: "12.5" is not a whole number (e.g. 30)',
    't.csv:9:5: column active: "maybe" is not true or false (yes/no and 1/0 work too)',
    't.csv:9:6: column confidence: "1.5" is not a number from 0 to 1 (e.g. 0.85)',
    't.csv:9:7: column status: "Aproved" is not one of Draft, Approved, Expired (letter case does not matter). ' +
    'Did you mean "Approved"?',
    't.csv:9:9: column contacts: "bob" is not an e-mail address (e.g. name@contoso.com)',
    't.csv:9:10: column link: "ftp://x" is not an http(s) URL (e.g. https://contoso.com/wiki/page)',
    't.csv:9:11: column owners: "x" is not a GUID: 32 hexadecimal digits written 8-4-4-4-12 are expected, ' +
    "e.g. 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
    't.csv:9:12: column attr.days: "many" is not a whole number (e.g. 30)',
  ]);
  const comma = checkRow(binding, { line: 3, cells: ["t", "q", "", "", "", "0,5", "", "", "", "", "", ""] });
  assert.equal(comma.problems[0].message, '"0,5": write the decimal separator as a dot (0.5)');
});

Deno.test("ragged rows are reported with the expected count, and nothing else is guessed from them", () => {
  const { binding } = bind(ASSETS, "typeName", "qualifiedName", "guid");
  const fewer = checkRow(binding, { line: 4, cells: ["t", "q"] });
  assert.deepEqual(fewer.problems.map(formatProblem), [
    "t.csv:4: the row has 2 fields but the header has 3: add the missing fields (empty ones too, as in a,,c).",
  ]);
  assert.deepEqual(fewer.row.values, {});
  const more = checkRow(binding, { line: 5, cells: ["t", "q", "not a guid", "x"] });
  assert.equal(more.problems.length, 1);
  assert.match(
    more.problems[0].message,
    /has 4 fields but the header has 3: a value holding a comma must be enclosed/,
  );
});

Deno.test("the template's row check runs on rows whose cells passed, pointing at its column", () => {
  const { binding } = bind(ASSETS, "typeName", "qualifiedName", "status", "active");
  const expired = checkRow(binding, { line: 6, cells: ["t", "q", "EXPIRED", "yes"] });
  assert.deepEqual(expired.problems, [{
    file: "t.csv",
    line: 6,
    column: 4,
    columnName: "active",
    message: "an expired asset cannot be active; set active to false",
  }]);
  const bad = checkRow(binding, { line: 7, cells: ["t", "q", "EXPIRED", "perhaps"] });
  assert.equal(bad.problems.length, 1, "no cross-cell check on a row with a bad cell");
});

Deno.test("values under a column without a header name are refused; empty ones are fine", () => {
  const { binding, problems } = bind(LOOSE, "name", "");
  assert.deepEqual(problems, []);
  assert.deepEqual(checkRow(binding, { line: 2, cells: ["a", ""] }).problems, []);
  assert.deepEqual(checkRow(binding, { line: 3, cells: ["a", "stray"] }).problems.map(formatProblem), [
    't.csv:3:2: "stray" is under a column without a name in the header; name the column or remove the value.',
  ]);
});

/** Runs rows through a tracker, re-reading from the top as the checker does. */
function duplicates(tracker: DuplicateTracker, rows: CheckedRow[]): CsvProblem[] {
  for (const row of rows) tracker.add(row);
  if (tracker.unresolved > 0) {
    for (const row of rows) if (!tracker.resolve(row)) break;
  }
  return tracker.problems();
}

Deno.test("duplicates of a unique group are found without letter case, naming the first line", () => {
  const { binding } = bind(ASSETS, "typeName", "qualifiedName");
  const rows = [["table", "db://a"], ["table", "db://b"], ["TABLE", "DB://A"], ["view", "db://a"], [
    "table",
    "db://a",
  ]]
    .map((cells, i) => checkRow(binding, { line: i + 2, cells }).row);
  assert.deepEqual(duplicates(new DuplicateTracker(binding), rows).map(formatProblem), [
    't.csv:4:1: column typeName: "TABLE", "DB://A" is also on line 2 (typeName with qualifiedName must not repeat ' +
    "within the file, letter case aside); remove one of the rows or merge them.",
    't.csv:6:1: column typeName: "table", "db://a" is also on line 2 (typeName with qualifiedName must not repeat ' +
    "within the file, letter case aside); remove one of the rows or merge them.",
  ]);
});

Deno.test("rows with an empty value in the group are not compared", () => {
  const { binding } = bind(LOOSE, "guid", "name");
  const rows = [[GUID_A, ""], [GUID_A, ""], ["", "x"]].map((cells, i) =>
    checkRow(binding, { line: i + 2, cells }).row
  );
  assert.deepEqual(duplicates(new DuplicateTracker(binding), rows), []);
});

Deno.test("a hash collision never makes a false duplicate: keys are confirmed by re-reading first rows", () => {
  const { binding } = bind(LOOSE, "name");
  const names = ["alpha", "beta", "gamma", "BETA", "delta", "beta", "gamma"];
  const rows = names.map((name, i) => checkRow(binding, { line: i + 2, cells: [name] }).row);
  // Every key hashes alike: all rows but the first are hash hits.
  const tracker = new DuplicateTracker(binding, { hash: () => 42 });
  for (const row of rows) tracker.add(row);
  assert.equal(tracker.unresolved, 1);
  assert.throws(() => tracker.problems(), /not re-read/);
  assert.equal(tracker.resolve(rows[0]), false, "the first row resolves the only repeated hash");
  assert.deepEqual(tracker.problems().map((p) => [p.line, p.message.split(" is also on line ")]), [
    [5, [
      '"BETA"',
      "3 (name must not repeat within the file, letter case aside); remove one of the rows or merge them.",
    ]],
    [7, [
      '"beta"',
      "3 (name must not repeat within the file, letter case aside); remove one of the rows or merge them.",
    ]],
    [8, [
      '"gamma"',
      "4 (name must not repeat within the file, letter case aside); remove one of the rows or merge them.",
    ]],
  ]);
  // A collision with the first row itself: only the real repeat of "alpha" is reported.
  const second = new DuplicateTracker(binding, {
    hash: (key) => key === "zeta" || key === "alpha" ? 7 : key.length,
  });
  const more = ["alpha", "zeta", "alpha", "zeta"].map((name, i) =>
    checkRow(binding, { line: i + 2, cells: [name] }).row
  );
  assert.deepEqual(duplicates(second, more).map((p) => [p.line, p.message.match(/line (\d+)/)![1]]), [
    [4, "2"],
    [5, "3"],
  ]);
});

Deno.test("past its limit the tracker stops comparing and says so, instead of growing", () => {
  const { binding } = bind(LOOSE, "name");
  const rows = ["a", "a", "b", "a", "b", "c"].map((name, i) =>
    checkRow(binding, { line: i + 2, cells: [name] }).row
  );
  assert.deepEqual(duplicates(new DuplicateTracker(binding, { maxRepeats: 1 }), rows).map(formatProblem), [
    't.csv:3:1: column name: "a" is also on line 2 (name must not repeat within the file, letter case aside); ' +
    "remove one of the rows or merge them.",
    "t.csv:5: 2 more rows, from this line on, may repeat earlier rows but were not compared: one check compares " +
    "at most 1 repeating row. Remove the duplicates listed and check the file again.",
  ]);
  const one = ["a", "a", "b", "b"].map((name, i) => checkRow(binding, { line: i + 2, cells: [name] }).row);
  assert.equal(
    duplicates(new DuplicateTracker(binding, { maxRepeats: 1 }), one).map(formatProblem).at(-1),
    "t.csv:5: 1 more row, from this line on, may repeat earlier rows but was not compared: one check compares " +
      "at most 1 repeating row. Remove the duplicates listed and check the file again.",
  );
});

Deno.test("checkCsvFile streams a file: problems with places, rows counted, fingerprint of the same read", async () => {
  const text = [
    "typeName,qualifiedName,guid,status,notes",
    `table,db://a,${GUID_A},Draft,"first`,
    `line"`,
    "table,db://b,nope,Approved,x",
    "",
    "table,DB://A,,draft,dup",
    "view,db://c,,Lost,",
  ].join("\r\n");
  await withFile(text, async (path) => {
    const report = await checkCsvFile(path, { ...ASSETS, strictColumns: false }, {
      displayName: "assets.csv",
    });
    assert.equal(report.file, "assets.csv");
    assert.equal(report.template, "test-assets");
    assert.equal(report.rows, 4);
    assert.equal(report.problemCount, 3);
    assert.deepEqual(report.problems.map((p) => `${p.line}:${p.column}:${p.columnName}`), [
      "4:3:guid",
      "6:1:typeName",
      "7:4:status",
    ]);
    assert.match(
      formatProblem(report.problems[1]),
      /^assets\.csv:6:1: column typeName: .* is also on line 2 /,
    );
    assert.deepEqual({ sha256: report.sha256, size: report.size }, await fileFingerprint(path));
  });
});

Deno.test("checkCsvFile keeps the first problems by line but counts them all", async () => {
  const rows = Array.from({ length: 40 }, (_, i) => `t,q${i % 20},bad-${i}`);
  await withFile(["typeName,qualifiedName,guid", ...rows].join("\n"), async (path) => {
    const report = await checkCsvFile(path, ASSETS, { maxProblems: 25 });
    assert.equal(report.problemCount, 60, "40 bad GUIDs and 20 duplicates");
    assert.equal(report.problems.length, 25);
    assert.deepEqual(
      report.problems.map((p) => p.line),
      [...report.problems.map((p) => p.line)].sort((a, b) => a - b),
    );
    assert.ok(
      report.problems.some((p) => p.message.includes("is also on line")),
      "duplicates are merged in by line",
    );
    const error = problemsError(report, "Fix them.");
    assert.ok(error instanceof UsageError);
    const lines = error.message.split("\n");
    assert.equal(lines[0], `${path} has 60 problems; nothing was sent:`);
    assert.equal(lines.length, 1 + 25 + 1);
    assert.equal(lines.at(-1), "  … and 35 more");
    assert.equal(error.hint, "Fix them.");
  });
});

Deno.test("files that are not CSV throw; an empty file and a header-only file are reported, not thrown", async () => {
  await withFile('typeName,qualifiedName\nt,"open\nt,q\n', async (path) => {
    await assert.rejects(
      checkCsvFile(path, ASSETS, { displayName: "x.csv" }),
      (error: Error) =>
        error instanceof UsageError && error.message.startsWith("x.csv:2:2: unbalanced quote"),
    );
  });
  await withFile("", async (path) => {
    const report = await checkCsvFile(path, ASSETS);
    assert.equal(report.rows, 0);
    assert.equal(report.problemCount, 1);
    assert.match(
      report.problems[0].message,
      /^the file is empty: the first line must be the header\. Columns of the/,
    );
  });
  await withFile("typeName,qualifiedName\r\n", async (path) => {
    const report = await checkCsvFile(path, ASSETS);
    assert.deepEqual([report.rows, report.problemCount], [0, 0]);
  });
  await assert.rejects(checkCsvFile("/nonexistent/govcat.csv", ASSETS), /no such file/);
});

Deno.test("a reject file, fixed, checks clean: source_line and import_error are ignored", async () => {
  const text = [
    csvLine(["typeName", "qualifiedName", ...REJECT_COLUMNS]),
    csvLine(["table", "db://a", "7", "400 ATLAS-400-00-01A: bad value, try again"]),
  ].join("\r\n");
  const report = await checkCsvText(text, "rejects.csv", ASSETS);
  assert.deepEqual([report.rows, report.problemCount], [1, 0]);
});

Deno.test("checkCsvFile handles a 50,000-row file, reporting progress and a late problem's true line", async () => {
  const lines = ["typeName,qualifiedName,guid,notes"];
  for (let i = 0; i < 50_000; i++) {
    lines.push(
      i % 1000 === 0 ? `table,db://t${i},,"note\nover two lines"` : `table,db://t${i},${GUID_A},plain`,
    );
  }
  lines.push("table,db://last,bad,x");
  await withFile(lines.join("\n") + "\n", async (path) => {
    const progress: number[] = [];
    const report = await checkCsvFile(path, { ...ASSETS, strictColumns: false }, {
      onRows: (n) => progress.push(n),
    });
    assert.equal(report.rows, 50_001);
    assert.equal(progress.at(-1), 50_001);
    assert.ok(progress.length >= 10 && progress.every((n, i) => i === 0 || n >= progress[i - 1]));
    // 50 rows span two lines each: the last row starts on line 1 + 50,000 + 50 + 1.
    assert.deepEqual(report.problems.map((p) => [p.line, p.columnName]), [[50_052, "guid"]]);
  });
});

Deno.test("the second pass yields checked rows, and fails when the file changed since the check", async () => {
  const good = `typeName,qualifiedName,status\nt,a,draft\nt,b,\n`;
  await withFile(good, async (path) => {
    assert.equal((await checkCsvFile(path, ASSETS)).problemCount, 0);
    const rows: CheckedRow[] = [];
    for await (const row of checkedRows(path, ASSETS, { displayName: "a.csv" })) rows.push(row);
    assert.deepEqual(rows.map((row) => [row.line, row.values]), [
      [2, { typeName: "t", qualifiedName: "a", status: "Draft" }],
      [3, { typeName: "t", qualifiedName: "b" }],
    ]);
    await Deno.writeTextFile(path, `${good}t,c,Lost\n`);
    const seen: number[] = [];
    await assert.rejects(
      async () => {
        for await (const row of checkedRows(path, ASSETS, { displayName: "a.csv" })) seen.push(row.line);
      },
      (error: Error) =>
        error instanceof UsageError &&
        error.message.startsWith('a.csv changed after it was checked: a.csv:4:3: column status: "Lost"'),
    );
    assert.deepEqual(seen, [2, 3]);
  });
  const fromText: CheckedRow[] = [];
  for await (const row of checkedRowsFromText(good, "mem.csv", ASSETS)) fromText.push(row);
  assert.equal(fromText.length, 2);
});

Deno.test("the second pass in arrays: the same rows, none empty, and the rows before a change first", async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `t,q${i},draft`);
  const good = `typeName,qualifiedName,status\n${lines.join("\n")}\n`;
  await withFile(good, async (path) => {
    const one: CheckedRow[] = [];
    for await (const row of checkedRows(path, ASSETS)) one.push(row);
    const arrays: CheckedRow[][] = [];
    for await (const rows of checkedRowBatches(path, ASSETS)) arrays.push(rows);
    assert.ok(arrays.length > 1, "a file of several pieces comes in several arrays");
    assert.ok(arrays.every((rows) => rows.length > 0));
    assert.deepEqual(arrays.flat(), one);
    assert.equal(one.length, 3000);

    await Deno.writeTextFile(path, good.replace("t,q2500,draft", "t,q2500,Lost"));
    const seen: number[] = [];
    await assert.rejects(
      async () => {
        for await (const rows of checkedRowBatches(path, ASSETS, { displayName: "a.csv" })) {
          seen.push(...rows.map((row) => row.line));
        }
      },
      (error: Error) => error instanceof UsageError && error.message.includes("a.csv:2502:3: column status"),
    );
    assert.deepEqual(seen, Array.from({ length: 2500 }, (_, i) => i + 2));
  });
});

Deno.test("checkCsvText checks text in memory and fingerprints its UTF-8 bytes", async () => {
  const text = "\uFEFFtypeName,qualifiedName\r\nté,a\r\nTÉ,A\r\n";
  const report = await checkCsvText(text, "mem.csv", ASSETS);
  assert.equal(report.rows, 2);
  assert.deepEqual(report.problems.map(formatProblem), [
    'mem.csv:3:1: column typeName: "TÉ", "A" is also on line 2 (typeName with qualifiedName must not repeat ' +
    "within the file, letter case aside); remove one of the rows or merge them.",
  ]);
  assert.equal(report.size, new TextEncoder().encode(text).length);
  assert.match(report.sha256, /^[0-9a-f]{64}$/);
});

Deno.test("problems and template hints read well", () => {
  assert.equal(formatProblem({ file: "f.csv", line: 3, message: "row problem" }), "f.csv:3: row problem");
  assert.equal(
    formatProblem({ file: "f.csv", line: 3, column: 2, columnName: "status", message: "bad" }),
    "f.csv:3:2: column status: bad",
  );
  const single = problemsError({
    file: "f.csv",
    problems: [{ file: "f.csv", line: 2, message: "x" }],
    problemCount: 1,
  }, "h");
  assert.equal(single.message, "f.csv has 1 problem; nothing was sent:\n  f.csv:2: x");
  const hint = templateHint(ASSETS);
  assert.match(
    hint,
    /^Columns of the test-assets template: typeName \(required\), qualifiedName \(column required\), guid \(GUID\)/,
  );
  assert.match(hint, /status \(one of Draft, Approved, Expired\)/);
  assert.match(hint, /tags \(several separated by ';'\)/);
  assert.match(hint, /attr\.<name> \(whole number\)/);
  assert.match(hint, /typeName with qualifiedName must not repeat/);
  assert.match(templateHint(LOOSE), /At least one of guid, name is needed\./);
});

Deno.test("a file checks the same separated by semicolons, tabs or pipes; the report says how it was read", async () => {
  const rows = [["typeName", "qualifiedName", "status"], ["DataSet", "a;b", "Draft"], [
    "DataSet",
    "c",
    "Approved",
  ]];
  for (const [separator, detected] of [[";", true], ["\t", true], ["|", false]] as const) {
    const text = rows.map((row) => csvLine(row, separator)).join("\n") + "\n";
    const report = await checkCsvText(text, "t.csv", ASSETS, detected ? {} : { delimiter: separator });
    assert.deepEqual(
      [report.problemCount, report.rows, report.delimiter, report.delimiterDetected],
      [0, 2, separator, detected],
    );
    const values = [];
    for await (const row of checkedRowsFromText(text, "t.csv", ASSETS)) values.push(row.values.qualifiedName);
    assert.deepEqual(values, ["a;b", "c"]);
  }
  await withFile("typeName;qualifiedName\nDataSet;x\n", async (path) => {
    const report = await checkCsvFile(path, ASSETS);
    assert.deepEqual([report.problemCount, report.delimiter, report.delimiterDetected], [0, ";", true]);
    const read = [];
    for await (const batch of checkedRowBatches(path, ASSETS)) read.push(...batch.map((row) => row.values));
    assert.deepEqual(read, [{ typeName: "DataSet", qualifiedName: "x" }]);
  });
});

Deno.test("header problems of a file not separated by commas say how it was read, once", async () => {
  const report = await checkCsvText("qualifiedName;colour\nx;red\n", "t.csv", ASSETS);
  const messages = report.problems.map(formatProblem);
  assert.equal(messages.length, 2);
  const note = "(The file was read with semicolons (;) between fields, detected from the header.)";
  assert.equal(messages.filter((message) => message.endsWith(note)).length, 1);
  assert.ok(messages.some((message) => message.startsWith("t.csv:1: the header has no typeName column")));
  // Rows that do not fit the header are told in the file's own terms.
  const ragged = await checkCsvText("typeName;qualifiedName\nDataSet;x;y\nDataSet\n", "t.csv", ASSETS);
  assert.deepEqual(ragged.problems.map(formatProblem), [
    't.csv:2: the row has 3 fields but the header has 2: a value holding a semicolon must be enclosed in double quotes ("a; b").',
    "t.csv:3: the row has 1 field but the header has 2: add the missing fields (empty ones too, as in a;;c).",
  ]);
  // A comma file's problems are as they always were.
  const comma = await checkCsvText("qualifiedName\nx\n", "t.csv", ASSETS);
  assert.doesNotMatch(comma.problems.map(formatProblem).join("\n"), /read with/);
});

Deno.test("a template the service reads as it is refuses another separator than a comma, saying why", async () => {
  const serviceRead: CsvTemplate = { ...ASSETS, delimiters: [","] };
  const report = await checkCsvText("typeName;qualifiedName\nDataSet;x\n", "t.csv", serviceRead);
  assert.deepEqual(report.problems.map(formatProblem), [
    "t.csv:1: the file has semicolons (;) between fields, detected from the header, but it goes to the " +
    "service's own import as it is (govcat test import --csv-file <file>), which reads commas only: save it " +
    'with commas between fields (in Excel: "CSV UTF-8 (Comma delimited)").',
  ]);
  assert.equal(
    (await checkCsvText("typeName,qualifiedName\nDataSet,x\n", "t.csv", serviceRead)).problemCount,
    0,
  );
});
