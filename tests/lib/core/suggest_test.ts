import assert from "node:assert/strict";
import { closestName, didYouMean, editDistance } from "../../../lib/core/suggest.ts";

Deno.test("edit distance counts insertions, deletions, substitutions and swaps", () => {
  assert.equal(editDistance("entity", "entity"), 0);
  assert.equal(editDistance("entiy", "entity"), 1);
  assert.equal(editDistance("entitiy", "entity"), 1);
  assert.equal(editDistance("enitty", "entity"), 1);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("suggestions ignore case and separators and refuse far-off names", () => {
  const groups = ["entity", "types", "glossary", "lineage", "lineage_csv", "uc"];
  assert.equal(closestName("entiy", groups), "entity");
  assert.equal(closestName("Glosary", groups), "glossary");
  assert.equal(closestName("lineage-csv", groups), "lineage_csv");
  assert.equal(closestName("zzzzzz", groups), undefined);
  assert.equal(didYouMean("typs", groups), ' Did you mean "types"?');
  assert.equal(didYouMean("xyzzy", groups), "");
});
