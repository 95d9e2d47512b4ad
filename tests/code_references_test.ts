/**
 * Code states its facts instead of pointing at documents the repository does not hold: no section of the
 * product spec ("spec" followed by a section sign, or a bare section sign and number) and no issue number
 * in any source or test file. A reader cannot follow such a pointer, so the rule or behaviour it stands
 * for is written out where it applies, and design rationale lives in docs/design/.
 *
 * A section of a published standard stays allowed when the standard is named on the same line (an RFC
 * number or JSON-RPC 2.0): that pointer leads somewhere a reader can go.
 */
import assert from "node:assert/strict";
import { projectFiles } from "../tools/project_files.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** Where code and tests live; docs/ and the generated README/BENCHMARKS text are not code. */
const SCANNED = ["lib", "cli", "tools", "tests", "main.ts", "mod.ts"];

/** Source files the rule applies to. */
const SOURCE_EXTENSIONS = [".ts", ".js", ".json"];

/** A pointer into the product spec or the issue tracker. */
const POINTER_PATTERNS: RegExp[] = [
  /spec(?:'s)?\s*§/i,
  /§\s?\d/,
  /\bissues?\s+#?\d/i,
];

/** A section of a published standard, named on the same line: "RFC 9110 §15.5.9", "JSON-RPC 2.0 §5". */
const STANDARD_SECTION = /\b(?:RFC \d+|JSON-RPC 2\.0)(?:'s)?,? §\s?\d[\d.]*/g;

/** The file:line of every pointer in `text`, as `path:line: the line`. */
export function pointerLines(path: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const withoutStandards = line.replace(STANDARD_SECTION, "");
    if (POINTER_PATTERNS.some((pattern) => pattern.test(withoutStandards))) {
      found.push(`${path}:${index + 1}: ${line.trim()}`);
    }
  });
  return found;
}

Deno.test("no code or test points at a spec section or an issue number", async () => {
  const files = (await Promise.all(SCANNED.map((path) => projectFiles(path, SOURCE_EXTENSIONS)))).flat()
    .sort();
  assert.ok(files.length > 300, `scanned ${files.length} files: the walk found the source tree`);
  const pointers: string[] = [];
  for (const file of files) {
    pointers.push(...pointerLines(file, await Deno.readTextFile(`${ROOT}${file}`)));
  }
  assert.deepEqual(
    pointers,
    [],
    `${pointers.length} line(s) point at a document the repository does not hold; state the fact instead:\n` +
      pointers.join("\n"),
  );
});

Deno.test("the pointer check finds spec sections and issue numbers and lets standards' sections pass", () => {
  const sign = "\u00a7";
  const text = [
    `The CLI groups of spec ${sign}4.6.`,
    `the templates of ${sign}4.7`,
    `a summary (${"Issue"} 18: a batch answered 140 KB)`,
    `${"issue"} #29 moved the interval`,
    `RFC 9110 ${sign}15.5.9 says so; JSON-RPC 2.0 ${sign}5 too`,
    "an issue with the file, 3 rows",
  ].join("\n");
  assert.deepEqual(pointerLines("x.ts", text).map((line) => line.split(":").slice(0, 2).join(":")), [
    "x.ts:1",
    "x.ts:2",
    "x.ts:3",
    "x.ts:4",
  ]);
});
