/**
 * The `quality` commands as a user runs them: govcat as a subprocess, over real HTTP, against the seeded
 * emulator. The asset is the seed's Customers table (columns CustomerId, FullName, Email, CreatedAt), named
 * by a business domain and data product id of the test's choosing.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

const DOMAIN = "d0000000-0000-4000-8000-000000000001";
const PRODUCT = "d0000000-0000-4000-8000-000000000002";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const EMAIL_RULE = "e0000000-0000-4000-8000-000000000001";
const PHONE_RULE = "e0000000-0000-4000-8000-000000000002";
const ASSET = [`--domain-id=${DOMAIN}`, `--data-product-id=${PRODUCT}`, `--asset-id=${CUSTOMERS}`];

function rule(id: string, column: string) {
  return {
    id,
    name: `${column} complete`,
    type: "Completeness",
    status: "Active",
    typeProperties: { column: { type: "string", value: column } },
  };
}

async function putRule(setup: CliSetup, asset: string[], body: unknown): Promise<void> {
  const file = await setup.file(`rule-${crypto.randomUUID()}.json`, body);
  const put = await setup.govcat("quality", "put-rule", ...asset, `--payload-file=${file}`);
  assert.equal(put.code, 0, put.stderr);
}

Deno.test("quality: put rules, run, and read the score, runs and observations", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-quality-" }, async (setup) => {
    await putRule(setup, ASSET, rule(EMAIL_RULE, "Email"));
    await putRule(setup, ASSET, rule(PHONE_RULE, "Phone"));
    const replaced = await setup.govcat(
      "quality",
      "put-rule",
      ...ASSET,
      `--payload-file=${await setup.file("again.json", { ...rule(PHONE_RULE, "Phone"), description: "x" })}`,
    );
    assert.equal(replaced.json.action, "updated");

    const rules = await setup.govcat("quality", "rules", ...ASSET);
    assert.equal(rules.code, 0, rules.stderr);
    assert.equal(rules.json.count, 2);

    const run = await setup.govcat("quality", "run", ...ASSET);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.value[0].score, 50);

    const scores = await setup.govcat(
      "quality",
      "scores",
      `--domain-id=${DOMAIN}`,
      `--data-product-id=${PRODUCT}`,
    );
    assert.equal(scores.code, 0, scores.stderr);
    assert.equal(scores.json.score, 50);
    assert.deepEqual(scores.json.value.map((a: { dataAssetId: string }) => a.dataAssetId), [CUSTOMERS]);

    const observations = await setup.govcat("quality", "observations", ...ASSET);
    assert.equal(observations.code, 0, observations.stderr);
    const results = Object.fromEntries(
      observations.json.value.map((r: { id: string; result: string }) => [r.id, r.result]),
    );
    assert.deepEqual(results, { [EMAIL_RULE]: "Passed", [PHONE_RULE]: "Failed" });

    const table = await setup.govcatText("quality", "observations", ...ASSET, "--output=table");
    assert.equal(table.code, 0, table.stderr);
    assert.match(
      table.stdout,
      /Phone complete\s+Completeness\s+Active\s+Phone\s+Failed\s+0\s+the asset has no/m,
    );
    assert.match(table.stdout, /^score: 50$/m);

    const runs = await setup.govcat("quality", "runs", ...ASSET);
    assert.equal(runs.json.count, 1);
    assert.equal(runs.json.value[0].runId, run.json.value[0].runId);

    const deleted = await setup.govcat(
      "quality",
      "delete-rule",
      ...ASSET,
      `--rule-id=${PHONE_RULE}`,
      "--confirm",
    );
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await setup.govcat("quality", "rule", ...ASSET, `--rule-id=${PHONE_RULE}`);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /404/);
  });
});

Deno.test("quality: a run of a data product runs every asset with rules", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-quality-" }, async (setup) => {
    const orders = [`--domain-id=${DOMAIN}`, `--data-product-id=${PRODUCT}`, `--asset-id=${ORDERS}`];
    await putRule(setup, ASSET, rule(EMAIL_RULE, "Email"));
    await putRule(setup, orders, rule(PHONE_RULE, "OrderTotal"));
    const run = await setup.govcat("quality", "run", `--domain-id=${DOMAIN}`, `--data-product-id=${PRODUCT}`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.count, 2);
    const summary = await setup.govcat(
      "quality",
      "summary",
      `--domain-id=${DOMAIN}`,
      `--data-product-id=${PRODUCT}`,
    );
    assert.equal(summary.json.score, 100);
    assert.equal(summary.json.assets.length, 2);
  });
});

Deno.test("quality: bad input is refused locally with exit 2", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-quality-" }, async (setup) => {
    await assertRefusedLocally(setup, /asset-id.*GUID|GUID.*asset/is, [
      "quality",
      "rules",
      `--domain-id=${DOMAIN}`,
      `--data-product-id=${PRODUCT}`,
      "--asset-id=customers",
    ]);
    await assertRefusedLocally(setup, /--asset-id: must be a GUID/, [
      "quality",
      "runs",
      `--domain-id=${DOMAIN}`,
      `--data-product-id=${PRODUCT}`,
      "--asset-id=customers",
    ]);
    const noName = await setup.file("no-name.json", {
      id: EMAIL_RULE,
      type: "Completeness",
      status: "Active",
    });
    await assertRefusedLocally(setup, /"name"/, [
      "quality",
      "put-rule",
      ...ASSET,
      `--payload-file=${noName}`,
    ]);
    const list = await setup.file("list.json", [rule(EMAIL_RULE, "Email")]);
    await assertRefusedLocally(setup, /JSON object/, [
      "quality",
      "put-rule",
      ...ASSET,
      `--payload-file=${list}`,
    ]);
    await assertRefusedLocally(setup, /confirm/, [
      "quality",
      "delete-rule",
      ...ASSET,
      `--rule-id=${EMAIL_RULE}`,
    ]);
    await assertRefusedLocally(setup, /domain-id/, ["quality", "scores", `--data-product-id=${PRODUCT}`]);
  });
});
