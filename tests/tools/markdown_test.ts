import assert from "node:assert/strict";
import { markdownTable, wrapText } from "../../tools/markdown.ts";

Deno.test("wrapText fills lines up to the width and indents the lines after the first", () => {
  const text = "one two three four five six seven eight nine ten";
  assert.equal(wrapText(text, 20, "  "), "one two three four\n  five six seven\n  eight nine ten");
  assert.ok(wrapText(text.repeat(20)).split("\n").every((line) => line.length <= 110));
});

Deno.test("wrapText keeps a code span and a link whole, as deno fmt does", () => {
  const wrapped = wrapText("see `a b c d e f` and [the command reference](index.md) here", 12);
  assert.deepEqual(wrapped.split("\n"), [
    "see",
    "`a b c d e f`",
    "and",
    "[the command reference](index.md)",
    "here",
  ]);
});

Deno.test("wrapText never starts a line with what would make it a list item or a heading", () => {
  const wrapped = wrapText("aaaaaa - bbbbbb 2. cccccc # d", 6);
  assert.deepEqual(wrapped.split("\n"), ["aaaaaa -", "bbbbbb 2.", "cccccc #", "d"]);
});

Deno.test("markdownTable pads the columns as deno fmt lays a table out and escapes pipes", () => {
  assert.equal(
    markdownTable(["A", "Bee"], [["x|y", "z"]]),
    "| A    | Bee |\n| ---- | --- |\n| x\\|y | z   |",
  );
});
