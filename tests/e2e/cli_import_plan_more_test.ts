/**
 * `--plan` and `--apply-plan` of the lineage and policy imports, as a user runs them (subprocesses of
 * main.ts against the emulator's seed): a plan shows each row's action and changed fields and writes
 * nothing (the emulator's request log says so); a change to the catalog between plan and apply is refused,
 * naming the row and field; applying a fresh plan writes only the planned rows.
 */
import assert from "node:assert/strict";
import { roleMembers, withMember } from "../../lib/catalog/policy_members.ts";
import { catalogWrites, type CliSetupOptions, withCliSetup } from "../support/cli_harness.ts";
import { addColumnTables, ETL_TYPE } from "../support/column_tables.ts";

const SETUP: CliSetupOptions = { seed: true, prefix: "govcat-plan-more-" };
const LINEAGE_HEADER = "source_entity_guid,target_entity_guid,process_name,description,source_column," +
  "target_column,process_type";

const writes = catalogWrites;

/** A column-lineage file of `rows` (process name, description, source column, target column). */
function lineageFile(staging: string, fact: string, rows: string[][]): string {
  return [
    LINEAGE_HEADER,
    ...rows.map(([name, description, from, to]) =>
      `${staging},${fact},${name},${description},${from},${to},${ETL_TYPE}`
    ),
  ].join("\n") + "\n";
}

Deno.test("lineage import --plan: create, unchanged, update (old → new), rejected (the column check's reason); nothing written", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file, dir }) => {
    const { staging, fact } = await addColumnTables(client);
    const first = await file(
      "first.csv",
      lineageFile(staging, fact, [["load_a", "same", "order_id", "OrderId"], [
        "load_c",
        "old",
        "amount",
        "Total",
      ]]),
    );
    assert.equal((await govcat("lineage", "import", first)).code, 0);

    const edited = await file(
      "edited.csv",
      lineageFile(staging, fact, [
        ["load_a", "same", "order_id", "OrderId"],
        ["load_b", "new process", "order_id", "OrderId"],
        ["load_c", "new", "amount", "Total"],
        ["load_d", "bad column", "order_total", "Total"],
      ]),
    );
    const planFile = `${dir}/lineage-plan.json`;
    const before = writes(emulator);
    const planned = await govcat("lineage", "import", edited, "--plan", `--plan-file=${planFile}`);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(emulator), before, "a plan writes nothing");
    const { create, update, unchanged, reject } = planned.json;
    assert.deepEqual({ create, update, unchanged, reject }, {
      create: 1,
      update: 1,
      unchanged: 1,
      reject: 1,
    });
    const byLine = (line: number) =>
      planned.json.items.filter((item: { line: number }) => item.line === line);
    assert.equal(byLine(2)[0].action, "unchanged");
    assert.equal(byLine(3)[0].action, "create");
    assert.deepEqual(
      byLine(4).map((item: Record<string, string>) => [item.action, item.field, item.old, item.new]),
      [["update", "description", "old", "new"]],
      "only the description differs",
    );
    assert.equal(byLine(5)[0].action, "reject");
    assert.match(byLine(5)[0].reason, /"order_total" is not a column of the source/);

    // The same plan through the lineage_csv group's command.
    const grouped = await govcat("lineage_csv", "process", edited, "--plan");
    assert.equal(grouped.code, 0, grouped.stderr);
    assert.deepEqual([grouped.json.operation, grouped.json.create, grouped.json.update], [
      "lineage_csv.process",
      1,
      1,
    ]);
    assert.equal(writes(emulator), before, "neither plan writes");

    // A colleague changes load_c's description after the plan was made: the apply is refused.
    const colleague = await file(
      "colleague.csv",
      lineageFile(staging, fact, [["load_c", "meanwhile", "amount", "Total"]]),
    );
    assert.equal((await govcat("lineage", "import", colleague)).code, 0);
    const beforeApply = writes(emulator);
    const refused = await govcat("lineage", "import", edited, `--apply-plan=${planFile}`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /line 4 \(.*load-c.*\): description was "old" when planned, now "meanwhile"/,
    );
    assert.equal(writes(emulator), beforeApply, "a refused apply writes nothing");

    // Planned again, the apply writes the created and the updated process only.
    const again = await govcat(
      "lineage",
      "import",
      edited,
      "--plan",
      `--plan-file=${planFile}`,
      "--overwrite",
    );
    assert.equal(again.code, 0, again.stderr);
    const applied = await govcat("lineage", "import", edited, `--apply-plan=${planFile}`);
    assert.equal(applied.code, 1, applied.stderr + applied.stdout);
    // Exit 1 for the planned rejection; the summary is still printed.
    const { created, updated, skipped, rejected } = JSON.parse(applied.stdout);
    assert.deepEqual({ created, updated, skipped, rejected }, {
      created: 1,
      updated: 1,
      skipped: 1,
      rejected: 1,
    });
    assert.equal(writes(emulator) - beforeApply, 2, "one write per planned process, none for the others");
    const replanned = await govcat("lineage", "import", edited, "--plan");
    assert.deepEqual([replanned.json.unchanged, replanned.json.reject], [3, 1], "the plan was carried out");
  });
});

const ALICE = "3f10f245-d5c4-4541-98ce-01a4580a30e0";
const BOB = "8c2d7e41-5b3a-4f6e-9d10-2a4b6c8e0f12";
const CURATOR = "purviewmetadatarole_builtin_data-curator";
const READER = "purviewmetadatarole_builtin_purview-reader";

Deno.test("policy import --plan: add, remove, already a member / absent, rejected; a member added meanwhile refused", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file, dir }) => {
    const members = async (collection: string, role: string) =>
      roleMembers(await client.policies.forCollection(collection)).get(role) ?? [];
    const addMember = async (collection: string, role: string, principal: string) => {
      const policy = await client.policies.forCollection(collection);
      await client.policies.update(String(policy.id), withMember(policy, role, principal).policy);
    };
    // Arranged: Bob reads finance (the file removes him); Alice curates marketing already.
    await addMember("finance", READER, BOB);
    await addMember("marketing", CURATOR, ALICE);
    const csv = await file(
      "roles.csv",
      [
        "collection,role,principal_id,action",
        `sales,data-curator,${ALICE},add`,
        `finance,data-reader,${BOB},remove`,
        `finance,data-curator,${ALICE},remove`,
        `marketing,data-curator,${ALICE},add`,
        "sales,data-reader,alice@contoso.com,add",
      ].join("\n") + "\n",
    );
    const planFile = `${dir}/roles-plan.json`;
    const before = writes(emulator);
    // A plan writes nothing, so it needs no --confirm.
    const planned = await govcat(
      "policy",
      "import",
      `--csv-file=${csv}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(emulator), before, "a plan writes nothing");
    const shown = planned.json.items.map((
      item: Record<string, unknown>,
    ) => [item.line, item.action, item.target, item.field, item.old, item.new, item.reason]);
    assert.deepEqual(shown, [
      [2, "update", "sales", `member data-curator ${ALICE}`, "false", "true", ""],
      [3, "update", "finance", `member data-reader ${BOB}`, "true", "false", "line 4: already absent"],
      [5, "unchanged", "marketing", "", "", "", "line 5: already a member"],
      [6, "reject", "sales data-reader alice@contoso.com", "", "", "", shown[3][6]],
    ]);
    assert.match(String(shown[3][6]), /principal_id "alice@contoso.com" is not an object id/);

    // Someone adds Alice to the sales curators after the plan: the apply is refused, naming the row.
    await addMember("sales", CURATOR, ALICE);
    const beforeApply = writes(emulator);
    const refused = await govcat(
      "policy",
      "import",
      `--csv-file=${csv}`,
      `--apply-plan=${planFile}`,
      "--confirm",
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(`line 2 \\(sales\\): member data-curator ${ALICE} was false when planned, now true`),
    );
    assert.equal(writes(emulator), beforeApply, "a refused apply writes nothing");

    // Planned again: sales is unchanged now, only finance is written.
    const again = await govcat(
      "policy",
      "import",
      `--csv-file=${csv}`,
      "--plan",
      `--plan-file=${planFile}`,
      "--overwrite",
    );
    assert.deepEqual([again.json.update, again.json.unchanged, again.json.reject], [2, 2, 1]);
    const applied = await govcat(
      "policy",
      "import",
      `--csv-file=${csv}`,
      `--apply-plan=${planFile}`,
      "--confirm",
    );
    assert.equal(applied.code, 1, "the planned rejection is a rejected row");
    const summary = JSON.parse(applied.stdout);
    // Line 4 (already absent) counts skipped within the written finance policy, as in any import.
    assert.deepEqual([summary.updated, summary.skipped, summary.rejected], [1, 3, 1], applied.stdout);
    assert.equal(writes(emulator) - beforeApply, 1, "one write: the finance policy");
    assert.deepEqual(await members("finance", READER), []);
  });
});

Deno.test("lineage import --plan: a changed attribute the process type stores (confidence_score) is an update", async () => {
  await withCliSetup(SETUP, async ({ govcat, emulator, client, file }) => {
    const { staging, fact } = await addColumnTables(client);
    await client.types.create({
      entityDefs: [{
        name: "scored_etl",
        superTypes: ["Process"],
        attributeDefs: [{ name: "confidenceScore", typeName: "float", isOptional: true }],
      }],
    });
    const header = "source_entity_guid,target_entity_guid,process_name,confidence_score,source_column," +
      "target_column,process_type";
    const row = (score: string) => `${header}\n${staging},${fact},scored,${score},,,scored_etl\n`;
    const first = await govcat("lineage", "import", await file("first.csv", row("0.5")));
    assert.equal(first.code, 0, first.stderr);
    const edited = await file("edited.csv", row("0.9"));
    const before = writes(emulator);
    const planned = await govcat("lineage", "import", edited, "--plan");
    assert.equal(planned.code, 0, planned.stderr);
    assert.deepEqual(
      planned.json.items.map((item: Record<string, string>) => [item.action, item.field, item.old, item.new]),
      [["update", "confidenceScore", "0.5", "0.9"]],
    );
    assert.equal(writes(emulator), before, "a plan writes nothing");
  });
});
