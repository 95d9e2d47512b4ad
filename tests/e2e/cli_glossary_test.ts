/**
 * The `glossary` commands, run as a subprocess against the emulator: every command's happy
 * path and an error path — an unknown GUID exits 1 with the 404 and a hint; a bad payload or CSV exits 2
 * naming the file and line, and nothing reaches the catalog.
 */
import assert from "node:assert/strict";
import {
  assertNotFound,
  assertRefusedLocally,
  type CliSetup,
  type CliSetupOptions,
  withCliSetup,
} from "../support/cli_harness.ts";

const UNKNOWN = "00000000-0000-4000-8000-00000000dead";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";

const SETUP: CliSetupOptions = {
  seed: true,
  prefix: "govcat-glossary-",
  // An unknown glossary GUID points to `glossary list`, not to search.
  notFoundHint: /hint: Check the GUID: "govcat glossary list" lists the glossaries/,
};

/** Runs a command that must succeed and returns its JSON. */
async function ok(setup: CliSetup, ...args: string[]) {
  const result = await setup.govcat(...args);
  assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
  return result.json;
}

Deno.test("glossary create, read (list), put, read-detailed and delete", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const finance = await ok(
      setup,
      "glossary",
      "create",
      "--name=Finance",
      "--description=Money words",
      "--language=en",
    );
    assert.equal(finance.longDescription, "Money words");
    const payload = await setup.file("banking.json", { name: "Ignored", usage: "Lending" });
    const banking = await ok(setup, "glossary", "create", `--payload-file=${payload}`, "--name=Banking");
    assert.equal(banking.name, "Banking", "options override the file");
    assert.equal(banking.usage, "Lending");

    const listed = await ok(setup, "glossary", "list");
    // With the glossary "Glossary" every new account has.
    // Beside the account's default glossary and the seed's Retail Glossary.
    assert.deepEqual(listed.map((g: { name: string }) => g.name), [
      "Banking",
      "Finance",
      "Glossary",
      "Retail Glossary",
    ]);
    assert.deepEqual(
      (await ok(setup, "glossary", "read", "--limit=1", "--offset=2", "--sort=DESC")).map((
        g: { name: string },
      ) => g.name),
      ["Finance"],
      "after Retail Glossary and Glossary",
    );
    assert.equal((await ok(setup, "glossary", "read", `--glossary-guid=${finance.guid}`)).language, "en");

    const put = await ok(
      setup,
      "glossary",
      "put",
      "--confirm",
      `--glossary-guid=${finance.guid}`,
      "--usage=Reporting",
    );
    assert.equal(put.usage, "Reporting");
    assert.equal(put.longDescription, "Money words", "without a payload file the current glossary is kept");
    assert.equal(put.lastModifiedTS, "2");
    const detailed = await ok(setup, "glossary", "read-detailed", `--glossary-guid=${finance.guid}`);
    assert.deepEqual(detailed.termInfo, {});
    assert.deepEqual(await ok(setup, "glossary", "delete", "--confirm", `--glossary-guid=${banking.guid}`), {
      glossaryGuid: banking.guid,
      deleted: true,
    });

    const duplicate = await setup.govcat("glossary", "create", "--name=Finance");
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /status: 409 ATLAS-409-00-007/);
    await assertRefusedLocally(setup, /glossary create needs --name/, [
      "glossary",
      "create",
      "--description=x",
    ]);
    const broken = await setup.file("broken.json", "{");
    await assertRefusedLocally(setup, /broken\.json is not valid JSON/, [
      "glossary",
      "create",
      `--payload-file=${broken}`,
    ]);
    await assertRefusedLocally(setup, /glossary put needs --payload-file or/, [
      "glossary",
      "put",
      "--confirm",
      `--glossary-guid=${finance.guid}`,
    ]);
    await assertRefusedLocally(setup, /--sort: /, ["glossary", "read", "--sort=UP"]);
    await assertNotFound(setup, ["glossary", "read", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "put", "--confirm", `--glossary-guid=${UNKNOWN}`, "--usage=x"]);
    await assertNotFound(setup, ["glossary", "read-detailed", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "delete", "--confirm", `--glossary-guid=${UNKNOWN}`]);
  });
});

Deno.test("glossary category commands", async () => {
  await withCliSetup(SETUP, async (setup) => {
    // The glossary every new account has.
    const listed = await ok(setup, "glossary", "list");
    const glossary = listed.find((g: { name: string }) => g.name === "Glossary").guid;
    const term = await ok(setup, "glossary", "create-term", `--glossary-guid=${glossary}`, "--name=Revenue");
    const top = await ok(
      setup,
      "glossary",
      "create-category",
      `--glossary-guid=${glossary}`,
      "--name=Finance",
      "--description=Money",
    );
    assert.equal(top.longDescription, "Money");
    const child = await ok(
      setup,
      "glossary",
      "create-category",
      `--glossary-guid=${glossary}`,
      "--name=KPIs",
      `--parent-category-guid=${top.guid}`,
    );
    assert.equal(child.qualifiedName, "KPIs.Finance@Glossary");
    const many = await setup.file("categories.json", [
      { name: "Tax", terms: [{ termGuid: term.guid }] },
      { name: "Audit", anchor: { glossaryGuid: glossary } },
    ]);
    const created = await ok(
      setup,
      "glossary",
      "create-categories",
      `--payload-file=${many}`,
      `--glossary-guid=${glossary}`,
    );
    const tax = created[0];
    assert.deepEqual(created.map((c: { name: string }) => c.name), ["Tax", "Audit"]);

    assert.equal((await ok(setup, "glossary", "read-categories", `--glossary-guid=${glossary}`)).length, 4);
    const headers = await ok(
      setup,
      "glossary",
      "read-categories-headers",
      `--glossary-guid=${glossary}`,
      "--limit=2",
    );
    assert.deepEqual(headers.map((h: { displayText: string }) => h.displayText), ["Audit", "Finance"]);
    assert.equal(
      (await ok(setup, "glossary", "read-category", `--category-guid=${top.guid}`)).childrenCategories[0]
        .categoryGuid,
      child.guid,
    );
    assert.equal(
      (await ok(setup, "glossary", "read-category-related", `--category-guid=${child.guid}`)).parent[0]
        .categoryGuid,
      top.guid,
    );
    assert.equal(
      (await ok(setup, "glossary", "read-category-terms", `--category-guid=${tax.guid}`))[0].termGuid,
      term.guid,
    );
    const put = await ok(
      setup,
      "glossary",
      "put-category",
      "--confirm",
      `--category-guid=${tax.guid}`,
      "--short-description=Taxes",
    );
    assert.equal(put.shortDescription, "Taxes");
    assert.equal(put.terms[0].termGuid, term.guid, "the current category's terms are kept");
    assert.deepEqual(
      await ok(setup, "glossary", "delete-category", "--confirm", `--category-guid=${tax.guid}`),
      {
        categoryGuid: tax.guid,
        deleted: true,
      },
    );

    await assertRefusedLocally(setup, /create-category needs --glossary-guid/, [
      "glossary",
      "create-category",
      "--name=X",
    ]);
    const notArray = await setup.file("one.json", { name: "X" });
    await assertRefusedLocally(setup, /one\.json has the wrong shape: expected a JSON array/, [
      "glossary",
      "create-categories",
      `--payload-file=${notArray}`,
    ]);
    const unanchored = await setup.file("unanchored.json", [{ name: "X" }]);
    await assertRefusedLocally(
      setup,
      /create-categories needs --glossary-guid \(not found in .*unanchored\.json\)/,
      ["glossary", "create-categories", `--payload-file=${unanchored}`],
    );
    await assertNotFound(setup, ["glossary", "read-categories", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-categories-headers", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-category", `--category-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-category-related", `--category-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-category-terms", `--category-guid=${UNKNOWN}`]);
    await assertNotFound(setup, [
      "glossary",
      "put-category",
      "--confirm",
      `--category-guid=${UNKNOWN}`,
      "--name=X",
    ]);
    await assertNotFound(setup, ["glossary", "delete-category", "--confirm", `--category-guid=${UNKNOWN}`]);
  });
});

Deno.test("glossary term commands", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const glossary = (await ok(setup, "glossary", "create", "--name=Finance")).guid;
    const revenue = await ok(
      setup,
      "glossary",
      "create-term",
      `--glossary-guid=${glossary}`,
      "--name=Revenue",
      "--definition=Money in",
      "--status=Approved",
      "--examples=Q1",
      "--examples=Q2",
    );
    assert.equal(revenue.longDescription, "Money in");
    assert.deepEqual(revenue.examples, ["Q1", "Q2"]);
    const terms = await setup.file("terms.json", [
      { name: "Income", synonyms: [{ termGuid: revenue.guid }] },
      { name: "Net revenue", hierarchyInfo: [{ guid: revenue.guid }] },
    ]);
    const created = await ok(
      setup,
      "glossary",
      "create-terms",
      `--payload-file=${terms}`,
      `--glossary-guid=${glossary}`,
      "--include-term-hierarchy",
    );
    assert.equal(created[1].hierarchyInfo[0].guid, revenue.guid);
    const income = created[0];

    const listed = await ok(
      setup,
      "glossary",
      "list-terms",
      `--glossary-guid=${glossary}`,
      "--limit=2",
      "--offset=1",
      "--ext-info",
    );
    assert.deepEqual(listed.map((t: { name: string }) => t.name), ["Net revenue", "Revenue"]);
    const readTerms = await ok(
      setup,
      "glossary",
      "read-terms",
      `--glossary-guid=${glossary}`,
      "--include-term-hierarchy",
    );
    assert.equal(
      readTerms.find((t: { name: string }) => t.name === "Net revenue").hierarchyInfo[0].name,
      "Revenue",
    );
    const headers = await ok(setup, "glossary", "read-terms-headers", `--glossary-guid=${glossary}`);
    assert.deepEqual(headers.map((h: { displayText: string }) => h.displayText), [
      "Income",
      "Net revenue",
      "Revenue",
    ]);
    assert.equal(
      (await ok(setup, "glossary", "read-term", `--term-guid=${revenue.guid}`)).synonyms[0].termGuid,
      income.guid,
    );
    assert.deepEqual(
      Object.keys(await ok(setup, "glossary", "read-terms-related", `--term-guid=${income.guid}`)),
      ["synonyms"],
    );
    await ok(
      setup,
      "glossary",
      "assign_terms",
      `--csv-file=${await setup.file("a.csv", `term_guid,entity_guid\n${revenue.guid},${CUSTOMERS}\n`)}`,
    );
    const assigned = await ok(
      setup,
      "glossary",
      "read-terms-assigned-entities",
      `--term-guid=${revenue.guid}`,
    );
    assert.deepEqual(assigned.map((e: { guid: string }) => e.guid), [CUSTOMERS]);

    const put = await ok(
      setup,
      "glossary",
      "put-term",
      "--confirm",
      `--term-guid=${income.guid}`,
      "--status=Alert",
    );
    assert.equal(put.status, "Alert");
    assert.equal(put.synonyms[0].termGuid, revenue.guid, "the current term's relations are kept");
    const refused = await setup.govcat("glossary", "delete-term", "--confirm", `--term-guid=${revenue.guid}`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /status: 400 ATLAS-400-00-086/);
    assert.deepEqual(await ok(setup, "glossary", "delete-term", "--confirm", `--term-guid=${income.guid}`), {
      termGuid: income.guid,
      deleted: true,
    });

    await assertRefusedLocally(setup, /--status: /, [
      "glossary",
      "create-term",
      `--glossary-guid=${glossary}`,
      "--name=X",
      "--status=Pending",
    ]);
    await assertRefusedLocally(setup, /create-term needs --name/, [
      "glossary",
      "create-term",
      `--glossary-guid=${glossary}`,
    ]);
    const nameless = await setup.file("nameless.json", [{ anchor: { glossaryGuid: glossary } }]);
    await assertRefusedLocally(setup, /create-terms needs --name \(not found in .*nameless\.json\)/, [
      "glossary",
      "create-terms",
      `--payload-file=${nameless}`,
    ]);
    await assertRefusedLocally(setup, /put-term needs --payload-file or/, [
      "glossary",
      "put-term",
      "--confirm",
      `--term-guid=${income.guid}`,
    ]);
    await assertRefusedLocally(setup, /missing required option --glossary-guid/, ["glossary", "list-terms"]);
    await assertNotFound(setup, ["glossary", "list-terms", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-terms-headers", `--glossary-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-term", `--term-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-terms-assigned-entities", `--term-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "read-terms-related", `--term-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "put-term", "--confirm", `--term-guid=${UNKNOWN}`, "--name=X"]);
    await assertNotFound(setup, ["glossary", "delete-term", "--confirm", `--term-guid=${UNKNOWN}`]);
    await assertNotFound(setup, ["glossary", "create-term", `--glossary-guid=${UNKNOWN}`, "--name=X"]);
  });
});

Deno.test("glossary import-terms polls the import to Succeeded; read-terms-import; failures", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const glossary = (await ok(setup, "glossary", "create", "--name=Finance")).guid;
    const csv = await setup.file(
      "terms.csv",
      "name,description,short_description,status,definition,examples\n" +
        "Revenue,,Money in,Approved,Income from sales,Q1 revenue;Q2 revenue\n" +
        "Cost,What we spend,,draft,,\n",
    );
    const result = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${glossary}`,
      "--poll-ms=50",
      "--progress",
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.json.status, "Succeeded");
    assert.equal(result.json.properties.importedTerms, "2");
    // Progress goes to the progress sink: plain lines on stderr with --progress (nothing without it).
    assert.match(result.stderr, /^validating: 2 rows/m);
    const terms = await ok(setup, "glossary", "list-terms", `--glossary-guid=${glossary}`);
    const revenue = terms.find((t: { name: string }) => t.name === "Revenue");
    assert.equal(revenue.longDescription, "Income from sales");
    assert.equal(revenue.shortDescription, "Money in");
    assert.deepEqual(revenue.examples, ["Q1 revenue", "Q2 revenue"]);
    assert.equal(terms.find((t: { name: string }) => t.name === "Cost").longDescription, "What we spend");
    const status = await ok(setup, "glossary", "read-terms-import", `--operation-id=${result.json.id}`);
    assert.equal(status.status, "Succeeded");

    // The same file in resumable batches: every term is there already and holds the row.
    const batches = await ok(
      setup,
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${glossary}`,
      "--mode=batches",
    );
    assert.deepEqual([batches.rows, batches.skipped, batches.created], [2, 2, 0]);

    const unknownSynonym = await setup.file("synonym.csv", "Name,Synonyms\nProfit,Nope\n");
    const failed = await setup.govcat(
      "glossary",
      "import-terms",
      `--csv-file=${unknownSynonym}`,
      `--glossary-guid=${glossary}`,
      "--poll-ms=50",
    );
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(
      failed.stderr,
      /failed: Glossary import failed: .*line 2: synonyms names an unknown term "Nope"/,
    );

    const bad = await setup.file("bad.csv", "Name,Status\nGood,Approved\n,Draft\nOdd,Pending\nGood,\n");
    await assertRefusedLocally(
      setup,
      /bad\.csv has 3 problems; nothing was sent:\n.*bad\.csv:3:1: column Name: a value is required.*\n.*bad\.csv:4:2: column Status: "Pending" is not one of Draft, Approved, Alert, Expired.*\n.*bad\.csv:5:1: column Name: "Good" is also on line 2/,
      ["glossary", "import-terms", `--csv-file=${bad}`, `--glossary-guid=${glossary}`],
    );
    const noName = await setup.file("noname.csv", "Title,Status\nA,Draft\n");
    await assertRefusedLocally(setup, /noname\.csv:1: the header has no name column/, [
      "glossary",
      "import-terms",
      `--csv-file=${noName}`,
      `--glossary-guid=${glossary}`,
    ]);
    const unclosed = await setup.file("unclosed.csv", 'Name\nA\n"B\n');
    await assertRefusedLocally(setup, /unclosed\.csv:3:1: unbalanced quote/, [
      "glossary",
      "import-terms",
      `--csv-file=${unclosed}`,
      `--glossary-guid=${glossary}`,
    ]);
    await assertRefusedLocally(setup, /nope\.csv: no such file/, [
      "glossary",
      "import-terms",
      `--csv-file=${setup.dir}/nope.csv`,
      `--glossary-guid=${glossary}`,
    ]);
    await assertNotFound(setup, [
      "glossary",
      "import-terms",
      `--csv-file=${csv}`,
      `--glossary-guid=${UNKNOWN}`,
    ]);
    // An unknown import operation points to where its id comes from (lib/core/error_hints.ts).
    await assertNotFound({
      ...setup,
      notFoundHint: /hint: Check the operation id: `govcat glossary import-terms`/,
    }, [
      "glossary",
      "read-terms-import",
      `--operation-id=${UNKNOWN}`,
    ]);
  });
});

Deno.test("glossary assign_terms: rows checked first, grouped per term, one bad row rejected alone", async () => {
  await withCliSetup(SETUP, async (setup) => {
    const glossary = (await ok(setup, "glossary", "create", "--name=Finance")).guid;
    const revenue =
      (await ok(setup, "glossary", "create-term", `--glossary-guid=${glossary}`, "--name=Revenue")).guid;
    const cost =
      (await ok(setup, "glossary", "create-term", `--glossary-guid=${glossary}`, "--name=Cost")).guid;
    const csv = await setup.file(
      "assign.csv",
      `term_guid,entity_guid\n${revenue},${CUSTOMERS}\n${cost},${ORDERS}\n${revenue},${UNKNOWN}\n${revenue},${ORDERS}\n`,
    );
    // A row the service refused makes the command fail (exit 1), after printing the whole summary.
    const run = await setup.govcatText("glossary", "assign_terms", `--csv-file=${csv}`);
    assert.equal(run.code, 1, run.stderr);
    const summary = JSON.parse(run.stdout);
    assert.deepEqual([summary.rows, summary.created, summary.rejected, summary.failed], [4, 3, 1, 1]);
    const rejected = await Deno.readTextFile(summary.errorsFile);
    assert.match(rejected, /^term_guid,entity_guid,source_line,import_error\r?\n/);
    assert.match(rejected, new RegExp(`${revenue},${UNKNOWN},4,404 ATLAS-404-00-005`));
    const assigned = await ok(setup, "glossary", "read-terms-assigned-entities", `--term-guid=${revenue}`);
    assert.deepEqual(assigned.map((e: { guid: string }) => e.guid).sort(), [CUSTOMERS, ORDERS]);

    const bad = await setup.file(
      "bad.csv",
      `term_guid,entity_guid\n${revenue},not-a-guid\n${revenue},${CUSTOMERS}\n${revenue},${CUSTOMERS.toUpperCase()}\n`,
    );
    await assertRefusedLocally(
      setup,
      /bad\.csv has 2 problems; nothing was sent:\n.*bad\.csv:2:2: column entity_guid: "not-a-guid" is not a GUID.*\n.*bad\.csv:4:1: column term_guid: .* is also on line 3/,
      ["glossary", "assign_terms", `--csv-file=${bad}`],
    );
    const columns = await setup.file("columns.csv", `term,entity\n${revenue},${CUSTOMERS}\n`);
    await assertRefusedLocally(setup, /columns\.csv:1: the header has no term_guid column/, [
      "glossary",
      "assign_terms",
      `--csv-file=${columns}`,
    ]);
    const empty = await setup.file("empty.csv", "term_guid,entity_guid\n");
    await assertRefusedLocally(setup, /empty\.csv has a header but no rows/, [
      "glossary",
      "assign-terms",
      `--csv-file=${empty}`,
    ]);
  });
});
