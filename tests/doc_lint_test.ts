/**
 * The library's documentation lints clean: `deno doc --lint mod.ts` finds no exported symbol without JSDoc
 * and no public type that refers to a private one, in the modules listed here. The list grows as the rest
 * of the library is documented; once everything is clean it becomes the whole report.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Folders (ending in `/`) and files whose every problem fails the test, relative to the repository. */
const DOCUMENTED = [
  "mod.ts",
  "lib/errors.ts",
  "lib/log.ts",
  "lib/http.ts",
  "lib/config.ts",
  "lib/auth.ts",
  "lib/catalog/",
  "lib/unified/",
];

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

function isDocumented(file: string): boolean {
  const root = ROOT.pathname;
  if (!file.startsWith(root)) return false;
  const relative = file.slice(root.length);
  return DOCUMENTED.some((entry) => entry.endsWith("/") ? relative.startsWith(entry) : relative === entry);
}

Deno.test("deno doc --lint mod.ts reports no problem in the documented modules", async () => {
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
  const found = report.match(/Found (\d+) documentation lint errors?/);
  // A run that failed for another reason (a type error, a missing module) must not pass as clean.
  if (output.code !== 0) {
    assert.ok(found, `deno doc --lint failed without a lint report:\n${report}`);
    assert.equal(problems.length, Number(found[1]), "every reported problem was read");
  }
  const ours = problems.filter((problem) => isDocumented(problem.file));
  const listing = ours.map((problem) =>
    `${problem.file.slice(ROOT.pathname.length)}:${problem.line} ${problem.code}: ${problem.message}`
  );
  assert.deepEqual(listing, [], `documentation problems in the documented modules:\n${listing.join("\n")}`);
});

Deno.test("the report reader finds a problem in a documented module", () => {
  const file = `${ROOT.pathname}lib/catalog/types.ts`;
  const report = `error[missing-jsdoc]: exported symbol is missing JSDoc documentation\n  --> ${file}:3:14\n`;
  const problems = parseProblems(report);
  assert.deepEqual(problems, [
    { code: "missing-jsdoc", message: "exported symbol is missing JSDoc documentation", file, line: 3 },
  ]);
  assert.equal(isDocumented(problems[0].file), true);
  assert.equal(isDocumented(`${ROOT.pathname}lib/operations/types.ts`), false);
});
