/**
 * The shape comparison the recorded-traffic suite relies on: what it must call a difference (a missing key,
 * a value of another type, at any depth, in any array item) and what it must not (other values, nulls,
 * guid-keyed maps, keys only the emulator sends).
 */
import assert from "node:assert/strict";
import { compareShapes } from "./json_shape.ts";
import { IdTranslation } from "./replay.ts";

Deno.test("shape: a missing key deep in an array item is a difference, named by its path", () => {
  const recorded = { value: [{ id: "a", run: { scanResultId: "x", status: "Accepted" } }] };
  const actual = { value: [{ id: "b", run: { status: "Queued" } }] };
  assert.deepEqual(compareShapes(recorded, actual).differences, [
    "$.value[].run.scanResultId: missing (the service sent string)",
  ]);
});

Deno.test("shape: a value of another type is a difference; other values of the same type are not", () => {
  const comparison = compareShapes({ state: 0, name: "a", ok: true }, {
    state: "Moving",
    name: "b",
    ok: false,
  });
  assert.deepEqual(comparison.differences, ["$.state: the service sent number, the emulator string"]);
});

Deno.test("shape: null matches any type, and an empty array matches any array", () => {
  const comparison = compareShapes({ facets: null, items: [{ a: 1 }] }, { facets: { x: [] }, items: [] });
  assert.deepEqual(comparison.differences, []);
  assert.deepEqual(compareShapes({ facets: {} }, { facets: null }).differences, []);
});

Deno.test("shape: keys only the emulator sends are extra, not differences", () => {
  const comparison = compareShapes({ a: 1 }, { a: 2, b: "more" });
  assert.deepEqual(comparison.differences, []);
  assert.deepEqual(comparison.extra, ["$.b"]);
});

Deno.test("shape: guid-keyed maps compare their values, not their keys", () => {
  const recorded = {
    referredEntities: { "0b1d6b8e-8f8e-4e5b-9a38-2f2f5a0d9c11": { typeName: "t", guid: "g" } },
  };
  const sameShape = {
    referredEntities: { "7fcc43ab-55ea-45d4-9971-ce0443cb10bb": { typeName: "u", guid: "h" } },
  };
  const otherShape = { referredEntities: { "7fcc43ab-55ea-45d4-9971-ce0443cb10bb": { typeName: "u" } } };
  assert.deepEqual(compareShapes(recorded, sameShape).differences, []);
  assert.deepEqual(compareShapes(recorded, otherShape).differences, [
    "$.referredEntities{key}.guid: missing (the service sent string)",
  ]);
});

Deno.test("shape: items of one array are merged, so every item's keys count", () => {
  const recorded = { value: [{ a: 1 }, { a: 2, b: "x" }] };
  assert.deepEqual(compareShapes(recorded, { value: [{ a: 3 }] }).differences, [
    "$.value[].b: missing (the service sent string)",
  ]);
});

Deno.test("ids: guids learnt from answers rewrite later requests, headers paired by position", () => {
  const ids = new IdTranslation();
  const recordedGuid = "0b1d6b8e-8f8e-4e5b-9a38-2f2f5a0d9c11";
  const emulatorGuid = "7fcc43ab-55ea-45d4-9971-ce0443cb10bb";
  ids.learnFromBodies({ guid: recordedGuid, terms: [{ termGuid: "not-a-guid" }] }, {
    guid: emulatorGuid,
    terms: [{ termGuid: "other" }],
  });
  assert.equal(ids.apply(`/glossary/${recordedGuid.toUpperCase()}/terms`), `/glossary/${emulatorGuid}/terms`);
  ids.learnFromTexts(
    "https://x.purview.azure.com/glossary/terms/import/11111111-2222-3333-4444-555555555555",
    "http://127.0.0.1:1/glossary/terms/import/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  );
  assert.equal(
    ids.apply("/import/11111111-2222-3333-4444-555555555555"),
    "/import/aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
  );
});

Deno.test("shape: a type definition's options is a map of strings, compared by its values", () => {
  const recorded = { entityDefs: [{ name: "a", options: { defaultRenderedLineage: "parent" } }] };
  assert.deepEqual(
    compareShapes(recorded, { entityDefs: [{ name: "b", options: { schemaAttributes: "[]" } }] }),
    {
      differences: [],
      extra: [],
    },
  );
  assert.deepEqual(compareShapes(recorded, { entityDefs: [{ name: "b", options: { x: 1 } }] }).differences, [
    "$.entityDefs[].options{key}: the service sent string, the emulator number",
  ]);
});
