/**
 * The shape Purview draws column lineage from: a correct mapping parses, and each usual mistake (not JSON,
 * an object where the array belongs, a lower-case key, a missing level, an empty name) gets its own
 * message naming where it is and the fix.
 */
import assert from "node:assert/strict";
import { parseColumnMapping } from "../../../lib/lineage/column_mapping_shape.ts";
import { metadataColumnMapping } from "../../../lib/lineage/column_mapping_rows.ts";

const GOOD = [{ DatasetMapping: { Source: "a", Sink: "b" }, ColumnMapping: [{ Source: "x", Sink: "y" }] }];

function problems(value: unknown): string[] {
  const result = parseColumnMapping(value);
  assert.ok("problems" in result, `expected problems for ${JSON.stringify(value)}`);
  return result.problems;
}

Deno.test("parseColumnMapping: the shape Purview draws, as text or JSON", () => {
  assert.deepEqual(parseColumnMapping(JSON.stringify(GOOD)), { entries: GOOD });
  assert.deepEqual(parseColumnMapping(GOOD), { entries: GOOD });
});

Deno.test("parseColumnMapping: each usual mistake named where it is, with the fix", () => {
  assert.match(problems("[{")[0], /^is not JSON \(.*\); write it as \[\{"DatasetMapping"/);
  assert.match(problems(GOOD[0])[0], /^is an object, not an array; put the object inside \[ \]/);
  assert.deepEqual(problems([{ ...GOOD[0], ColumnMapping: [{ source: "x", Sink: "y" }] }]), [
    '[0].ColumnMapping[0] has the key "source": Purview reads "Source" (keys are case-sensitive) — rename it ' +
    'to "Source"',
  ]);
  assert.match(problems([{ ColumnMapping: GOOD[0].ColumnMapping }])[0], /^\[0\] has no "DatasetMapping" key/);
  assert.match(problems([{ ...GOOD[0], ColumnMapping: [] }])[0], /^\[0\]\.ColumnMapping is empty/);
  assert.match(
    problems([{ ...GOOD[0], DatasetMapping: { Source: "", Sink: "b" } }])[0],
    /^\[0\]\.DatasetMapping\.Source is a string \(empty\); give a non-empty string/,
  );
  assert.equal(problems([{ columnmapping: 1, datasetmapping: 2 }, 3, 4, 5, 6, 7]).at(-1), "… and 2 more");
});

Deno.test("metadataColumnMapping: only the columnMapping key, a key of another case refused", () => {
  assert.equal(metadataColumnMapping({ pipeline: "nightly" }), undefined);
  assert.deepEqual(metadataColumnMapping({ columnMapping: JSON.stringify(GOOD) }), { entries: GOOD });
  const near = metadataColumnMapping({ ColumnMapping: GOOD });
  assert.ok(near && "problems" in near);
  assert.match(
    near.problems[0],
    /is under the key "ColumnMapping": the process attribute is "columnMapping"/,
  );
});
