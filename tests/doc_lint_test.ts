/**
 * The library's documentation lints clean: `deno doc --lint mod.ts` finds no exported symbol without JSDoc
 * and no public type that refers to a private one, anywhere in the API `mod.ts` exports (`.ci/run` runs the
 * same command). A failure lists each problem as file:line, so it says where to write.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

interface DocProblem {
  code: string;
  message: string;
  file: string;
  line: number;
}

/** Problems of a `deno doc --lint` report: `error[code]: message` followed by `--> path:line:column`. */
function parseProblems(report: string): DocProblem[] {
  const problems: DocProblem[] = [];
  const pattern = /^error\[([a-z-]+)\]: (.*)\n\s+--> (.+):(\d+):\d+$/gm;
  for (const match of report.matchAll(pattern)) {
    problems.push({ code: match[1], message: match[2], file: match[3], line: Number(match[4]) });
  }
  return problems;
}

Deno.test("deno doc --lint mod.ts reports no problem", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", "mod.ts"],
    cwd: ROOT.pathname,
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const report = new TextDecoder().decode(output.stderr);
  const problems = parseProblems(report);
  const listing = problems.map((problem) =>
    `${problem.file.replace(ROOT.pathname, "")}:${problem.line} ${problem.code}: ${problem.message}`
  );
  assert.deepEqual(listing, [], `documentation problems:\n${listing.join("\n")}`);
  // A run that failed for another reason (a type error, a missing module) must not pass as clean.
  assert.equal(output.code, 0, report);
});

Deno.test("the report reader reads each problem's code, message, file and line", () => {
  const file = `${ROOT.pathname}lib/catalog/atlas_model.ts`;
  const report =
    `error[missing-jsdoc]: exported symbol is missing JSDoc documentation\n  --> ${file}:3:14\n` +
    `   |\n3 | export interface X {\n\nerror[private-type-ref]: public type 'A' references private type 'B'\n` +
    `  --> ${file}:9:1\n`;
  assert.deepEqual(parseProblems(report), [
    { code: "missing-jsdoc", message: "exported symbol is missing JSDoc documentation", file, line: 3 },
    { code: "private-type-ref", message: "public type 'A' references private type 'B'", file, line: 9 },
  ]);
});
