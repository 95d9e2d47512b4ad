/**
 * `govcat policy import --csv-file` as a user runs it: a subprocess against the seeded emulator's policy
 * store. A file with adds, a remove, a row already satisfied and bad rows: each collection's policy written
 * once (the emulator's log of PUTs per policy), the satisfied collection not at all, the bad rows in the
 * reject file with their line and reason, exit code 1 as for every import with rejected rows. A dry run
 * writes nothing. A lost answer and an interruption (a scripted 403) followed by `--resume` never write a
 * collection twice.
 */
import assert from "node:assert/strict";
import { roleMembers, withMember } from "../../lib/catalog/policy_members.ts";
import { type CliSetup, withCliSetup } from "../support/cli_harness.ts";
import { readCsvRecords } from "../support/import_setup.ts";

const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";
const BOB = "8c2d7e41-5b3a-4f6e-9d10-2a4b6c8e0f12";
const CURATOR = "purviewmetadatarole_builtin_data-curator";
const READER = "purviewmetadatarole_builtin_purview-reader";

/** PUTs the emulator received for one collection's policy. */
async function policyPuts(setup: CliSetup, collection: string): Promise<number> {
  const id = String((await setup.client.policies.forCollection(collection)).id);
  return setup.emulator.faults.stats().log.filter((entry) =>
    entry.method === "PUT" && entry.path.includes(`/metadataPolicies/${id}`)
  ).length;
}

async function members(setup: CliSetup, collection: string, roleId: string): Promise<string[]> {
  return roleMembers(await setup.client.policies.forCollection(collection)).get(roleId) ?? [];
}

const FILE = [
  "collection,role,principal_id,action",
  `sales,data-curator,${ALICE},add`,
  `sales,data-reader,${BOB},`,
  `marketing,data-curator,${ALICE},add`,
  `finance,${READER},${BOB},remove`,
  `sales,owner,${ALICE},add`,
  "sales,data-reader,alice@contoso.com,add",
  `nosuchcollection,data-reader,${ALICE},add`,
  // Alice does not curate finance: nothing to remove, while finance is written for Bob.
  `finance,data-curator,${ALICE},remove`,
].join("\n");

Deno.test("policy import: one write per changed collection, satisfied rows unchanged, bad rows rejected", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    // Arranged: Alice curates marketing already; Bob reads finance, which the file removes.
    const marketing = await setup.client.policies.forCollection("marketing");
    await setup.client.policies.update(String(marketing.id), withMember(marketing, CURATOR, ALICE).policy);
    const finance = await setup.client.policies.forCollection("finance");
    await setup.client.policies.update(String(finance.id), withMember(finance, READER, BOB).policy);
    const csv = await setup.file("roles.csv", FILE);

    const refused = await setup.govcat("policy", "import", `--csv-file=${csv}`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /destructive: refusing to run it without --confirm/);

    const puts = setup.requests("PUT");
    const dry = await setup.govcat("policy", "import", `--csv-file=${csv}`, "--dry-run", "--confirm");
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(setup.requests("PUT"), puts, "a dry run writes nothing");
    assert.deepEqual(
      [dry.json.wouldUpdate, dry.json.wouldSkip, dry.json.wouldReject],
      [4, 1, 3],
      JSON.stringify(dry.json),
    );
    const salesPreview = dry.json.preview.find((p: { collection: string }) => p.collection === "sales");
    assert.deepEqual(salesPreview.rows.map((r: { change: string }) => r.change), ["added", "added"]);
    const financePreview = dry.json.preview.find((p: { collection: string }) => p.collection === "finance");
    assert.deepEqual(financePreview.rows.map((r: { change: string }) => r.change), ["removed", "unchanged"]);

    const run = await setup.govcat("policy", "import", `--csv-file=${csv}`, "--confirm");
    assert.equal(run.code, 1, run.stderr);
    const s = JSON.parse(run.stdout);
    assert.deepEqual([s.rows, s.updated, s.skipped, s.rejected], [8, 3, 2, 3], JSON.stringify(s));
    assert.deepEqual(await members(setup, "sales", CURATOR), [ALICE]);
    assert.deepEqual(await members(setup, "sales", READER), [BOB]);
    assert.deepEqual(await members(setup, "finance", READER), []);
    assert.deepEqual(await members(setup, "marketing", CURATOR), [ALICE]);
    // One PUT each for sales and finance (both rows of sales in it), none for marketing (the arranging
    // updates were sent by the client, not counted here: the counts are after them).
    assert.equal(setup.requests("PUT") - puts, 2, "one write per changed collection");
    assert.equal((await setup.client.policies.forCollection("sales")).version, 2);
    assert.equal((await setup.client.policies.forCollection("marketing")).version, 2);

    const rejects = await readCsvRecords(`${setup.dir}/roles.rejected.csv`);
    assert.deepEqual(rejects.map((r) => [r.collection, r.source_line]), [
      ["sales", "6"],
      ["sales", "7"],
      ["nosuchcollection", "8"],
    ]);
    assert.match(rejects[0].import_error, /unknown role "owner"/);
    assert.match(rejects[1].import_error, /principal_id "alice@contoso\.com" is not an object id/);
    assert.match(rejects[2].import_error, /404.*nosuchcollection/);

    const again = await setup.govcat("policy", "import", `--csv-file=${csv}`, "--confirm", "--overwrite");
    const second = JSON.parse(again.stdout);
    assert.deepEqual([second.updated, second.skipped, second.rejected], [0, 5, 3]);
    assert.equal(setup.requests("PUT") - puts, 2, "a second import writes nothing");
  });
});

Deno.test("policy import: a lost answer and a resume after a refusal never write a collection twice", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const csv = await setup.file(
      "roles.csv",
      [
        "collection,role,principal_id",
        `sales,data-curator,${ALICE}`,
        `finance,data-curator,${ALICE}`,
        `sales,data-reader,${BOB}`,
        `marketing,data-reader,${BOB}`,
      ].join("\n"),
    );
    const salesId = String((await setup.client.policies.forCollection("sales")).id);
    const financeId = String((await setup.client.policies.forCollection("finance")).id);
    setup.emulator.faults.script([
      // sales's write applied, its answer lost.
      { method: "PUT", path: salesId, drop: true, afterHandling: true },
      // finance refused: the import stops there, sales finished.
      { method: "PUT", path: financeId, status: 403 },
    ]);
    const args = ["policy", "import", `--csv-file=${csv}`, "--confirm", "--batch-size=1", "--concurrency=1"];
    const stopped = await setup.govcat(...args);
    assert.equal(stopped.code, 1, stopped.stderr);
    assert.match(stopped.stderr, /left for --resume/);

    const resumed = await setup.govcat(...args, "--resume");
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(resumed.json.resumed, true);
    // sales: its lost answer was found applied (recovered), not written again; finance and marketing once.
    assert.deepEqual(
      [resumed.json.updated, resumed.json.recovered, resumed.json.skipped],
      [2, 2, 0],
      JSON.stringify(resumed.json),
    );
    for (const collection of ["sales", "finance", "marketing"]) {
      assert.equal(await policyPuts(setup, collection), collection === "finance" ? 2 : 1, collection);
      assert.equal((await setup.client.policies.forCollection(collection)).version, 2, collection);
    }
    assert.deepEqual(await members(setup, "sales", CURATOR), [ALICE]);
    assert.deepEqual(await members(setup, "sales", READER), [BOB]);
  });
});
