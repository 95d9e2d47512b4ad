/**
 * `glossary import-terms` against the emulator: the service's import (the default) refusing a bad file
 * before uploading it; `--mode=batches` on the bulk engine creating, updating and skipping terms, a
 * refused row split out into the reject file with the service's answer, a stopped run resumed; dry runs
 * of both modes; options of the other mode refused; the template's sample in both modes.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config.ts";
import { ImportInterruptedError, runBulkImport } from "../../../lib/csv/engine.ts";
import { glossaryTerms } from "../../../lib/csv/templates/glossary_templates.ts";
import { sampleCsvLines } from "../../../lib/csv/templates/mod.ts";
import { batchTermsTemplate } from "../../../lib/operations/glossary_csv.ts";
import { glossaryTermImport } from "../../../lib/operations/glossary_term_import.ts";
import { exists, type ImportSetup, readCsvRecords, withImportSetup } from "../../support/import_setup.ts";

const HEADER = "name,description,short_description,status,definition,examples,acronym,resources";

async function glossary(setup: ImportSetup, name = "Finance"): Promise<string> {
  return (await setup.catalog.glossary.create({ name })).guid!;
}

async function termsOf(setup: ImportSetup, glossaryGuid: string) {
  const terms = await setup.catalog.glossary.listTerms(glossaryGuid);
  return new Map(terms.map((term) => [term.name!, term]));
}

Deno.test("import-terms --mode=batches creates, updates and skips; running it again changes nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup);
    const anchor = { glossaryGuid: guid };
    await setup.catalog.glossary.createTerm({ name: "Cost", longDescription: "Old words", anchor });
    await setup.catalog.glossary.createTerm({
      name: "Margin",
      longDescription: "Revenue minus cost",
      anchor,
    });
    const csv = await setup.file("terms.csv", [
      HEADER,
      "Revenue,,Money in,approved,Income from sales,Q1 revenue;Q2 revenue,REV,Wiki:https://w.example/r",
      "Cost,What we spend,,Draft,,,,",
      "Margin,,,,Revenue minus cost,,,",
      '"Profit, net",Revenue minus all costs,,,,,,https://p.example/profit',
    ]);
    const run = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
    );
    assert.equal(run.code, 0, run.stderr);
    const summary = run.json;
    assert.deepEqual([summary.rows, summary.created, summary.updated, summary.skipped, summary.rejected], [
      4,
      2,
      1,
      1,
      0,
    ]);
    assert.equal(await exists(`${csv}.govcat-checkpoint`), false);
    const terms = await termsOf(setup, guid);
    const revenue = terms.get("Revenue")!;
    assert.equal(revenue.status, "Approved");
    assert.equal(revenue.shortDescription, "Money in");
    assert.equal(revenue.longDescription, "Income from sales");
    assert.deepEqual(revenue.examples, ["Q1 revenue", "Q2 revenue"]);
    assert.equal(revenue.abbreviation, "REV");
    assert.deepEqual(revenue.resources, [{ displayName: "Wiki", url: "https://w.example/r" }]);
    assert.equal(terms.get("Cost")!.longDescription, "What we spend", "description is the definition");
    assert.deepEqual(terms.get("Profit, net")!.resources, [
      { displayName: "https://p.example/profit", url: "https://p.example/profit" },
    ]);

    const writes = setup.writes();
    const again = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
    );
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual([again.json.created, again.json.updated, again.json.skipped], [0, 0, 4]);
    assert.equal(setup.writes(), writes, "nothing was written the second time");

    // --skip-existing leaves an existing term alone even when the row differs.
    const changed = await setup.file("changed.csv", [HEADER, "Cost,Changed,,,,,,"]);
    const skipped = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${changed}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
      "--skip-existing",
    );
    assert.deepEqual([skipped.json.skipped, skipped.json.updated], [1, 0]);
    assert.equal((await termsOf(setup, guid)).get("Cost")!.longDescription, "What we spend");
  });
});

Deno.test("import-terms --mode=batches: refused rows go to the reject file with the service's answer", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup);
    const existing = await setup.catalog.glossary.createTerm({
      name: "Cost",
      anchor: { glossaryGuid: guid },
    });
    const csv = await setup.file("terms.csv", [
      "name,definition",
      "Alpha,First",
      "Beta,Second",
      "Gamma,Third",
      "Delta,Fourth",
      "Cost,What we spend",
    ]);
    // The bulk create is refused three times: the engine's batch is split down to the first row alone.
    const refused = { status: 400, method: "POST", path: "/glossary/terms" };
    setup.emulator.faults.script([
      refused,
      refused,
      refused,
      { status: 409, method: "PUT", path: `/glossary/term/${existing.guid}` },
    ]);
    const run = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
      "--concurrency=1",
    );
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual([run.json.created, run.json.updated, run.json.rejected], [3, 0, 2]);
    assert.equal(run.json.created + run.json.rejected, run.json.rows);
    const rejects = await readCsvRecords(run.json.errorsFile);
    assert.deepEqual(rejects.map((r) => [r.name, r.source_line]), [["Alpha", "2"], ["Cost", "6"]]);
    assert.match(rejects[0].import_error, /^400 /);
    assert.match(rejects[1].import_error, /^409 /);
    assert.deepEqual([...(await termsOf(setup, guid)).keys()].sort(), ["Beta", "Cost", "Delta", "Gamma"]);

    // The reject file imports on its own once the service takes the rows.
    const retry = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${run.json.errorsFile}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
    );
    assert.equal(retry.code, 0, retry.stderr);
    assert.deepEqual([retry.json.created, retry.json.updated], [1, 1]);
  });
});

Deno.test("import-terms --mode=batches: a run stopped by an unreachable catalog resumes from its checkpoint", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup);
    const lines = ["name,definition"];
    for (let i = 0; i < 30; i++) lines.push(`Term ${i},Definition ${i}`);
    const csv = await setup.file("terms.csv", lines);
    const catalog = CatalogClient.fromConfig(loadConfig({ ...setup.env, CATALOG_MAX_RETRIES: "0" }), {
      retryBaseMs: 5,
    });
    const plugin = () =>
      glossaryTermImport(catalog, { glossaryGuid: guid, mode: "batches", template: batchTermsTemplate() });
    const options = { file: csv, batchSize: 10, concurrency: 1, retryDelayMs: 5, unreachableAttempts: 2 };
    // The second bulk create keeps failing: the first batch is done, the rest waits for --resume.
    const down = { status: 503, method: "POST", path: "/glossary/terms" };
    setup.emulator.faults.script([{ method: "POST", path: "/glossary/terms", delayMs: 1 }, down, down]);
    const stopped = await runBulkImport(plugin(), options).then(
      () => assert.fail("the import should stop"),
      (error) => error,
    );
    assert.ok(stopped instanceof ImportInterruptedError, String(stopped));
    assert.deepEqual([stopped.summary.created, stopped.summary.pending], [10, 20]);
    assert.equal(await exists(`${csv}.govcat-checkpoint`), true);

    const resumed = await runBulkImport(plugin(), { ...options, resume: true });
    assert.equal(resumed.resumed, true);
    assert.deepEqual([resumed.created, resumed.pending, resumed.rows], [30, 0, 30]);
    assert.equal((await termsOf(setup, guid)).size, 30);
    assert.equal(await exists(`${csv}.govcat-checkpoint`), false);
  });
});

Deno.test("import-terms: a bad file is refused by file:line:column before anything is uploaded", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const bad = await setup.file("bad.csv", [
      "Name,Status,Nick Name,definitoin",
      "Good,Approved,,",
      ",Draft,,",
      "Odd,Pending,,",
      "good,,,",
      "a@b,,,",
    ]);
    const guid = "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f";
    for (const mode of [[], ["--mode=batches"], ["--dry-run"]]) {
      const run = await setup.govcat(
        "glossary",
        "import-terms",
        `--csv-file=${bad}`,
        `--glossary-guid=${guid}`,
        ...mode,
      );
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, /bad\.csv has 5 problems; nothing was sent/);
      assert.match(
        run.stderr,
        /bad\.csv:1:4: column definitoin: not a column of template glossary-terms\. Did you mean "definition"\?/,
      );
      assert.match(run.stderr, /bad\.csv:3:1: column Name: a value is required/);
      assert.match(
        run.stderr,
        /bad\.csv:4:2: column Status: "Pending" is not one of Draft, Approved, Alert, Expired/,
      );
      assert.match(run.stderr, /bad\.csv:5:1: column Name: .*is also on line 2/);
      assert.match(run.stderr, /bad\.csv:6:1: column Name: "a@b" contains '@'/);
    }
    // Columns only the service's import reads are refused, with their place, by --mode=batches.
    const relations = await setup.file("relations.csv", [
      "name,synonyms,Stewards",
      "Revenue,Income,",
      "Income,,",
    ]);
    const batches = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${relations}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
    );
    assert.equal(batches.code, 2);
    assert.match(
      batches.stderr,
      /relations\.csv:2:2: column synonyms: only the service's import reads this column/,
    );
    assert.equal(setup.requests(), 0, "nothing was sent");
  });
});

Deno.test("import-terms: options of the other mode are refused; an unknown glossary is one 404", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const csv = await setup.file("terms.csv", ["name", "Revenue"]);
    const guid = "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f";
    const service = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--resume",
    );
    assert.equal(service.code, 2);
    assert.match(service.stderr, /--resume applies to --mode=batches only/);
    const batches = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
      "--poll-ms=100",
    );
    assert.equal(batches.code, 2);
    assert.match(batches.stderr, /--poll-ms applies to the service's import/);
    assert.equal(setup.requests(), 0);
    const unknown = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404/);
    assert.equal(setup.writes(), 0);
  });
});

Deno.test("import-terms --dry-run reports what either mode would do and changes nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup);
    await setup.catalog.glossary.createTerm({
      name: "Cost",
      longDescription: "What we spend",
      anchor: { glossaryGuid: guid },
    });
    await setup.catalog.glossary.createTerm({ name: "Margin", anchor: { glossaryGuid: guid } });
    const csv = await setup.file("terms.csv", [
      "name,definition",
      "Revenue,Money in",
      "Cost,What we spend",
      "Margin,New",
    ]);
    const writes = setup.writes();
    const service = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--dry-run",
    );
    assert.equal(service.code, 0, service.stderr);
    assert.deepEqual([service.json.wouldCreate, service.json.wouldUpdate, service.json.wouldSkip], [1, 2, 0]);
    const batches = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${guid}`,
      "--mode=batches",
      "--dry-run",
    );
    assert.equal(batches.code, 0, batches.stderr);
    assert.deepEqual([batches.json.wouldCreate, batches.json.wouldUpdate, batches.json.wouldSkip], [1, 1, 1]);
    assert.deepEqual(batches.json.preview[0], {
      lines: [2],
      action: "create",
      name: "Revenue",
      longDescription: "Money in",
    });
    assert.equal(setup.writes(), writes, "dry runs only read");
    assert.equal((await termsOf(setup, guid)).size, 2);
    assert.equal(await exists(`${csv}.govcat-checkpoint`), false);
  });
});

Deno.test("import-terms: the glossary-terms sample imports cleanly with the service's import and in batches", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const csv = await setup.file("sample.csv", sampleCsvLines(glossaryTerms).join("\n"));
    const names = glossaryTerms.sample.map((row) => row[0]).sort();
    const viaService = await glossary(setup, "Service");
    const service = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${viaService}`,
      "--poll-ms=50",
    );
    assert.equal(service.code, 0, service.stderr);
    assert.equal(service.json.status, "Succeeded");
    assert.deepEqual([...(await termsOf(setup, viaService)).keys()].sort(), names);
    const inBatches = await glossary(setup, "Batches");
    const batches = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${inBatches}`,
      "--mode=batches",
    );
    assert.equal(batches.code, 0, batches.stderr);
    assert.deepEqual([batches.json.created, batches.json.rejected], [names.length, 0]);
    const [a, b] = [await termsOf(setup, viaService), await termsOf(setup, inBatches)];
    for (const name of names) {
      for (
        const field of [
          "longDescription",
          "shortDescription",
          "status",
          "examples",
          "nickName",
          "abbreviation",
          "usage",
          "resources",
        ] as const
      ) {
        assert.deepEqual(
          b.get(name)![field],
          a.get(name)![field],
          `${name}.${field}: both modes write the same`,
        );
      }
    }
  });
});
