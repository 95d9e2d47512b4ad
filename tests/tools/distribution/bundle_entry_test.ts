import assert from "node:assert/strict";
import { deferEntry } from "../../../tools/distribution/bundle_entry.ts";

const BUNDLE = [
  "var x = 1;",
  "",
  "// main.ts",
  "if (import.meta.main) {",
  "  const value = await Promise.resolve(x);",
  "  Deno.exit(value);",
  "}",
  "/*! a legal comment */",
  "",
].join("\n");

Deno.test("entry: its code becomes a function started after one turn of the event loop", () => {
  const code = deferEntry(BUNDLE);
  assert.equal(
    code,
    [
      "var x = 1;",
      "",
      "// main.ts",
      "async function __govcat_main() {",
      "if (import.meta.main) {",
      "  const value = await Promise.resolve(x);",
      "  Deno.exit(value);",
      "}",
      "}",
      "/* A specifier esbuild cannot see, so that it stays a real import: one turn of the event loop. */",
      'var __govcat_tick = "data:text/javascript,";',
      "import(__govcat_tick).catch(() => undefined).then(__govcat_main);",
      "/*! a legal comment */",
      "",
    ].join("\n"),
  );
});

Deno.test("entry: refused when missing, not last, or with import or export statements", () => {
  assert.throws(() => deferEntry(BUNDLE, "cli.ts"), /has no cli\.ts section/);
  assert.throws(
    () => deferEntry(BUNDLE.replace("/*!", "// lib/late.ts\nvar y;\n/*!")),
    /not the last module/,
  );
  assert.throws(() => deferEntry(BUNDLE.replace("}\n/*!", "}\nexport { x };\n/*!")), /import or export/);
});
