/** What an entity row would change, field by field (`--plan`). */
import assert from "node:assert/strict";
import { entityDiff } from "../../../lib/imports/entity_csv_diff.ts";

const stored = {
  guid: "g-1",
  typeName: "DataSet",
  attributes: { qualifiedName: "ds://a", description: "Old", retention: 30 },
  contacts: { Owner: [{ id: "o-1" }, { id: "o-2" }], Expert: [{ id: "e-1" }] },
  businessAttributes: { Gov: { steward: "Ann" } },
  classifications: [{ typeName: "PII" }],
};

Deno.test("entityDiff: a cell with the stored value (as text) is no change; others are old → new", () => {
  const diff = entityDiff("DataSet ds://a", stored, {
    attributes: { description: "New", retention: "30" },
    businessAttributes: { Gov: { steward: "Ann" } },
    contacts: { Owner: [{ id: "o-2" }, { id: "o-1" }] },
    classifications: ["PII"],
  });
  assert.equal(diff.action, "update");
  assert.deepEqual(diff.changes, [{ field: "description", old: "Old", new: "New" }]);
  assert.deepEqual(diff.read, {
    guid: "g-1",
    description: "Old",
    "attr.retention": 30,
    "bm.Gov.steward": "Ann",
    owner: ["o-1", "o-2"],
    classifications: ["PII"],
  });
});

Deno.test("entityDiff: unchanged, create (every field from nothing), and skip when the import skips", () => {
  assert.equal(entityDiff("t", stored, { attributes: { description: "Old" } }).action, "unchanged");
  const created = entityDiff("t", undefined, { attributes: { name: "a" }, labels: ["x"] });
  assert.deepEqual([created.action, created.read], ["create", { guid: null }]);
  assert.deepEqual(created.changes, [
    { field: "name", old: null, new: "a" },
    { field: "labels", old: null, new: ["x"] },
  ]);
  const skipped = entityDiff("t", stored, { attributes: { description: "New" } }, "skip");
  assert.deepEqual([skipped.action, skipped.changes, skipped.read], ["skip", [], { guid: "g-1" }]);
});

Deno.test("entityDiff: owners replace the owner list (a missing one is a change); other contacts are not read", () => {
  const diff = entityDiff("t", stored, { attributes: {}, contacts: { Owner: [{ id: "o-1" }] } });
  assert.deepEqual(diff.changes, [{ field: "owner", old: ["o-1", "o-2"], new: ["o-1"] }]);
  assert.equal("contacts.Expert" in diff.read, false);
});
