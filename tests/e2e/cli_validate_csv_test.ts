/**
 * `govcat validate csv` end to end, as a real subprocess: `--output=table` is the format of the result (a
 * table on stdout, no file named `table` where govcat runs), `--report-file` writes the report, the old
 * `--output=<path>` still does with a deprecation note, a file with problems exits 2 with its report on
 * stdout, semicolon and tab files are read, and nothing of it touches the catalog. Through MCP
 * (invoke_operation), the report of a bad file is a result, not an error: the model reads the problems.
 */
import assert from "node:assert/strict";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { baseEnv, govcatArgs, type ProcessResult, spawnPiped } from "../support/govcat_process.ts";
import { resultJson, startHarness } from "../support/mcp_harness.ts";

const TERM = "3c4d5e6f-7081-4293-a4b5-c6d7e8f90a1b";
const ENTITY = (i: number) => `1b2c3d4e-5f60-4718-9a0b-${i.toString(16).padStart(12, "0")}`;

interface Setup {
  emulator: RunningEmulator;
  dir: string;
  /** Runs `govcat …args` in `dir`, so a file a command writes by a bare name lands there. */
  govcat(...args: string[]): Promise<ProcessResult>;
  /** Writes `lines` joined by CRLF into `dir`; returns the path. */
  file(name: string, lines: string[]): Promise<string>;
}

async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const env = { CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url };
  const dir = await Deno.makeTempDir({ prefix: "govcat-validate-e2e-" });
  try {
    await test({
      emulator,
      dir,
      govcat: async (...args) => {
        const child = spawnPiped(govcatArgs(args), { env: { ...baseEnv(), ...env }, cwd: dir });
        const output = await child.output();
        const decoder = new TextDecoder();
        return {
          code: output.code,
          stdout: decoder.decode(output.stdout),
          stderr: decoder.decode(output.stderr),
        };
      },
      file: async (name, lines) => {
        const path = `${dir}/${name}`;
        await Deno.writeTextFile(path, lines.join("\r\n") + "\r\n");
        return path;
      },
    });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
  return found.sort();
}

/** An assignment file with one bad row (line 3). */
const BAD = ["term_guid,entity_guid", `${TERM},${ENTITY(1)}`, `${TERM},not-a-guid`];

Deno.test("validate csv --format alone prints the report itself: a problem a line, or CSV; exit 2 on problems", async () => {
  await withSetup(async ({ dir, govcat, file }) => {
    await file("assign.csv", BAD);
    const text = await govcat("validate", "csv", "--csv-file=assign.csv", "--format=text");
    assert.equal(text.code, 2, text.stderr);
    assert.match(text.stdout, /^assign\.csv:3:2: column entity_guid: "not-a-guid" is not a GUID.*\n$/);
    assert.equal(text.stdout.trim().split("\n").length, 1);

    const csv = await govcat("validate", "csv", "--csv-file=assign.csv", "--format=csv");
    assert.equal(csv.code, 2, csv.stderr);
    assert.match(csv.stdout, /^line,column,columnName,message\r\n3,2,entity_guid,/);

    await file("good.csv", BAD.slice(0, 2));
    const good = await govcat("validate", "csv", "--csv-file=good.csv", "--format=text");
    assert.deepEqual([good.code, good.stdout], [0, ""], good.stderr);
    // JSON is the printed summary already; no file is written by any of these.
    const json = await govcat("validate", "csv", "--csv-file=assign.csv", "--format=json");
    assert.equal(JSON.parse(json.stdout).problemCount, 1);
    assert.deepEqual(await names(dir), ["assign.csv", "good.csv"]);
  });
});

Deno.test("validate csv --output=table: a table on stdout, no file written; -o json and --output=csv are formats too", async () => {
  await withSetup(async ({ emulator, dir, govcat, file }) => {
    await file("assign.csv", BAD);
    const table = await govcat("validate", "csv", "--csv-file=assign.csv", "--output=table");
    assert.equal(table.code, 2, table.stderr);
    assert.match(table.stdout, /^field\s+value\n/);
    assert.match(table.stdout, /\ntemplate\s+glossary-assignments\n/);
    assert.match(table.stdout, /\nproblemCount\s+1\n/);
    assert.equal(table.stderr, "");
    const csv = await govcat("validate", "csv", "--csv-file", "assign.csv", "--output", "csv");
    assert.equal(csv.code, 2, csv.stderr);
    assert.match(csv.stdout, /^field,value\r?\n/);
    const json = await govcat("validate", "csv", "--csv-file=assign.csv", "-o", "json");
    assert.equal(JSON.parse(json.stdout).problemCount, 1);
    assert.deepEqual(await names(dir), ["assign.csv"], "no report file named after a format");
    assert.equal(emulator.faults.stats().total, 0, "validate never contacts the catalog");
  });
});

Deno.test("validate csv --report-file writes every problem; the old --output=<path> still does, with a note", async () => {
  await withSetup(async ({ dir, govcat, file }) => {
    await file("assign.csv", BAD);
    const report = await govcat("validate", "csv", "--csv-file=assign.csv", "--report-file=report.json");
    assert.equal(report.code, 2, report.stderr);
    assert.equal(report.stderr, "");
    assert.equal(JSON.parse(report.stdout).reportFile, "report.json");
    const written = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    assert.deepEqual(
      [written.template, written.delimiter, written.problemCount, written.problems[0].line],
      ["glossary-assignments", "comma", 1, 3],
    );

    const old = await govcat("validate", "csv", "--csv-file=assign.csv", "--output=old.txt", "--format=text");
    assert.equal(old.code, 2, old.stderr);
    assert.match(
      await Deno.readTextFile(`${dir}/old.txt`),
      /^assign\.csv:3:2: column entity_guid: "not-a-guid"/,
    );
    assert.match(
      old.stderr,
      /--output=old\.txt as the report file is deprecated .*; write --report-file=old\.txt/,
    );
    assert.deepEqual(await names(dir), ["assign.csv", "old.txt", "report.json"]);
  });
});

Deno.test("validate csv exits 0 on a good file and 2 on a bad one, whose report is on stdout, like an import of it", async () => {
  await withSetup(async ({ emulator, govcat, file }) => {
    await file("good.csv", BAD.slice(0, 2));
    const good = await govcat("validate", "csv", "--csv-file=good.csv");
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).valid, true);

    await file("assign.csv", BAD);
    const bad = await govcat("validate", "csv", "--csv-file=assign.csv");
    assert.equal(bad.code, 2, bad.stderr);
    const summary = JSON.parse(bad.stdout);
    assert.deepEqual([summary.valid, summary.problemCount], [false, 1]);
    assert.match(summary.problems[0], /^assign\.csv:3:2: column entity_guid: "not-a-guid" is not a GUID/);
    // The import of the same file exits 2 too, before anything is sent.
    const imported = await govcat("glossary", "assign_terms", "--csv-file=assign.csv");
    assert.equal(imported.code, 2, imported.stderr);
    assert.match(imported.stderr, /assign\.csv:3:2: column entity_guid: "not-a-guid" is not a GUID/);
    assert.match(imported.stderr, /govcat validate csv --csv-file assign\.csv .*--report-file report\.json/);
    assert.equal(emulator.faults.stats().total, 0);
  });
});

Deno.test("validate csv reads semicolon and tab files; a missing column is named, with how the header was read", async () => {
  await withSetup(async ({ govcat, file }) => {
    for (const [name, separator] of [["semicolon", ";"], ["tab", "\t"]]) {
      await file(`${name}.csv`, [`term_guid${separator}entity_guid`, `${TERM}${separator}${ENTITY(1)}`]);
      const result = await govcat("validate", "csv", `--csv-file=${name}.csv`);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      const summary = JSON.parse(result.stdout);
      assert.deepEqual([summary.template, summary.rows, summary.delimiter], [
        "glossary-assignments",
        1,
        name,
      ]);
    }
    await file("tables.csv", ["name;typeName;description", "orders;azure_sql_table;Orders"]);
    const missing = await govcat("validate", "csv", "--csv-file=tables.csv");
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, "");
    assert.match(
      missing.stderr,
      /^error: tables\.csv:1: the header \(name, typeName, description\) matches no CSV template\. The closest is entity-table, which needs the column qualifiedName\. The header was read with semicolons \(;\) between fields, detected from the header\.\nhint: Add the missing columns/,
    );
  });
});

Deno.test("MCP invoke_operation validate.csv: a bad file's report is the result (not an error), a format name as output refused", async () => {
  const root = await Deno.makeTempDir({ prefix: "govcat-validate-mcp-" });
  try {
    await Deno.writeTextFile(`${root}/assign.csv`, BAD.join("\r\n") + "\r\n");
    const harness = await startHarness({ env: { CATALOG_MCP_FILE_ROOT: root } });
    try {
      const call = (args: Record<string, unknown>) =>
        harness.client.callTool({
          name: "invoke_operation",
          arguments: { operation: "validate.csv", arguments: { csvFile: "assign.csv", ...args } },
        });
      const report = await call({ delimiter: "comma" });
      assert.equal(report.isError, undefined, JSON.stringify(report.content));
      const result = (report.structuredContent as { result: Record<string, unknown> }).result;
      assert.deepEqual([result.valid, result.problemCount, result.delimiter], [false, 1, "comma"]);
      assert.match((result.problems as string[])[0], /^assign\.csv:3:2: column entity_guid: /);

      const format = await call({ output: "table" });
      assert.equal(format.isError, true);
      const error = resultJson(format) as { message: string; hint: string };
      assert.match(error.message, /output "table" is an output format, not a report file/);
      assert.match(error.hint, /--report-file/);
      assert.deepEqual(await names(root), ["assign.csv"]);
    } finally {
      await harness.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
