/**
 * The contract reference folder: found beside CI's clone (../shared/reference), absent from a user's clone.
 * This file is the one that announces a missing folder on stderr (once per run); every contract test is
 * then ignored, except in CI (`CI=true`), where the missing folder fails the run.
 */
import assert from "node:assert/strict";
import {
  applyReferenceDecision,
  CI_MISSING_MESSAGE,
  DATAMAP_CONTRACT_FILE,
  isCi,
  loadDataMapContract,
  REFERENCE_DIR,
  referenceAvailable,
  referenceDecision,
  REPO_ROOT,
  SKIP_MESSAGE,
  SKIPPED_SUFFIX,
} from "../support/contract/reference.ts";

const AVAILABLE = referenceAvailable();

Deno.test("a missing reference folder fails a CI run, and is skipped with one line elsewhere", () => {
  assert.equal(referenceDecision({ CI: "true" }, true), "run");
  assert.equal(referenceDecision({}, true), "run");
  assert.equal(referenceDecision({ CI: "true" }, false), "fail");
  assert.equal(referenceDecision({ CI: "1" }, false), "fail");
  assert.equal(referenceDecision({}, false), "skip");
  assert.equal(referenceDecision({ CI: "false" }, false), "skip");
  assert.equal(referenceDecision({ CI: "" }, false), "skip");

  const said: string[] = [];
  assert.throws(() => applyReferenceDecision("fail", (line) => said.push(line)), {
    message: CI_MISSING_MESSAGE,
  });
  assert.equal(applyReferenceDecision("skip", (line) => said.push(line)), false);
  assert.equal(applyReferenceDecision("run", (line) => said.push(line)), true);
  assert.deepEqual(said, [SKIP_MESSAGE], "one line, for the skip only");
  assert.match(CI_MISSING_MESSAGE, /\.\.\/shared\/reference/);
});

Deno.test("CI is recognised as the CI services set it", () => {
  for (const value of ["true", "TRUE", "1", "yes", "github"]) assert.equal(isCi(value), true, value);
  for (const value of [undefined, "", "0", "false", "False", "no"]) {
    assert.equal(isCi(value), false, String(value));
  }
});

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
