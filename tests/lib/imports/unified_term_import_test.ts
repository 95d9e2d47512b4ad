/**
 * `uc term import-csv` on the bulk engine, against the emulator's unified catalog: create, update by name
 * and by term_id (only the given fields), synonyms in either direction, contacts as experts, refused rows
 * in the reject file with the service's answer, dry runs that only read, e-mail owners refused with their
 * place, re-runs that change nothing, and every uc-term template's sample.
 */
import assert from "node:assert/strict";
import { UNIFIED_TERM_TEMPLATES } from "../../../lib/templates/csv/unified_term_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import type { Term } from "../../../lib/catalog/unified_term_schemas.ts";
import { type ImportSetup, readCsvRecords, withImportSetup } from "../../support/import_setup.ts";

const OWNER = "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f";
const EXPERT = "0d9e8f7a-6b5c-4d3e-9f1a-2b3c4d5e6f70";

async function domain(setup: ImportSetup, name = "Finance"): Promise<string> {
  return (await setup.unified.domains.create({ name, type: "FunctionalUnit" })).id;
}

async function termsOf(setup: ImportSetup, domainId: string): Promise<Map<string, Term>> {
  const terms = new Map<string, Term>();
  for await (const term of setup.unified.terms.list({ domainId })) terms.set(term.name!, term);
  return terms;
}

async function synonymsOf(setup: ImportSetup, id: string, names: Map<string, Term>): Promise<string[]> {
  const byId = new Map([...names.values()].map((t) => [t.id, t.name]));
  const links = await setup.unified.terms.listRelationships(id, { relationshipType: "Synonym" });
  return links.map((link) => byId.get(link.entityId) ?? link.entityId).sort();
}

Deno.test("uc term import-csv: creates, updates by name and by term_id, links synonyms; again changes nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = await domain(setup);
    const old = await setup.unified.terms.create({
      name: "Cost",
      status: "DRAFT",
      domain: d,
      description: "Old",
    });
    const renamed = await setup.unified.terms.create({
      name: "Margin",
      status: "DRAFT",
      domain: d,
      acronyms: ["MG"],
      contacts: { owner: [{ id: OWNER, description: "kept" }] },
    });
    const csv = await setup.file("terms.csv", [
      "term_id,name,description,status,acronym,owner_id,resource_name,resource_url,synonyms,contacts",
      `,Revenue,Money in,published,REV;RV,${OWNER},Wiki;Policy,https://w.example/r;https://p.example/r,Income;Cost,`,
      `,Cost,What we spend,,,,,,,${EXPERT}`,
      `${renamed.id},Gross margin,,,,,,,,${EXPERT}`,
      `,Income,Another word for revenue,,,,,,,`,
      `,"Profit, net",,expired,,,,,Gross margin,`,
    ]);
    const run = await setup.govcat("uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${d}`);
    assert.equal(run.code, 0, run.stderr);
    const s = run.json;
    assert.equal(s.template, "uc-term-all-fields");
    assert.equal(s.domainId, d);
    assert.deepEqual([s.rows, s.created, s.updated, s.skipped, s.rejected], [5, 3, 2, 0, 0]);

    const terms = await termsOf(setup, d);
    assert.deepEqual([...terms.keys()].sort(), ["Cost", "Gross margin", "Income", "Profit, net", "Revenue"]);
    const revenue = terms.get("Revenue")!;
    assert.equal(revenue.status, "PUBLISHED");
    assert.deepEqual(revenue.acronyms, ["REV", "RV"]);
    assert.deepEqual(revenue.resources, [
      { name: "Wiki", url: "https://w.example/r" },
      { name: "Policy", url: "https://p.example/r" },
    ]);
    assert.deepEqual(revenue.contacts?.owner, [{ id: OWNER }]);
    const cost = terms.get("Cost")!;
    assert.equal(cost.id, old.id, "updated by name, not created again");
    assert.equal(cost.description, "What we spend");
    assert.equal(cost.status, "DRAFT", "an empty status leaves it");
    assert.deepEqual(cost.contacts?.expert, [{ id: EXPERT }], "contacts are the term's experts");
    const margin = terms.get("Gross margin")!;
    assert.equal(margin.id, renamed.id);
    assert.deepEqual(margin.acronyms, ["MG"], "a term_id row changes only what it gives");
    assert.deepEqual(margin.contacts, {
      owner: [{ id: OWNER, description: "kept" }],
      expert: [{ id: EXPERT }],
    });
    assert.equal(terms.get("Profit, net")!.status, "EXPIRED");
    // Income is further down than Revenue: its row made the link, once both existed.
    assert.deepEqual(await synonymsOf(setup, revenue.id, terms), ["Cost", "Income"]);
    assert.deepEqual(await synonymsOf(setup, terms.get("Income")!.id, terms), ["Revenue"]);
    assert.deepEqual(await synonymsOf(setup, margin.id, terms), ["Profit, net"]);

    const writes = setup.writes();
    const again = await setup.govcat("uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${d}`);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual([again.json.created, again.json.updated, again.json.skipped], [0, 0, 5]);
    assert.equal(setup.writes(), writes, "nothing was written the second time");
  });
});

Deno.test("uc term import-csv: refused rows go to the reject file with the answer; --skip-existing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = await domain(setup);
    const elsewhere = await setup.unified.terms.create({
      name: "Far",
      status: "DRAFT",
      domain: await domain(setup, "Ops"),
    });
    await setup.unified.terms.create({ name: "Cost", status: "DRAFT", domain: d });
    const missing = "6f1d2a44-0000-4000-8000-000000000404";
    const csv = await setup.file("update.csv", [
      "term_id,name,description,status",
      `${elsewhere.id},,Moved?,`,
      `${missing},,Nobody,`,
    ]);
    const run = await setup.govcat("uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${d}`);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.json.template, "uc-term-bulk-update");
    assert.deepEqual([run.json.rejected, run.json.rows], [2, 2]);
    const rejects = await readCsvRecords(run.json.errorsFile);
    assert.match(rejects[0].import_error, /is in governance domain .*, not in --domain-id/);
    assert.match(rejects[1].import_error, /^404 /);

    const create = await setup.file("create.csv", [
      "name,description",
      "Cost,Changed",
      "Fresh,New",
      "Broken,x",
    ]);
    setup.emulator.faults.script([{ status: 400, method: "POST", path: "/terms" }]);
    const partly = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${create}`,
      `--domain-id=${d}`,
      "--skip-existing",
      "--concurrency=1",
    );
    assert.equal(partly.code, 1, partly.stderr);
    assert.deepEqual([partly.json.skipped, partly.json.created, partly.json.rejected], [1, 1, 1]);
    const refused = await readCsvRecords(partly.json.errorsFile);
    assert.deepEqual(refused.map((r) => [r.name, r.source_line]), [["Fresh", "3"]]);
    assert.match(refused[0].import_error, /^400 /);
    const terms = await termsOf(setup, d);
    assert.equal(terms.get("Cost")!.description, undefined, "--skip-existing left it alone");
    assert.ok(terms.has("Broken"));
  });
});

Deno.test("uc term import-csv: a bad file is refused by file:line:column, e-mail owners by name, nothing sent", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = "6f1d2a44-0000-4000-8000-000000000001";
    const bad = await setup.file("bad.csv", [
      "name,status,owner_id,resource_name,resource_url,contacts",
      "Ok,draft,,,,",
      "Cost,approved,,,,",
      "Owner,draft,ana@example.com,,,",
      ",draft,,,,",
      "ok,draft,,Wiki,,",
      "Expert,,,,,bob@example.com;not-a-guid",
    ]);
    for (const extra of [[], ["--dry-run"]]) {
      const run = await setup.govcat(
        "uc",
        "term",
        "import-csv",
        `--csv-file=${bad}`,
        `--domain-id=${d}`,
        ...extra,
      );
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /bad\.csv has 7 problems; nothing was sent/);
      assert.match(
        run.stderr,
        /bad\.csv:3:2: column status: "approved" is not one of DRAFT, PUBLISHED, EXPIRED/,
      );
      assert.match(
        run.stderr,
        /bad\.csv:4:3: column owner_id: "ana@example\.com" is an e-mail address; owner_id takes Entra ID object IDs \(GUIDs\), not e-mail addresses/,
      );
      assert.match(run.stderr, /bad\.csv:5:1: column name: a value is required/);
      assert.match(run.stderr, /bad\.csv:6:1: column name: .*is also on line 2/);
      assert.match(
        run.stderr,
        /bad\.csv:6:5: column resource_url: 0 resource_url value\(s\) for 1 resource_name/,
      );
      assert.match(run.stderr, /bad\.csv:7:6: column contacts: "bob@example\.com" is an e-mail address/);
      assert.match(run.stderr, /bad\.csv:7:6: column contacts: "not-a-guid" is not an Entra ID object ID/);
    }
    const columns = await setup.file("columns.csv", "title,status\nX,draft\n");
    const wrong = await setup.govcat("uc", "term", "import-csv", `--csv-file=${columns}`, `--domain-id=${d}`);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /columns\.csv:1: the header .* matches none of the templates/);
    const missing = await setup.govcat("uc", "term", "import-csv", `--csv-file=${columns}`);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing required option --domain-id/);
    assert.equal(setup.requests(), 0);
  });
});

Deno.test("uc term import-csv: synonyms must name a row or a term of the domain; an unknown domain is one 404", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = await domain(setup);
    await setup.unified.terms.create({ name: "Turnover", status: "DRAFT", domain: d });
    const csv = await setup.file("syn.csv", [
      "name,status,synonyms,contacts",
      "Revenue,draft,Turnover;Sales;Nowhere,",
      "Sales,draft,sales,",
    ]);
    const writes = setup.writes();
    const run = await setup.govcat("uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${d}`);
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      run.stderr,
      /syn\.csv:2:3: column synonyms: "Nowhere" is neither a row of the file nor a term/,
    );
    assert.match(run.stderr, /syn\.csv:3:3: column synonyms: "sales" is this row's own term/);
    assert.equal(setup.writes(), writes);
    const lost = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${crypto.randomUUID()}`,
    );
    assert.equal(lost.code, 1);
    assert.match(lost.stderr, /404/);
    assert.equal(setup.writes(), writes);
  });
});

Deno.test("uc term import-csv --dry-run only reads and shows what would be done", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const d = await domain(setup);
    await setup.unified.terms.create({ name: "Cost", status: "DRAFT", domain: d, description: "Same" });
    await setup.unified.terms.create({ name: "Margin", status: "DRAFT", domain: d });
    const csv = await setup.file("terms.csv", [
      "name,description,status,acronym,owner_id,resource_name,resource_url",
      `Revenue,Money in,published,REV;RV,${OWNER},,`,
      "Cost,Same,,,,,",
      "Margin,New words,,,,,",
    ]);
    const writes = setup.writes();
    const dry = await setup.govcat(
      "uc",
      "term",
      "import-csv",
      `--csv-file=${csv}`,
      `--domain-id=${d}`,
      "--dry-run",
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.equal(setup.writes(), writes, "a dry run sends only GETs");
    assert.deepEqual([dry.json.wouldCreate, dry.json.wouldUpdate, dry.json.wouldSkip], [1, 1, 1]);
    assert.deepEqual(dry.json.preview[0], {
      lines: [2],
      action: "create",
      name: "Revenue",
      description: "Money in",
      status: "PUBLISHED",
      acronyms: ["REV", "RV"],
      owners: [OWNER],
    });
    assert.equal((await termsOf(setup, d)).size, 2);
  });
});

Deno.test("uc term import-csv: every uc-term template's sample imports cleanly", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    for (const template of UNIFIED_TERM_TEMPLATES) {
      const d = await domain(setup, `Domain ${template.name}`);
      let text = sampleCsvLines(template).join("\n");
      if (template.columns.some((c) => c.name === "term_id" && c.required)) {
        // Term ids are made by the catalog: the update sample names terms that exist first.
        for (const row of template.sample) {
          const term = await setup.unified.terms.create({
            name: `Before ${row[0]}`,
            status: "DRAFT",
            domain: d,
          });
          text = text.replace(row[0], term.id);
        }
      }
      const csv = await setup.file(`${template.name}.csv`, text);
      const run = await setup.govcat("uc", "term", "import-csv", `--csv-file=${csv}`, `--domain-id=${d}`);
      assert.equal(run.code, 0, `${template.name}: ${run.stderr}`);
      assert.equal(run.json.template, template.name, "detected from the header");
      assert.equal(run.json.rejected, 0, template.name);
      assert.equal(run.json.created + run.json.updated, template.sample.length, template.name);
    }
  });
});
