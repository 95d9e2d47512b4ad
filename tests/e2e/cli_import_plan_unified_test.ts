/**
 * `--plan` and `--apply-plan` of `uc term import-csv`, `glossary import-terms` in service mode and
 * `entity import-business-metadata`, as a user runs them (subprocesses of main.ts against the emulator): a
 * plan shows each row's changes and writes nothing (the emulator's request log says so); applying it
 * writes the planned rows; a change to the catalog between plan and apply is refused, naming row and field.
 */
import assert from "node:assert/strict";
import { type ImportSetup, withImportSetup } from "../support/import_setup.ts";

type Item = {
  line: number;
  action: string;
  target: string;
  field: string;
  old: string;
  new: string;
  reason: string;
};

const changeOf = (items: Item[], target: string, field = "") =>
  items.find((item) => item.target === target && item.field === field);

async function ucDomain(setup: ImportSetup): Promise<string> {
  return (await setup.unified.domains.create({ name: "Finance", type: "FunctionalUnit" })).id;
}

Deno.test("uc term import-csv --plan: create, update old → new, unchanged, rejected; nothing written; apply refused after a change", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = await ucDomain(setup);
    const cost = await setup.unified.terms.create({
      name: "Cost",
      status: "DRAFT",
      domain: d,
      description: "Old",
    });
    await setup.unified.terms.create({ name: "Margin", status: "DRAFT", domain: d, description: "Kept" });
    const csv = await setup.file("terms.csv", [
      "term_id,name,description,status,acronym,owner_id,resource_name,resource_url,synonyms,contacts",
      ",Revenue,Money in,published,,,,,,",
      ",Cost,What we spend,,,,,,,",
      ",Margin,Kept,,,,,,,",
      "0b0b0b0b-0000-4000-8000-000000000001,Ghost,Nobody,,,,,,,",
    ]);
    const planFile = `${setup.dir}/plan.json`;
    const before = setup.writes();
    const planned = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${d}`,
      "--plan",
      `--plan-file=${planFile}`,
    );
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(setup.writes(), before, "a plan writes nothing");
    const p = planned.json;
    assert.deepEqual([p.create, p.update, p.unchanged, p.reject], [1, 1, 1, 1]);
    assert.equal(p.domainId, d);
    const items: Item[] = p.items;
    assert.deepEqual(changeOf(items, "Revenue", "status")?.new, "PUBLISHED");
    const update = changeOf(items, "Cost", "description")!;
    assert.deepEqual([update.action, update.old, update.new], ["update", "Old", "What we spend"]);
    assert.equal(changeOf(items, "Margin")?.action, "unchanged");
    const ghost = items.find((item) => item.line === 5)!;
    assert.equal(ghost.action, "reject");
    assert.match(ghost.reason, /404/);

    // A colleague edits Cost after the plan: the apply is refused, naming the row and field.
    await setup.unified.terms.update(cost.id, {
      name: "Cost",
      status: "DRAFT",
      domain: d,
      description: "Edited meanwhile",
    });
    const refused = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${d}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /line 3 \(Cost\): description was "Old" when planned, now "Edited meanwhile"/,
    );

    const again = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${d}`,
      "--plan",
      `--plan-file=${planFile}`,
      "--overwrite",
    );
    assert.equal(again.code, 0, again.stderr);
    const applied = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${d}`,
      `--apply-plan=${planFile}`,
    );
    assert.equal(applied.code, 1, applied.stderr);
    const a = applied.json;
    assert.deepEqual([a.created, a.updated, a.skipped, a.rejected], [1, 1, 1, 1]);
    assert.equal((await setup.unified.terms.get(cost.id)).description, "What we spend");
  });
});

Deno.test("glossary import-terms --plan in service mode: the term diff, nothing written; --apply-plan refused, naming --mode=batches", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const glossary = (await setup.catalog.glossary.create({ name: "Business" })).guid!;
    await setup.catalog.glossary.createTerm({
      name: "Churn",
      longDescription: "Customers lost",
      anchor: { glossaryGuid: glossary },
    });
    const file = await setup.file("terms.csv", [
      "name,description,status",
      "Churn,Customers lost in a month,Approved",
      "Net revenue,Revenue after returns,Draft",
    ]);
    const terms = ["glossary", "import-terms", `--glossary-guid=${glossary}`, `--csv-file=${file}`];
    const before = setup.writes();
    const planned = await setup.govcat(...terms, "--plan", `--plan-file=${setup.dir}/plan.json`);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(setup.writes(), before, "a plan writes nothing, not even an upload to the service");
    assert.deepEqual([planned.json.create, planned.json.update], [1, 1]);
    const churn = changeOf(planned.json.items, "Churn", "longDescription")!;
    assert.deepEqual([churn.old, churn.new], ["Customers lost", "Customers lost in a month"]);
    assert.match(planned.json.note, /cannot apply a plan.*--mode=batches/);

    const refused = await setup.govcat(...terms, `--apply-plan=${setup.dir}/plan.json`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--apply-plan needs --mode=batches/);
    assert.match(refused.stderr, /--mode=batches --plan --plan-file/);
    assert.equal(setup.writes(), before, "a refused apply writes nothing");
  });
});

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const CUSTOMERS_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo/Customers";
const BM_HEADER =
  "EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName[optional]";

Deno.test("import-business-metadata --plan: set old → new, unchanged, rejected (entity, group, attribute); apply uploads the changed rows only, refused after a change", async () => {
  await withImportSetup({}, async (setup) => {
    const file = await setup.file("bm.csv", [
      BM_HEADER,
      `azure_sql_table,${CUSTOMERS_QN},DataStewardship.steward,Sales data team,`,
      `azure_sql_table,${CUSTOMERS},DataStewardship.reviewCycle,Quarterly,guid`,
      `azure_sql_table,${CUSTOMERS_QN}/Nowhere,DataStewardship.steward,Nobody,`,
      `azure_sql_table,${CUSTOMERS_QN},Privacy.containsPII,true,`,
      `azure_sql_table,${CUSTOMERS_QN},DataStewardship.colour,blue,`,
    ]);
    const bm = ["entity", "import-business-metadata", `--bm-file=${file}`];
    const planFile = `${setup.dir}/bm-plan.json`;
    const before = setup.writes();
    const planned = await setup.govcat(...bm, "--plan", `--plan-file=${planFile}`);
    assert.equal(planned.code, 0, planned.stderr);
    assert.equal(setup.writes(), before, "a plan writes nothing");
    assert.deepEqual([planned.json.update, planned.json.unchanged, planned.json.reject], [1, 1, 3]);
    const items: Item[] = planned.json.items;
    const set = items.find((item) => item.line === 2)!;
    assert.deepEqual([set.action, set.field, set.old, set.new], [
      "update",
      "DataStewardship.steward",
      "Dana Whitfield",
      "Sales data team",
    ]);
    assert.equal(items.find((item) => item.line === 3)?.action, "unchanged");
    assert.match(items.find((item) => item.line === 4)!.reason, /no azure_sql_table entity found/);
    assert.match(items.find((item) => item.line === 5)!.reason, /no business metadata Privacy applies/);
    assert.match(items.find((item) => item.line === 6)!.reason, /DataStewardship has no attribute colour/);

    // A colleague sets the steward after the plan: refused, naming the row and field.
    await setup.catalog.entity.addOrUpdateBusinessMetadataAttributes(CUSTOMERS, "DataStewardship", {
      steward: "Someone else",
    });
    const refused = await setup.govcat(...bm, `--apply-plan=${planFile}`);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(
      refused.stderr,
      /line 2 \(azure_sql_table .*Customers\): DataStewardship.steward was "Dana Whitfield" when planned, now "Someone else"/,
    );

    assert.equal((await setup.govcat(...bm, "--plan", `--plan-file=${planFile}`, "--overwrite")).code, 0);
    const uploads = () =>
      setup.emulator.faults.stats().log.filter((entry) =>
        String(entry.path).includes("businessmetadata/import")
      )
        .length;
    const applied = await setup.govcat(...bm, `--apply-plan=${planFile}`);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(applied.json.uploaded, 1, "only the row planned to change is uploaded");
    assert.equal(uploads(), 1);
    const stored = (await setup.catalog.entity.get(CUSTOMERS)).entity?.businessAttributes;
    assert.equal(stored?.DataStewardship?.steward, "Sales data team");
  });
});
