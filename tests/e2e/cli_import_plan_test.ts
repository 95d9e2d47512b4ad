/**
 * `--plan` and `--apply-plan` of `entity bulk-update-csv` and `entity bulk-import`, as a user runs them
 * (subprocesses of main.ts against the emulator's seed): a plan shows each row's changes and writes
 * nothing (the emulator's request log says so); applying it writes exactly the planned rows; a change to
 * the catalog or the file between plan and apply is refused, naming the row and field.
 */
import assert from "node:assert/strict";
import { catalogWrites, type CliSetup, withCliSetup } from "../support/cli_harness.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const ORDERS_TEXT = "Sales orders placed through the web shop and by phone.";
const CUSTOMERS_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers";

/** Requests that changed the catalog so far ({@link catalogWrites}). */
function writes(setup: CliSetup): number {
  return catalogWrites(setup.emulator);
}

/** Exports the seed's tables and replaces the Orders description in the file. */
async function editedExport(setup: CliSetup, description: string): Promise<string> {
  const file = `${setup.dir}/tables.csv`;
  const exported = await setup.govcat("entity", "export", "--type=azure_sql_table", `--output-file=${file}`);
  assert.equal(exported.code, 0, exported.stderr);
  const text = await Deno.readTextFile(file);
  await Deno.writeTextFile(file, text.replace(ORDERS_TEXT, description));
  return file;
}

async function description(setup: CliSetup, guid: string): Promise<unknown> {
  return (await setup.client.entity.get(guid)).entity?.attributes?.description;
}

Deno.test("bulk-update-csv --plan: each row's action and changed fields, a plan file, nothing written", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await editedExport(setup, "Orders reviewed");
    const planFile = `${setup.dir}/plan.json`;
    const before = writes(setup);
    const planned = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(setup), before, "a plan writes nothing");
    assert.equal(await description(setup, ORDERS), ORDERS_TEXT);
    assert.deepEqual([planned.json.update, planned.json.unchanged, planned.json.create], [1, 4, 0]);
    const change = planned.json.items.find((item: { action: string }) => item.action === "update");
    assert.deepEqual(
      { target: change.target, field: change.field, old: change.old, new: change.new },
      { target: ORDERS, field: "description", old: ORDERS_TEXT, new: "Orders reviewed" },
    );
    const plan = JSON.parse(await Deno.readTextFile(planFile));
    assert.match(plan.sha256, /^[0-9a-f]{64}$/);
    const ordersRow = plan.rows.find((row: { target: string }) => row.target === ORDERS);
    assert.equal(ordersRow.read.description, ORDERS_TEXT);
    assert.equal(ordersRow.read.guid, ORDERS);

    const table = await setup.govcatText(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      "--output=table",
    );
    assert.equal(table.code, 0, table.stderr);
    assert.match(
      table.stdout,
      /update\s+ca7a1000-0000-4000-8000-000000000020\s+description\s+Sales orders.*Orders reviewed/,
    );
    assert.match(table.stderr, /1 to update, 4 unchanged.*nothing was written/);
  });
});

Deno.test("--apply-plan writes the planned update only; a catalog change since the plan is refused by row and field", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await editedExport(setup, "Orders reviewed");
    const planFile = `${setup.dir}/plan.json`;
    const planned = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);

    // A colleague edits the Orders description after the plan was made.
    const colleague = await setup.file("colleague.csv", `guid,description\r\n${ORDERS},Edited meanwhile\r\n`);
    assert.equal((await setup.govcat("entity", "bulk-update-csv", `--csv-file=${colleague}`)).code, 0);
    const before = writes(setup);
    const refused = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /the catalog changed since the plan/);
    assert.match(
      refused.stderr,
      /line 5 \(ca7a1000-0000-4000-8000-000000000020\): description was "Sales orders.*" when planned, now "Edited meanwhile"/,
    );
    assert.equal(writes(setup), before, "a refused apply writes nothing");
    assert.equal(await description(setup, ORDERS), "Edited meanwhile");

    // Planned again, the apply writes the one planned change and skips the unchanged rows.
    const again = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
      "--overwrite",
    );
    assert.equal(again.code, 0, again.stderr);
    const applied = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual([applied.json.updated, applied.json.skipped], [1, 4]);
    assert.equal(await description(setup, ORDERS), "Orders reviewed");

    // The file edited after planning: refused by its SHA-256, nothing sent.
    await Deno.writeTextFile(
      file,
      (await Deno.readTextFile(file)).replace("Orders reviewed", "Orders again"),
    );
    const changed = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(changed.code, 2);
    assert.match(changed.stderr, /tables\.csv changed since the plan .* was made \(SHA-256/);
  });
});

Deno.test("an export of an unchanged catalog plans every row unchanged", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = `${setup.dir}/all.csv`;
    const exported = await setup.govcat("entity", "export", `--output-file=${file}`, "--attribute=owner");
    assert.equal(exported.code, 0, exported.stderr);
    const planned = await setup.govcat("entity", "bulk-update-csv", `--csv-file=${file}`, "--plan");
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(planned.json.unchanged, exported.json.entities);
    assert.deepEqual([planned.json.update, planned.json.reject], [0, 0]);
  });
});

Deno.test("bulk-import --plan: create, skip, or (--if-exists=update) each changed field; apply creates the new row", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await setup.file(
      "import.csv",
      "typeName,qualifiedName,description\r\n" +
        `azure_sql_table,${CUSTOMERS_QN},Customers renamed\r\n` +
        "DataSet,ds://plan/new,A new data set\r\n",
    );
    const before = writes(setup);
    const skipping = await setup.govcat("entity", "bulk-import", `--csv-file=${file}`, "--plan");
    assert.equal(skipping.code, 0, skipping.stderr);
    assert.deepEqual(skipping.json.items.map((i: { action: string }) => i.action), [
      "skip",
      "create",
      "create",
    ]);
    const updating = await setup.govcat(
      "entity",
      "bulk-import",
      `--csv-file=${file}`,
      "--plan",
      "--if-exists=update",
    );
    assert.equal(updating.code, 0, updating.stderr);
    const update = updating.json.items.find((i: { action: string; field: string }) =>
      i.action === "update" && i.field === "description"
    );
    assert.match(update.old, /^Customer master data/);
    assert.equal(update.new, "Customers renamed");
    assert.equal(writes(setup), before, "plans write nothing");

    const planFile = `${setup.dir}/import-plan.json`;
    assert.equal(
      (await setup.govcat("entity", "bulk-import", `--csv-file=${file}`, "--plan", `--plan-file=${planFile}`))
        .code,
      0,
    );
    const wrong = await setup.govcat(
      "entity",
      "bulk-import",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
      "--if-exists=update",
      "--confirm",
    );
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /was planned with .*nothing was sent/);
    const applied = await setup.govcat(
      "entity",
      "bulk-import",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual([applied.json.created, applied.json.skipped], [1, 1]);
    const created = await setup.client.entity.getByUniqueAttribute("DataSet", "ds://plan/new");
    assert.equal(created.entity?.attributes?.description, "A new data set");
  });
});

Deno.test("plan options that contradict each other are refused before anything is read", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await setup.file("x.csv", `guid,description\r\n${ORDERS},x\r\n`);
    const before = setup.requests();
    for (
      const [args, pattern] of [
        [["--plan", "--apply-plan=p.json"], /--plan and --apply-plan exclude each other/],
        [["--plan-file=p.json"], /--plan-file needs --plan/],
        [["--plan", "--dry-run"], /--dry-run does not go with --plan/],
      ] as const
    ) {
      const run = await setup.govcat("entity", "bulk-update-csv", `--csv-file=${file}`, ...args);
      assert.equal(run.code, 2, args.join(" "));
      assert.match(run.stderr, pattern);
    }
    const taken = await setup.file("taken.json", "{}");
    const refused = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${taken}`,
    );
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--plan-file: .*taken\.json already exists/);
    assert.equal(await Deno.readTextFile(taken), "{}");
    assert.equal(setup.requests(), before);
  });
});

Deno.test("--apply-plan --resume finishes an interrupted apply exactly once, accepting what it wrote", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await setup.file(
      "two.csv",
      `guid,description\r\n${ORDERS},Orders v2\r\nca7a1000-0000-4000-8000-000000000030,Products v2\r\n`,
    );
    const planFile = `${setup.dir}/plan.json`;
    const planned = await setup.govcat(
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    // The first write is applied but its answer refused: the apply stops after one row, resumable.
    setup.emulator.faults.script([{
      method: "POST",
      path: "/entity/bulk",
      status: 403,
      afterHandling: true,
    }]);
    const apply = [
      "entity",
      "bulk-update-csv",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
      "--batch-size=1",
      "--concurrency=1",
    ];
    const stopped = await setup.govcat(...apply);
    assert.notEqual(stopped.code, 0, "the apply stops");
    assert.equal(await description(setup, ORDERS), "Orders v2");
    const posts = () =>
      setup.emulator.faults.stats().log.filter((e) => e.method === "POST" && e.path.endsWith("/entity/bulk"))
        .length;
    const before = posts();
    const resumed = await setup.govcat(...apply, "--resume");
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(posts() - before, 1, "only the row not yet written is sent");
    assert.equal(await description(setup, "ca7a1000-0000-4000-8000-000000000030"), "Products v2");
  });
});

Deno.test("glossary import-terms --mode=batches: plan, a term edited meanwhile refused, apply the new plan", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const glossaries = await setup.govcat("glossary", "list");
    const glossary = glossaries.json[0].guid;
    const terms = ["glossary", "import-terms", `--glossary-guid=${glossary}`, "--mode=batches"];
    const first = await setup.file("first.csv", "name,description\r\nChurn,Customers lost\r\n");
    assert.equal((await setup.govcat(...terms, `--csv-file=${first}`)).code, 0);

    const file = await setup.file(
      "terms.csv",
      "name,description,status\r\nChurn,Customers lost in a month,Approved\r\nNet revenue,Revenue after returns,Draft\r\n",
    );
    const planFile = `${setup.dir}/terms-plan.json`;
    const before = writes(setup);
    const planned = await setup.govcat(...terms, `--csv-file=${file}`, "--plan", `--plan-file=${planFile}`);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(setup), before, "a plan writes nothing");
    assert.deepEqual([planned.json.create, planned.json.update], [1, 1]);
    assert.ok(
      planned.json.items.some((i: Record<string, string>) =>
        i.target === "Churn" && i.field === "longDescription" && i.old === "Customers lost"
      ),
      JSON.stringify(planned.json.items),
    );

    const meanwhile = await setup.file(
      "meanwhile.csv",
      "name,description\r\nChurn,Edited by a colleague\r\n",
    );
    assert.equal((await setup.govcat(...terms, `--csv-file=${meanwhile}`)).code, 0);
    const refused = await setup.govcat(...terms, `--csv-file=${file}`, `--apply-plan=${planFile}`);
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /line 2 \(Churn\): longDescription was "Customers lost" when planned, now "Edited by a colleague"/,
    );

    assert.equal(
      (await setup.govcat(...terms, `--csv-file=${file}`, "--plan", `--plan-file=${planFile}`, "--overwrite"))
        .code,
      0,
    );
    const applied = await setup.govcat(...terms, `--csv-file=${file}`, `--apply-plan=${planFile}`);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual([applied.json.created, applied.json.updated], [1, 1]);
  });
});

Deno.test("--plan: a row naming no entity is planned rejected with the reason, the others still planned", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await setup.file(
      "mixed.csv",
      "guid,typeName,qualifiedName,description\r\n" +
        `${ORDERS},,,Orders reviewed\r\n` +
        "00000000-0000-4000-8000-000000000099,,,Nobody\r\n" +
        ",azure_sql_table,mssql://nowhere,Nothing\r\n",
    );
    const planned = await setup.govcat("entity", "bulk-update-csv", `--csv-file=${file}`, "--plan");
    assert.equal(planned.code, 0, planned.stderr);
    const rows = planned.json.items.map((
      i: Record<string, unknown>,
    ) => [i.line, i.action, String(i.reason).slice(0, 3)]);
    assert.deepEqual(rows, [[2, "update", ""], [3, "reject", "404"], [4, "reject", "no "]]);
  });
});

Deno.test("collections import: plan, a collection renamed meanwhile refused, apply the new plan", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const file = await setup.file(
      "collections.csv",
      "collection_name,friendly_name,description,parent_collection\r\n" +
        "finance,Finance team,,\r\nsales,Sales,,\r\nrisk,Risk,Credit risk,finance\r\n",
    );
    const planFile = `${setup.dir}/collections-plan.json`;
    const before = writes(setup);
    const planned = await setup.govcat(
      "collections",
      "import",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(setup), before, "a plan writes nothing");
    assert.deepEqual([planned.json.create, planned.json.update, planned.json.unchanged], [1, 1, 1]);
    const rename = planned.json.items.find((i: Record<string, string>) => i.target === "finance");
    assert.deepEqual([rename.field, rename.old, rename.new], ["friendly_name", "Finance", "Finance team"]);

    const meanwhile = await setup.file(
      "meanwhile.csv",
      "collection_name,friendly_name\r\nfinance,Finance & Control\r\n",
    );
    assert.equal((await setup.govcat("collections", "import", `--csv-file=${meanwhile}`)).code, 0);
    const refused = await setup.govcat(
      "collections",
      "import",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /line 2 \(finance\): friendly_name was "Finance" when planned, now "Finance & Control"/,
    );

    assert.equal(
      (await setup.govcat(
        "collections",
        "import",
        `--csv-file=${file}`,
        "--plan",
        `--plan-file=${planFile}`,
        "--overwrite",
      )).code,
      0,
    );
    const applied = await setup.govcat(
      "collections",
      "import",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual([applied.json.created, applied.json.updated, applied.json.skipped], [1, 1, 1]);
  });
});

Deno.test("glossary assign_terms: plan, an assignment made meanwhile refused, apply the new plan", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-plan-" }, async (setup) => {
    const glossary = (await setup.govcat("glossary", "list")).json[0].guid;
    const terms = await setup.file("terms.csv", "name,description\r\nRevenue,Money in\r\n");
    assert.equal(
      (await setup.govcat(
        "glossary",
        "import-terms",
        `--glossary-guid=${glossary}`,
        "--mode=batches",
        `--csv-file=${terms}`,
      )).code,
      0,
    );
    const term = (await setup.govcat("glossary", "list-terms", `--glossary-guid=${glossary}`)).json[0].guid;
    const products = "ca7a1000-0000-4000-8000-000000000030";
    const file = await setup.file(
      "assign.csv",
      `term_guid,entity_guid\r\n${term},${ORDERS}\r\n${term},${products}\r\n${term},00000000-0000-4000-8000-000000000099\r\n`,
    );
    const planFile = `${setup.dir}/assign-plan.json`;
    const before = writes(setup);
    const planned = await setup.govcat(
      "glossary",
      "assign_terms",
      `--csv-file=${file}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(writes(setup), before, "a plan writes nothing");
    assert.deepEqual(planned.json.items.map((i: Record<string, unknown>) => i.action), [
      "create",
      "create",
      "reject",
    ]);

    assert.equal(
      (await setup.govcat("glossary", "assign-term", `--term-guid=${term}`, `--entity-guids=${ORDERS}`)).code,
      0,
    );
    const refused = await setup.govcat(
      "glossary",
      "assign_terms",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /line 2 \(.*\): assigned was false when planned, now true/);

    assert.equal(
      (await setup.govcat(
        "glossary",
        "assign_terms",
        `--csv-file=${file}`,
        "--plan",
        `--plan-file=${planFile}`,
        "--overwrite",
      )).code,
      0,
    );
    const applied = await setup.govcat(
      "glossary",
      "assign_terms",
      `--csv-file=${file}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(applied.code, 1, "the planned rejection is a rejected row");
    const summary = JSON.parse(applied.stdout);
    assert.deepEqual([summary.created, summary.skipped, summary.rejected], [1, 1, 1]);
  });
});
