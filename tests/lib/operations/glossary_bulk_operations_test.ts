/**
 * The bulk term operations of the `glossary` group through the command line, in process, against an
 * emulator: terms read by GUID (an unknown one left out), updated from a file and read back, exported to a
 * CSV that imports back into another glossary, and deleted in bulk, where a child term and an assigned
 * term stay unless forced, and the job's status is read again.
 */
import assert from "node:assert/strict";
import { parseCsv } from "../../../lib/deps/csv.ts";
import type { CatalogClient } from "../../../lib/catalog/client.ts";
import { withCli } from "./cli_in_process.ts";
import { withoutHeader } from "../../../lib/operations/glossary_bulk_operations.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";

/** The rows of a CSV file, by column name. */
async function csvRows(path: string): Promise<Record<string, string>[]> {
  const rows: Record<string, string>[] = [];
  for await (const row of parseCsv(await Deno.readTextFile(path), { columns: true })) rows.push(row);
  return rows;
}

async function glossaryWithTerms(catalog: CatalogClient, name: string, terms: string[]) {
  const glossary = await catalog.glossary.create({ name });
  const created = await catalog.glossary.createTerms(
    terms.map((term) => ({ name: term, anchor: { glossaryGuid: glossary.guid! } })),
  );
  return { glossary: glossary.guid!, terms: created.map((t) => t.guid!) };
}

Deno.test("glossary read-terms-by-guids and put-terms: read many, update many, read back", async () => {
  await withCli({}, async ({ govcat, catalog, file }) => {
    const { terms: [revenue, margin] } = await glossaryWithTerms(catalog, "Finance", ["Revenue", "Margin"]);
    const read = await govcat(
      "glossary",
      "read-terms-by-guids",
      `--term-guid=${margin}`,
      `--term-guid=${UNKNOWN}`,
      `--term-guid=${revenue}`,
    );
    assert.equal(read.code, 0, read.stderr);
    assert.deepEqual(read.json.map((t: { name: string }) => t.name), ["Margin", "Revenue"]);

    const updated = read.json.map((term: Record<string, unknown>) => ({
      guid: term.guid,
      name: term.name,
      anchor: term.anchor,
      status: "Approved",
      longDescription: `${term.name}, as finance defines it`,
    }));
    const put = await govcat("glossary", "put-terms", `--payload-file=${await file("terms.json", updated)}`);
    assert.equal(put.code, 2, "a full update needs --confirm");
    const confirmed = await govcat(
      "glossary",
      "put-terms",
      `--payload-file=${await file("terms.json", updated)}`,
      "--confirm",
    );
    assert.equal(confirmed.code, 0, confirmed.stderr);
    const again = await catalog.glossary.listTermsByGuids([revenue, margin]);
    assert.deepEqual(again.map((t) => [t.name, t.status, t.longDescription]), [
      ["Revenue", "Approved", "Revenue, as finance defines it"],
      ["Margin", "Approved", "Margin, as finance defines it"],
    ]);

    const noGuid = await govcat(
      "glossary",
      "put-terms",
      `--payload-file=${await file("bad.json", [{ name: "X" }])}`,
      "--confirm",
    );
    assert.equal(noGuid.code, 2, "a term without a guid is refused before anything is sent");
    const unknown = await govcat(
      "glossary",
      "put-terms",
      `--payload-file=${await file("gone.json", [{ guid: UNKNOWN, name: "Gone" }, updated[0]])}`,
      "--confirm",
    );
    assert.equal(unknown.code, 1, "the catalog refuses an unknown term");
    assert.equal((await catalog.glossary.getTerm(revenue)).status, "Approved", "and writes none");
  });
});

Deno.test("glossary export-terms writes the catalog's CSV, which import-terms reads back", async () => {
  await withCli({}, async ({ govcat, catalog, dir }) => {
    const { glossary, terms } = await glossaryWithTerms(catalog, "Finance", ["Revenue", "Margin", "Cost"]);
    await catalog.glossary.updateTerm(terms[0], {
      guid: terms[0],
      name: "Revenue",
      anchor: { glossaryGuid: glossary },
      abbreviation: "REV",
      longDescription: "Money in",
      status: "Approved",
      synonyms: [{ termGuid: terms[1] }],
    });
    const chosen = await govcat(
      "glossary",
      "export-terms",
      `--glossary-guid=${glossary}`,
      `--term-guid=${terms[0]}`,
      `--term-guid=${terms[1]}`,
      `--output-file=${dir}/two.csv`,
    );
    assert.equal(chosen.code, 0, chosen.stderr);
    assert.equal(chosen.json.terms, 2);
    const rows = await csvRows(`${dir}/two.csv`);
    assert.deepEqual(rows.map((r) => r.Name), ["Revenue", "Margin"]);
    assert.equal(rows[0].Acronym, "REV");
    assert.equal(rows[0].Definition, "Money in");
    assert.equal(rows[0].Synonyms, "Margin");

    const all = await govcat(
      "glossary",
      "export-terms",
      `--glossary-guid=${glossary}`,
      `--output-file=${dir}/all.csv`,
    );
    assert.equal(all.json.terms, 3, "without --term-guid, every term of the glossary");
    const again = await govcat(
      "glossary",
      "export-terms",
      `--glossary-guid=${glossary}`,
      `--output-file=${dir}/all.csv`,
    );
    assert.equal(again.code, 2, "an existing file is kept without --overwrite");

    const copy = await catalog.glossary.create({ name: "Copy" });
    const imported = await catalog.glossary.importTermsAndWait(
      copy.guid!,
      await Deno.readTextFile(`${dir}/all.csv`),
      "all.csv",
      { pollMs: 20 },
    );
    assert.equal(imported.status, "Succeeded", JSON.stringify(imported));
    const names = (await catalog.glossary.listTerms(copy.guid!)).map((t) => t.name).sort();
    assert.deepEqual(names, ["Cost", "Margin", "Revenue"]);
  });
});

Deno.test("glossary delete-terms: children and assigned terms stay unless forced; the job is read again", async () => {
  await withCli({ seed: true }, async ({ govcat, catalog }) => {
    const { glossary, terms: [parent, plain, assigned] } = await glossaryWithTerms(catalog, "Ops", [
      "Parent",
      "Plain",
      "Assigned",
    ]);
    const [child] = await catalog.glossary.createTerms([{
      name: "Child",
      anchor: { glossaryGuid: glossary },
      hierarchyInfo: [{ guid: parent }],
    } as Record<string, unknown>]);
    const entity = (await catalog.search.query({ keywords: "*", limit: 1 })).value?.[0]?.id as string;
    await catalog.glossary.assignTermToEntities(assigned, [{ guid: entity }]);

    assert.equal(
      (await govcat("glossary", "delete-terms", `--term-guid=${plain}`)).code,
      2,
      "needs --confirm",
    );
    const first = await govcat(
      "glossary",
      "delete-terms",
      `--term-guid=${parent}`,
      `--term-guid=${plain}`,
      `--term-guid=${assigned}`,
      "--confirm",
    );
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json.status, "Failed");
    assert.deepEqual(first.json.properties, { deletedTerms: "2", totalTermsDetected: "3" });
    assert.match(first.json.error.message, new RegExp(assigned));
    const left = (await catalog.glossary.listTerms(glossary)).map((t) => t.name).sort();
    assert.deepEqual(left, ["Assigned", "Child"], "the child stays, without its parent");

    const read = await govcat("glossary", "read-terms-delete", `--operation-id=${first.json.id}`);
    assert.deepEqual(read.json, first.json);

    const forced = await govcat(
      "glossary",
      "delete-terms",
      `--term-guid=${assigned}`,
      "--force-delete-entity-assignment",
      "--confirm",
    );
    assert.equal(forced.json.status, "Succeeded", JSON.stringify(forced.json));
    const { terms: [top] } = await glossaryWithTerms(catalog, "Tree", ["Top"]);
    await catalog.glossary.createTerms([{
      name: "Below",
      anchor: { glossaryGuid: (await catalog.glossary.getTerm(top)).anchor!.glossaryGuid! },
      hierarchyInfo: [{ guid: top }],
    } as Record<string, unknown>]);
    const tree = await govcat(
      "glossary",
      "delete-terms",
      `--term-guid=${top}`,
      "--force-delete-child",
      "--confirm",
    );
    assert.deepEqual(tree.json.properties, { deletedTerms: "2", totalTermsDetected: "2" });
    assert.ok(child.guid);
  });
});

Deno.test("export-terms pages after the first lose their header record, even one with a quoted line break", () => {
  assert.equal(withoutHeader("Name,Status\nA,Draft\nB,Approved\n"), "A,Draft\nB,Approved\n");
  assert.equal(withoutHeader("Name,Status\r\nA,Draft\r\n"), "A,Draft\r\n");
  assert.equal(withoutHeader('"Name\nof term",Status\n"x\ny",Draft\n'), '"x\ny",Draft\n');
  assert.equal(withoutHeader("Name,Status"), "");
});
