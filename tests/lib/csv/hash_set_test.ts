import assert from "node:assert/strict";
import { groupKeyHash53 } from "../../../lib/csv/duplicates.ts";
import { hash53, HashSet53 } from "../../../lib/csv/hash_set.ts";
import type { CellValue, CheckedRow } from "../../../lib/csv/types.ts";
import { fc, propertyRuns } from "../../support/property.ts";

Deno.test("HashSet53 says whether a hash was there, through growth, expected size and release", () => {
  for (const expected of [0, 50_000, 1_000_000]) {
    const set = new HashSet53();
    set.expect(expected);
    // 0 and 1 share a slot (0 marks a free one): at worst a collision, which the tracker confirms.
    assert.equal(set.has(0), false);
    assert.equal(set.has(1), true);
    const values = Array.from({ length: 60_000 }, (_, i) => hash53(`row ${i}`));
    assert.ok(values.every((value) => !set.has(value)), `fresh values are new (expected ${expected})`);
    assert.ok(values.every((value) => set.has(value)), `values added are found (expected ${expected})`);
    assert.equal(set.has(2 ** 53 - 1), false);
    assert.equal(set.has(2 ** 53 - 1), true);
    set.release();
    assert.equal(set.has(values[0]), false, "a released set is empty");
    assert.equal(set.has(values[0]), true, "and usable again");
  }
});

/** The key text the duplicate check hashes: values in lower case, lists joined with `;`, columns with NUL. */
function keyText(values: Record<string, CellValue>, columns: string[]): string {
  const text = (value: CellValue): string =>
    typeof value === "string"
      ? value.toLowerCase()
      : Array.isArray(value)
      ? value.map(text).join(";")
      : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value).toLowerCase();
  return columns.map((column) => text(values[column])).join("\u0000");
}

Deno.test("property: a row's key hash is hash53 of its key text, which is never built", () => {
  // ASCII (lowered on the fly), characters whose lower case only toLowerCase knows, lists, numbers.
  const text = fc.string({
    unit: fc.constantFrom("a", "Z", "é", "É", "İ", "ß", "Σ", ";", "\u0000", " ", "7"),
  });
  const value: fc.Arbitrary<CellValue> = fc.oneof(
    text,
    fc.array(text, { maxLength: 3 }),
    fc.integer(),
    fc.boolean(),
    fc.dictionary(fc.constantFrom("K", "k"), text, { maxKeys: 2 }),
  );
  fc.assert(
    fc.property(fc.array(value, { minLength: 1, maxLength: 3 }), (parts) => {
      const columns = parts.map((_, i) => `c${i}`);
      const values = Object.fromEntries(parts.map((part, i) => [columns[i], part]));
      const row: CheckedRow = { line: 2, cells: [], values, extras: {} };
      assert.equal(groupKeyHash53(columns, row), hash53(keyText(values, columns)));
    }),
    propertyRuns(500),
  );
  const row: CheckedRow = { line: 2, cells: [], values: { a: "x" }, extras: {} };
  assert.equal(groupKeyHash53(["a", "b"], row), undefined, "an empty column leaves the row out");
});
