/**
 * `govcat validate csv`, run in-process through the CLI: a valid file exits 0, a file with problems exits
 * 2 (bad input, as an import of it would) with the report on stdout and each problem as file:line:column,
 * the template is named or detected (and the result says which), --report-file writes every problem as
 * json, text or csv (the old --output=<file> too, with a note; --output=table is the format of the result),
 * the field separator is detected or given, and a large file is streamed.
 */
import assert from "node:assert/strict";
import { type CliIo, runCli } from "../../../cli/run.ts";
import { checkCsvText } from "../../../lib/csv/check.ts";
import { csvTemplate, sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import { confinedFileAccess } from "../../../lib/files/file_access.ts";
import { OPERATION_GROUPS } from "../../../lib/operations/groups.ts";
import { OperationRegistry } from "../../../lib/operations/registry.ts";
import type { OperationContext } from "../../../lib/operations/types.ts";
import {
  SUMMARY_PROBLEMS,
  VALIDATE_OPERATIONS,
  validateCsv,
} from "../../../lib/operations/validate_operations.ts";

const registry = new OperationRegistry(OPERATION_GROUPS).register(...VALIDATE_OPERATIONS);

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: {}, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const code = await runCli(argv, io, registry);
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

async function withDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "govcat-validate-" });
  try {
    await test(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const TERM = "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b";
const ENTITY = (i: number) => `1b2c3d4e-5f60-4718-9a0b-${i.toString(16).padStart(12, "0")}`;

Deno.test("validate csv: a valid file exits 0; the template is detected from the header, or named", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/tables.csv`;
    await Deno.writeTextFile(path, sampleCsvLines(csvTemplate("entity-table")!).join("\r\n") + "\r\n");
    const detected = await run("validate", "csv", `--csv-file=${path}`);
    assert.equal(detected.code, 0, detected.stderr);
    const summary = JSON.parse(detected.stdout);
    assert.deepEqual(
      { ...summary, usage: undefined },
      {
        file: path,
        template: "entity-table",
        detected: true,
        usage: undefined,
        delimiter: "comma",
        delimiterDetected: true,
        rows: 2,
        valid: true,
        problemCount: 0,
        problems: [],
      },
    );
    assert.match(summary.usage, /^govcat entity bulk-import/);

    // The same columns fit entity-bulk-import too (it has a name column): named, it is used as is.
    const named = await run("validate", "csv", "--csv-file", path, "--template=Entity-Bulk-Import");
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).template, "entity-bulk-import");
    assert.equal(JSON.parse(named.stdout).detected, false);
  });
});

Deno.test("validate csv: a file with problems exits 2 (bad input), the report on stdout, each problem as file:line:column", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/assign.csv`;
    await Deno.writeTextFile(
      path,
      [
        "term_guid,entity_guid",
        `${TERM},${ENTITY(1)}`,
        `not-a-guid,${ENTITY(2)}`,
        `${TERM},`,
        `${TERM},${ENTITY(1).toUpperCase()}`,
      ].join("\n") + "\n",
    );
    const result = await run("validate", "csv", `--csv-file=${path}`);
    assert.equal(result.code, 2, result.stderr);
    const summary = JSON.parse(result.stdout);
    assert.equal(summary.template, "glossary-assignments");
    assert.equal(summary.detected, true);
    assert.equal(summary.valid, false);
    assert.equal(summary.rows, 4);
    assert.equal(summary.problemCount, 3);
    // `failed` means rows the service refused (exit 1); nothing was sent here.
    assert.equal(summary.failed, undefined);
    assert.equal(summary.problems.length, 3);
    assert.match(
      summary.problems[0],
      new RegExp(`^${escape(path)}:3:1: column term_guid: "not-a-guid" is not a GUID`),
    );
    assert.match(
      summary.problems[1],
      new RegExp(`^${escape(path)}:4:2: column entity_guid: a value is required`),
    );
    assert.match(
      summary.problems[2],
      new RegExp(`^${escape(path)}:5:1: column term_guid: .* is also on line 2`),
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** An assignment file with `bad` rows whose entity_guid is not a GUID, after `good` valid rows. */
async function assignmentFile(path: string, good: number, bad: number): Promise<void> {
  const lines = ["term_guid,entity_guid"];
  for (let i = 0; i < good; i++) lines.push(`${TERM},${ENTITY(i)}`);
  for (let i = 0; i < bad; i++) lines.push(`${TERM},entity-${i}`);
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
}

Deno.test("validate csv --report-file: every problem in json (default), text or csv; the summary lists the first 100", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/many.csv`;
    await assignmentFile(path, 3, 150);
    const json = await run("validate", "csv", `--csv-file=${path}`, `--report-file=${dir}/report.json`);
    assert.equal(json.code, 2, json.stderr);
    assert.equal(json.stderr, "");
    const summary = JSON.parse(json.stdout);
    assert.equal(summary.problemCount, 150);
    assert.equal(summary.problems.length, SUMMARY_PROBLEMS);
    assert.equal(summary.reportFile, `${dir}/report.json`);
    assert.equal(summary.reportFormat, "json");
    assert.equal(summary.reportedProblems, 150);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.equal(report.template, "glossary-assignments");
    assert.equal(report.problemCount, 150);
    assert.equal(report.rows, 153);
    assert.equal(report.problems.length, 150);
    assert.deepEqual(
      { ...report.problems[149], message: undefined },
      { line: 154, column: 2, columnName: "entity_guid", message: undefined },
    );
    assert.match(report.problems[149].message, /"entity-149" is not a GUID/);

    const text = await run(
      "validate",
      "csv",
      `--csv-file=${path}`,
      `--report-file=${dir}/report.txt`,
      "--format=text",
    );
    assert.equal(text.code, 2, text.stderr);
    const lines = (await Deno.readTextFile(`${dir}/report.txt`)).trimEnd().split("\n");
    assert.equal(lines.length, 150);
    lines.forEach((line, i) =>
      assert.match(line, new RegExp(`^${escape(path)}:${i + 5}:2: column entity_guid: `))
    );

    const csv = await run(
      "validate",
      "csv",
      `--csv-file=${path}`,
      "--report-file",
      `${dir}/report.csv`,
      "--format",
      "csv",
    );
    assert.equal(csv.code, 2, csv.stderr);
    const csvText = await Deno.readTextFile(`${dir}/report.csv`);
    const rows = csvText.trimEnd().split("\r\n");
    assert.equal(rows[0], "line,column,columnName,message");
    assert.equal(rows.length, 151);
    assert.match(rows[1], /^5,2,entity_guid,"""entity-0"" is not a GUID/);

    // The report of a valid file holds no problem, and replaces the earlier one with --overwrite only.
    const valid = `${dir}/valid.csv`;
    await assignmentFile(valid, 2, 0);
    const before = await Deno.readTextFile(`${dir}/report.json`);
    const kept = await run("validate", "csv", `--csv-file=${valid}`, `--report-file=${dir}/report.json`);
    assert.equal(kept.code, 2);
    assert.match(kept.stderr, /--report-file: .*report\.json already exists; nothing was written/);
    assert.equal(await Deno.readTextFile(`${dir}/report.json`), before, "the earlier report is unchanged");
    const ok = await run(
      "validate",
      "csv",
      `--csv-file=${valid}`,
      `--report-file=${dir}/report.json`,
      "--overwrite",
    );
    assert.equal(ok.code, 0, ok.stderr);
    const empty = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.deepEqual([empty.valid, empty.problemCount, empty.problems], [true, 0, []]);
  });
});

Deno.test("validate csv: bad input is a usage error (exit 2) naming what to do", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/odd.csv`;
    await Deno.writeTextFile(path, "colour,size\nred,2\n");
    const none = await run("validate", "csv", `--csv-file=${path}`);
    assert.equal(none.code, 2);
    assert.match(
      none.stderr,
      /odd\.csv:1: the header \(colour, size\) matches no CSV template\. The closest is /,
    );
    assert.match(
      none.stderr,
      /The header was read with commas \(,\) between fields, detected from the header\./,
    );
    assert.match(
      none.stderr,
      /hint: Add the missing columns, or name the template with --template \(entity-bulk-import, /,
    );
    assert.equal(none.stdout, "");

    const close = `${dir}/close.csv`;
    await Deno.writeTextFile(close, "source_entity_guid,process_name\na,b\n");
    const closest = await run("validate", "csv", `--csv-file=${close}`);
    assert.equal(closest.code, 2);
    assert.match(closest.stderr, /The closest is lineage-basic, which needs the column target_entity_guid\./);

    const unknown = await run("validate", "csv", `--csv-file=${path}`, "--template=lineage-tabel");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown CSV template "lineage-tabel"\. Did you mean "lineage-table"\?/);

    const separator = await run("validate", "csv", `--csv-file=${path}`, "--delimiter=colon");
    assert.equal(separator.code, 2);
    assert.match(separator.stderr, /--delimiter: "colon" is not a field separator govcat reads/);
    assert.match(separator.stderr, /hint: Use comma, semicolon, tab or pipe/);

    const empty = `${dir}/empty.csv`;
    await Deno.writeTextFile(empty, "");
    const blank = await run("validate", "csv", `--csv-file=${empty}`);
    assert.equal(blank.code, 2);
    assert.match(blank.stderr, /empty\.csv is empty/);

    const missing = await run("validate", "csv", `--csv-file=${dir}/nope.csv`);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.csv/);

    // A named template that does not fit: the report lists what is wrong (and the exit code is 2).
    const mismatch = await run("validate", "csv", `--csv-file=${path}`, "--template=collections");
    assert.equal(mismatch.code, 2);
    assert.match(JSON.parse(mismatch.stdout).problems.join("\n"), /no collection_name column/);
  });
});

Deno.test("validate csv reads and writes through the front end's file access", async () => {
  await withDir(async (dir) => {
    await Deno.mkdir(`${dir}/root`);
    await assignmentFile(`${dir}/root/a.csv`, 2, 1);
    await assignmentFile(`${dir}/outside.csv`, 2, 1);
    const ctx = { files: confinedFileAccess(`${dir}/root`) } as unknown as OperationContext;
    const refuse = (input: Record<string, unknown>) =>
      assert.rejects(
        validateCsv.run(ctx, input),
        (error: unknown) => error instanceof UsageError && /outside the directory/.test(error.message),
      );
    await refuse({ csvFile: "../outside.csv" });
    await refuse({ csvFile: "a.csv", reportFile: "../report.json" });
    const result = await validateCsv.run(ctx, {
      csvFile: "a.csv",
      reportFile: "report.txt",
      format: "text",
    }) as {
      problemCount: number;
    };
    assert.equal(result.problemCount, 1);
    assert.match(await Deno.readTextFile(`${dir}/root/report.txt`), /^a\.csv:4:2: column entity_guid: /);
  });
});

Deno.test("validate csv streams a large file: 200,000 rows, problems at the right lines", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/big.csv`;
    const file = await Deno.open(path, { write: true, create: true });
    const encoder = new TextEncoder();
    const rows = 200_000;
    let chunk = "term_guid,entity_guid\n";
    for (let i = 0; i < rows; i++) {
      // Two bad rows, one early and one at the very end.
      chunk += i === 10 || i === rows - 1 ? `${TERM},bad-${i}\n` : `${TERM},${ENTITY(i)}\n`;
      if (chunk.length > 1 << 16) {
        await file.write(encoder.encode(chunk));
        chunk = "";
      }
    }
    await file.write(encoder.encode(chunk));
    file.close();
    const started = performance.now();
    const result = await run("validate", "csv", `--csv-file=${path}`);
    assert.equal(result.code, 2, result.stderr);
    const summary = JSON.parse(result.stdout);
    assert.equal(summary.rows, rows);
    assert.equal(summary.problemCount, 2);
    assert.match(summary.problems[0], /:12:2: column entity_guid: "bad-10"/);
    assert.match(summary.problems[1], new RegExp(`:${rows + 1}:2: column entity_guid: "bad-${rows - 1}"`));
    assert.ok(performance.now() - started < 30_000, "checked in well under 30 s");
  });
});

Deno.test("the report of a sample file checks like the file itself", async () => {
  // validate csv and checkCsvText agree: the command adds no rule of its own.
  const template = csvTemplate("uc-term-bulk")!;
  const text = "name,owner_id\nRevenue,jane@contoso.com\n";
  const direct = await checkCsvText(text, "t.csv", template);
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/t.csv`, text);
    const result = await run("validate", "csv", `--csv-file=${dir}/t.csv`, "--template=uc-term-bulk");
    assert.equal(result.code, 2);
    assert.equal(
      JSON.parse(result.stdout).problems[0],
      `${dir}/t.csv:2:2: column owner_id: ${direct.problems[0].message}`,
    );
    assert.match(direct.problems[0].message, /e-mail address; owner_id takes Entra ID object IDs/);
  });
});

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("validate csv --output=table is the format of the result: a table on stdout, no file named table", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/assign.csv`;
    await assignmentFile(path, 2, 1);
    // A report file would be written where govcat runs: here.
    const names = ["table", "json"];
    for (const name of names) assert.ok(!await exists(name), `no ${name} file here before the test`);
    try {
      const table = await run("validate", "csv", `--csv-file=${path}`, "--output=table");
      assert.equal(table.code, 2, table.stderr);
      assert.throws(() => JSON.parse(table.stdout), "a table, not JSON");
      assert.match(table.stdout, /glossary-assignments/);
      assert.match(table.stdout, /problemCount\s+1\b/);
      assert.doesNotMatch(table.stderr, /deprecated/);
      const json = await run("validate", "csv", `--csv-file=${path}`, "-o", "json");
      assert.equal(JSON.parse(json.stdout).problemCount, 1);
      for (const name of names) assert.ok(!await exists(name), `validate csv wrote a file named ${name}`);
    } finally {
      for (const name of names) await Deno.remove(name).catch(() => {});
    }
  });
});

Deno.test("validate csv --output=<path>, the old spelling of --report-file, still writes the report, with a note", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/assign.csv`;
    await assignmentFile(path, 2, 1);
    const old = await run(
      "validate",
      "csv",
      `--csv-file=${path}`,
      `--output=${dir}/old.txt`,
      "--format=text",
    );
    assert.equal(old.code, 2, old.stderr);
    assert.equal(JSON.parse(old.stdout).reportFile, `${dir}/old.txt`);
    assert.match(await Deno.readTextFile(`${dir}/old.txt`), /assign\.csv:4:2: column entity_guid: /);
    assert.match(
      old.stderr,
      new RegExp(
        `--output=${escape(dir)}/old\\.txt as the report file is deprecated .*; write --report-file=`,
      ),
    );

    const both = await run(
      "validate",
      "csv",
      `--csv-file=${path}`,
      `--output=${dir}/a.json`,
      `--report-file=${dir}/b.json`,
    );
    assert.equal(both.code, 2);
    assert.match(
      both.stderr,
      /--output and --report-file both name the report file; give --report-file only/,
    );
    assert.ok(!await exists(`${dir}/a.json`) && !await exists(`${dir}/b.json`));
  });
});

Deno.test("validate csv run without the command line (MCP): a format name as output is refused, not written", async () => {
  await withDir(async (dir) => {
    await assignmentFile(`${dir}/a.csv`, 1, 0);
    const ctx = { files: confinedFileAccess(dir) } as unknown as OperationContext;
    await assert.rejects(
      validateCsv.run(ctx, { csvFile: "a.csv", output: "table" }),
      (error: unknown) =>
        error instanceof UsageError &&
        /output "table" is an output format, not a report file/.test(error.message) &&
        /--report-file/.test(error.hint ?? ""),
    );
    assert.ok(!await exists(`${dir}/table`));
  });
});

Deno.test("validate csv reads semicolon-, tab- and pipe-separated files, detected or given with --delimiter", async () => {
  await withDir(async (dir) => {
    const rows = [["term_guid", "entity_guid"], [TERM, ENTITY(1)], [TERM, ENTITY(2)]];
    for (const [separator, name] of [[";", "semicolon"], ["\t", "tab"], ["|", "pipe"]]) {
      const path = `${dir}/${name}.csv`;
      await Deno.writeTextFile(path, rows.map((row) => row.join(separator)).join("\r\n") + "\r\n");
      const detected = await run("validate", "csv", `--csv-file=${path}`);
      assert.equal(detected.code, 0, detected.stdout + detected.stderr);
      const summary = JSON.parse(detected.stdout);
      assert.deepEqual(
        [summary.template, summary.rows, summary.delimiter, summary.delimiterDetected],
        ["glossary-assignments", 2, name, true],
      );
      const given = await run("validate", "csv", `--csv-file=${path}`, `--delimiter=${separator}`);
      assert.equal(given.code, 0, given.stdout + given.stderr);
      assert.deepEqual([JSON.parse(given.stdout).delimiter, JSON.parse(given.stdout).delimiterDetected], [
        name,
        false,
      ]);
    }
    // Given the wrong one, the header is one column and the problem says how the file was read.
    const wrong = await run(
      "validate",
      "csv",
      `--csv-file=${dir}/semicolon.csv`,
      "--template=glossary-assignments",
      "--delimiter=comma",
    );
    assert.equal(wrong.code, 2);
    assert.match(
      JSON.parse(wrong.stdout).problems[0],
      /semicolon\.csv:1: the header is one column .*: the file seems to use ';' to separate fields, but it was read with commas; give --delimiter=semicolon/,
    );
    // A problem in a semicolon file: its place, and the separator named.
    await Deno.writeTextFile(`${dir}/bad.csv`, `term_guid;entity_guid\r\n${TERM};nope\r\n`);
    const bad = await run("validate", "csv", `--csv-file=${dir}/bad.csv`);
    assert.equal(bad.code, 2);
    assert.match(
      JSON.parse(bad.stdout).problems[0],
      /bad\.csv:2:2: column entity_guid: "nope" is not a GUID/,
    );
    // A header that misses a column says so, and how it was read.
    await Deno.writeTextFile(`${dir}/short.csv`, `term_guid;note\r\n${TERM};x\r\n`);
    const short = await run(
      "validate",
      "csv",
      `--csv-file=${dir}/short.csv`,
      "--template=glossary-assignments",
    );
    const problems = JSON.parse(short.stdout).problems.join("\n");
    assert.match(problems, /short\.csv:1: the header has no entity_guid column, which is required/);
    assert.match(
      problems,
      /\(The file was read with semicolons \(;\) between fields, detected from the header\.\)/,
    );
  });
});

Deno.test("validate csv: a header missing a required column names that column of the template it is closest to", async () => {
  await withDir(async (dir) => {
    // entity-table without qualifiedName: entity-dataset could read it, but would refuse typeName.
    const path = `${dir}/tables.csv`;
    await Deno.writeTextFile(path, "name;typeName;description\r\norders;azure_sql_table;Orders\r\n");
    const result = await run("validate", "csv", `--csv-file=${path}`);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /tables\.csv:1: the header \(name, typeName, description\) matches no CSV template\. The closest is entity-table, which needs the column qualifiedName\. The header was read with semicolons \(;\) between fields, detected from the header\./,
    );
    // Lineage: a column file without source_column is a lineage-column file missing it.
    const lineage = `${dir}/lineage.csv`;
    await Deno.writeTextFile(
      lineage,
      `source_entity_guid,target_entity_guid,target_column\r\n${TERM},${ENTITY(1)},c\r\n`,
    );
    const missing = await run("validate", "csv", `--csv-file=${lineage}`);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /The closest is lineage-column, which needs the column source_column\./);
  });
});
