/**
 * The 19 operations of the unified catalog 2026-03-20-preview contract notes (read from
 * ../shared/reference/unified-catalog-2026.md, which has no OpenAPI document) are exactly the ones the
 * client lists in UNIFIED_CATALOG_2026_OPERATIONS, method and path, and each answers the emulator's probe
 * (not its "no route" 404) — the same figure operations_served_test.ts prints. Skipped without
 * ../shared/reference except in CI (reference.ts).
 */
import assert from "node:assert/strict";
import { UNIFIED_CATALOG_2026_OPERATIONS } from "../../lib/catalog/unified_operations.ts";
import { referenceAvailable, SKIPPED_SUFFIX } from "../support/contract/reference.ts";
import { loadUnified2026Contract, parseUnified2026Notes } from "../support/contract/unified_2026.ts";

Deno.test("unified 2026 notes: operation lines and their query parameters are read as written", () => {
  const operations = parseUnified2026Notes(
    [
      "Data assets",
      "  GET    dataAssets/{dataAssetId}",
      "         query: includeExtendedProperties (bool, REQUIRED), top (int)",
      '  POST terms/query/count                  body {"nameKeyword": string*}   200 {"count": int*}',
      "Paging: answered with a GET (re-adding api-version)",
    ].join("\n"),
  );
  assert.deepEqual([...operations.keys()], ["GET dataAssets/{dataAssetId}", "POST terms/query/count"]);
  const get = operations.get("GET dataAssets/{dataAssetId}")!;
  assert.deepEqual(get.parameters.map((p) => [p.in, p.name, p.required ?? false, p.type]), [
    ["path", "dataAssetId", true, "string"],
    ["query", "includeExtendedProperties", true, "boolean"],
    ["query", "top", false, "integer"],
  ]);
  assert.equal(operations.get("POST terms/query/count")!.parameters[0].in, "body");
});

if (!referenceAvailable({ quiet: true })) {
  Deno.test({
    name: `unified 2026 notes: the client's 19 operations ${SKIPPED_SUFFIX}`,
    ignore: true,
    fn() {},
  });
} else {
  Deno.test("unified 2026 notes: 19 operations, exactly the client's list", async () => {
    const contract = await loadUnified2026Contract();
    const fromNotes = [...contract.operations.values()].map((op) => `${op.method} ${op.path.slice(1)}`);
    assert.equal(fromNotes.length, 19);
    const fromClient = UNIFIED_CATALOG_2026_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    assert.deepEqual(fromClient.toSorted(), fromNotes.toSorted());
  });
}
