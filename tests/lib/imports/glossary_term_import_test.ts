/**
 * `glossary import-terms` against the emulator: the service's import (the default) refusing a bad file
 * before uploading it; `--mode=batches` on the bulk engine creating, updating and skipping terms, a
 * refused row split out into the reject file with the service's answer, a stopped run resumed; dry runs
 * of both modes; options of the other mode refused; the template's sample in both modes.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { ImportInterruptedError, runBulkImport } from "../../../lib/csv/engine.ts";
import { glossaryTerms } from "../../../lib/templates/csv/glossary_templates.ts";
import { sampleCsvLines } from "../../../lib/templates/csv/mod.ts";
import { batchTermsTemplate } from "../../../lib/imports/glossary_csv.ts";
import { glossaryTermImport } from "../../../lib/imports/glossary_term_import.ts";
import { exists } from "../../support/file_exists.ts";
import {
  type ImportRun,
  type ImportSetup,
  readCsvRecords,
  withImportSetup,
} from "../../support/import_setup.ts";

const HEADER = "name,description,short_description,status,definition,examples,acronym,resources";

/** A new glossary holding `terms`; returns its guid. */
async function glossary(
  setup: ImportSetup,
  terms: Array<{ name: string; longDescription?: string }> = [],
  name = "Finance",
): Promise<string> {
  const guid = (await setup.catalog.glossary.create({ name })).guid!;
  for (const term of terms) {
    await setup.catalog.glossary.createTerm({ ...term, anchor: { glossaryGuid: guid } });
  }
  return guid;
}

async function termsOf(setup: ImportSetup, glossaryGuid: string) {
  const terms = await setup.catalog.glossary.listTerms(glossaryGuid);
  return new Map(terms.map((term) => [term.name!, term]));
}

/** `govcat glossary import-terms` of `csv` into glossary `guid`, plus the options a test varies. */
function importTerms(
  setup: ImportSetup,
  csv: string,
  guid: string,
  ...options: string[]
): Promise<ImportRun> {
  return setup.govcat("glossary", "import-terms", `--csv-file=${csv}`, `--glossary-guid=${guid}`, ...options);
}

/** Asserts the exit code (showing stderr when it differs) and the summary's counts named in `counts`. */
function assertSummary(run: ImportRun, code: number, counts: Record<string, number>): void {
  assert.equal(run.code, code, run.stderr);
  assert.deepEqual(Object.fromEntries(Object.keys(counts).map((key) => [key, run.json?.[key]])), counts);
}

/** Asserts a usage refusal (exit 2) whose message matches `message`. */
function assertRefused(run: ImportRun, message: RegExp): void {
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, message);
}

Deno.test("import-terms --mode=batches creates, updates and skips; running it again changes nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup, [
      { name: "Cost", longDescription: "Old words" },
      { name: "Margin", longDescription: "Revenue minus cost" },
    ]);
    const csv = await setup.file("terms.csv", [
      HEADER,
      "Revenue,,Money in,approved,Income from sales,Q1 revenue;Q2 revenue,REV,Wiki:https://w.example/r",
      "Cost,What we spend,,Draft,,,,",
      "Margin,,,,Revenue minus cost,,,",
      '"Profit, net",Revenue minus all costs,,,,,,https://p.example/profit',
    ]);
    const run = await importTerms(setup, csv, guid, "--mode=batches");
    assertSummary(run, 0, { rows: 4, created: 2, updated: 1, skipped: 1, rejected: 0 });
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
    assertSummary(await importTerms(setup, csv, guid, "--mode=batches"), 0, {
      created: 0,
      updated: 0,
      skipped: 4,
    });
    assert.equal(setup.writes(), writes, "nothing was written the second time");

    // --skip-existing leaves an existing term alone even when the row differs.
    const changed = await setup.file("changed.csv", [HEADER, "Cost,Changed,,,,,,"]);
    const skipped = await importTerms(setup, changed, guid, "--mode=batches", "--skip-existing");
    assertSummary(skipped, 0, { skipped: 1, updated: 0 });
    assert.equal((await termsOf(setup, guid)).get("Cost")!.longDescription, "What we spend");
  });
});

Deno.test("import-terms --mode=batches: refused rows go to the reject file with the service's answer", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup, [{ name: "Cost" }]);
    const existing = (await termsOf(setup, guid)).get("Cost")!;
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
    const run = await importTerms(setup, csv, guid, "--mode=batches", "--concurrency=1");
    assertSummary(run, 1, { rows: 5, created: 3, updated: 0, rejected: 2 });
    const rejects = await readCsvRecords(run.json.errorsFile);
    assert.deepEqual(rejects.map((r) => [r.name, r.source_line]), [["Alpha", "2"], ["Cost", "6"]]);
    assert.match(rejects[0].import_error, /^400 /);
    assert.match(rejects[1].import_error, /^409 /);
    assert.deepEqual([...(await termsOf(setup, guid)).keys()].sort(), ["Beta", "Cost", "Delta", "Gamma"]);

    // The reject file imports on its own once the service takes the rows.
    assertSummary(await importTerms(setup, run.json.errorsFile, guid, "--mode=batches"), 0, {
      created: 1,
      updated: 1,
    });
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
      const run = await importTerms(setup, bad, guid, ...mode);
      assertRefused(run, /bad\.csv has 5 problems; nothing was sent/);
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
    assertRefused(
      await importTerms(setup, relations, guid, "--mode=batches"),
      /relations\.csv:2:2: column synonyms: only the service's import reads this column/,
    );
    assert.equal(setup.requests(), 0, "nothing was sent");
  });
});

Deno.test("import-terms: options of the other mode are refused; an unknown glossary is one 404", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const csv = await setup.file("terms.csv", ["name", "Revenue"]);
    const guid = "9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f";
    assertRefused(await importTerms(setup, csv, guid, "--resume"), /--resume applies to --mode=batches only/);
    assertRefused(
      await importTerms(setup, csv, guid, "--restart"),
      /--restart applies to --mode=batches only/,
    );
    assertRefused(
      await importTerms(setup, csv, guid, "--mode=batches", "--poll-ms=100"),
      /--poll-ms applies to the service's import/,
    );
    assert.equal(setup.requests(), 0);
    const unknown = await importTerms(setup, csv, guid, "--mode=batches");
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404/);
    assert.equal(setup.writes(), 0);
  });
});

Deno.test("import-terms --dry-run reports what either mode would do and changes nothing", async () => {
  await withImportSetup({ seed: false }, async (setup) => {
    const guid = await glossary(setup, [{ name: "Cost", longDescription: "What we spend" }, {
      name: "Margin",
    }]);
    const csv = await setup.file("terms.csv", [
      "name,definition",
      "Revenue,Money in",
      "Cost,What we spend",
      "Margin,New",
    ]);
    const writes = setup.writes();
    const service = await importTerms(setup, csv, guid, "--dry-run");
    assertSummary(service, 0, { wouldCreate: 1, wouldUpdate: 2, wouldSkip: 0 });
    const batches = await importTerms(setup, csv, guid, "--mode=batches", "--dry-run");
    assertSummary(batches, 0, { wouldCreate: 1, wouldUpdate: 1, wouldSkip: 1 });
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
    const viaService = await glossary(setup, [], "Service");
    const service = await importTerms(setup, csv, viaService, "--poll-ms=50");
    assert.equal(service.code, 0, service.stderr);
    assert.equal(service.json.status, "Succeeded");
    assert.deepEqual([...(await termsOf(setup, viaService)).keys()].sort(), names);
    const inBatches = await glossary(setup, [], "Batches");
    assertSummary(await importTerms(setup, csv, inBatches, "--mode=batches"), 0, {
      created: names.length,
      rejected: 0,
    });
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
