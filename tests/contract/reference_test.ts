/**
 * The contract reference folder: found beside CI's clone (../shared/reference), absent from a user's clone.
 * This file is the one that announces a missing folder on stderr (once per run); every contract test is
 * then ignored.
 */
import assert from "node:assert/strict";
import {
  DATAMAP_CONTRACT_FILE,
  loadDataMapContract,
  REFERENCE_DIR,
  referenceAvailable,
  REPO_ROOT,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";

const AVAILABLE = referenceAvailable();

Deno.test("the reference folder is ../shared/reference, beside the repository root", () => {
  assert.equal(REFERENCE_DIR.href, new URL("../shared/reference/", REPO_ROOT).href);
  // From a test file in tests/contract/, the same folder is three levels up.
  assert.equal(REFERENCE_DIR.href, new URL("../../../shared/reference/", import.meta.url).href);
  assert.ok(new URL("deno.json", REPO_ROOT).pathname.endsWith("/deno.json"));
  assert.ok(Deno.statSync(new URL("deno.json", REPO_ROOT)).isFile, "REPO_ROOT is the repository root");
});

Deno.test({
  name: `the data-map contract loads with its operations and examples${
    AVAILABLE ? "" : ` ${SKIPPED_SUFFIX}`
  }`,
  ignore: !AVAILABLE,
  fn: async () => {
    assert.ok(Deno.statSync(DATAMAP_CONTRACT_FILE).isFile, `${DATAMAP_CONTRACT_FILE.pathname} is missing`);
    const contract = await loadDataMapContract();
    assert.equal(contract.prefix, "/datamap/api");
    const get = contract.operations.get("Entity_Get");
    assert.deepEqual([get?.method, get?.path], ["GET", "/atlas/v2/entity/guid/{guid}"]);
    assert.ok(contract.operations.size >= 90, `only ${contract.operations.size} operations`);
    assert.ok(contract.examples.size >= 100, `only ${contract.examples.size} examples`);
    assert.equal(contract.examples.get("Entity_Get.json")?.operationId, "Entity_Get");
    // Parameter $refs are resolved: search declares the required api-version.
    const search = contract.operations.get("Discovery_Query")!;
    assert.ok(search.parameters.some((p) => p.name === "api-version" && p.in === "query" && p.required));
  },
});
