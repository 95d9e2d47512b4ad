/**
 * End-to-end tests of `govcat uc` refusals (local ones send nothing; the service's 404 exits 1), the
 * confirmation of destructive commands without a terminal, and `uc term import-csv`.
 */
import assert from "node:assert/strict";
import { notFound, ok, OWNER, refused, withUc } from "./cli_unified_support_test.ts";

const MISSING = "6f1d2a44-0000-4000-8000-000000000404";

Deno.test("uc refusals: missing domain, e-mail owner, unknown status, unknown ids, delete without --confirm", async () => {
  await withUc(async (setup) => {
    const domain = await ok(setup, "domain", "create", "--name=Finance");
    const d = `--domain-id=${domain.id}`;
    const term = await ok(setup, "term", "create", "--name=Revenue", d);

    // Missing domain: exit 2, nothing sent.
    await refused(setup, /uc term create needs --domain-id/, "term", "create", "--name=Orphan");
    await refused(setup, /needs --domain-id/, "dataproduct", "create", "--name=Orphan");
    await refused(setup, /needs --domain-id/, "cde", "create", "--name=Orphan");
    await refused(setup, /needs --domain-id/, "objective", "create", "--definition=Orphan");
    await refused(setup, /needs --domain-id/, "term", "hierarchy");
    // A domain that does not exist: the service refuses (exit 1), nothing was created.
    const unknownDomain = await setup.uc("term", "create", "--name=Lost", `--domain-id=${MISSING}`);
    assert.equal(unknownDomain.code, 1, unknownDomain.stderr);
    assert.match(unknownDomain.stderr, /domain/);

    // An e-mail as owner: the client's message, exit 2, nothing sent — on create and on update.
    const email =
      /owner_id\/contacts\.owner\[0\]\.id must be an identity-provider \(Entra ID\) object ID \(a GUID\), not an e-mail address/;
    await refused(setup, email, "term", "create", "--name=Cost", d, "--owner-id=ana@example.com");
    await refused(
      setup,
      email,
      "term",
      "update",
      "--confirm",
      `--term-id=${term.id}`,
      "--owner-id=ana@example.com",
    );
    await refused(setup, email, "dataproduct", "create", "--name=P", d, "--owner-id=ana@example.com");
    await refused(
      setup,
      email,
      "domain",
      "update",
      "--confirm",
      `--domain-id=${domain.id}`,
      "--owner-id=ana@example.com",
    );

    // An unknown status: exit 2, the allowed values, nothing sent.
    const status = /status must be one of DRAFT, PUBLISHED, EXPIRED \(any letter case\), not "approved"/;
    await refused(setup, status, "term", "create", "--name=Cost", d, "--status=approved");
    await refused(setup, status, "term", "update", "--confirm", `--term-id=${term.id}`, "--status=approved");
    await refused(
      setup,
      /Draft, Published, Closed/,
      "objective",
      "create",
      "--definition=X",
      d,
      "--status=expired",
    );
    await refused(
      setup,
      /NotTracked, OnTrack, Behind, AtRisk/,
      "keyresult",
      "update",
      "--confirm",
      `--objective-id=${MISSING}`,
      `--key-result-id=${MISSING}`,
      "--status=done",
    );
    await refused(setup, /Draft, Published, Expired/, "term", "query", "--status=approved");
    await refused(
      setup,
      /relationship-type must be one of Related, Synonym, Parent/,
      "term",
      "relationships",
      `--term-id=${term.id}`,
      "--relationship-type=antonym",
    );

    // Options and shapes the CLI refuses.
    await refused(
      setup,
      /needs --payload-file or at least one of/,
      "term",
      "update",
      "--confirm",
      `--term-id=${term.id}`,
    );
    await refused(setup, /in pairs/, "term", "create", "--name=X", d, "--resource-name=Wiki");
    await refused(setup, /missing required option --objective-id/, "keyresult", "list");

    // Unknown ids: exit 1 with the service's 404.
    await notFound(setup, "term", "get", `--term-id=${MISSING}`);
    await notFound(setup, "term", "update", "--confirm", `--term-id=${MISSING}`, "--description=x");
    await notFound(setup, "term", "delete", `--term-id=${MISSING}`, "--confirm");
    await notFound(setup, "term", "hierarchy", `--term-id=${MISSING}`);
    await notFound(setup, "term", "relationships", `--term-id=${MISSING}`);
    await notFound(setup, "domain", "get", `--domain-id=${MISSING}`);
    await notFound(setup, "dataproduct", "get", `--data-product-id=${MISSING}`);
    await notFound(setup, "cde", "get", `--cde-id=${MISSING}`);
    await notFound(setup, "objective", "get", `--objective-id=${MISSING}`);
    await notFound(setup, "keyresult", "list", `--objective-id=${MISSING}`);
    await notFound(setup, "policy", "get", `--policy-id=${MISSING}`);

    // Destructive commands without a terminal need --confirm: exit 2, nothing sent, the entity stays.
    const confirm =
      /uc \S+ delete\S* .*is destructive: refusing to run it without --confirm, as there is no terminal to ask on; nothing was sent/;
    await refused(setup, confirm, "term", "delete", `--term-id=${term.id}`);
    await refused(
      setup,
      confirm,
      "term",
      "delete-relationship",
      `--term-id=${term.id}`,
      `--entity-id=${MISSING}`,
    );
    await refused(setup, confirm, "domain", "delete", `--domain-id=${domain.id}`);
    await refused(setup, confirm, "dataproduct", "delete", `--data-product-id=${MISSING}`);
    await refused(setup, confirm, "cde", "delete", `--cde-id=${MISSING}`);
    await refused(setup, confirm, "objective", "delete", `--objective-id=${MISSING}`);
    await refused(
      setup,
      confirm,
      "keyresult",
      "delete",
      `--objective-id=${MISSING}`,
      `--key-result-id=${MISSING}`,
    );
    await refused(setup, confirm, "policy", "delete", `--policy-id=${MISSING}`);
    // Updates that overwrite are destructive too (one rule, read from the annotations).
    await refused(
      setup,
      /uc term update .*is destructive: refusing to run it without --confirm/,
      "term",
      "update",
      `--term-id=${term.id}`,
      "--description=changed",
    );
    assert.equal((await ok(setup, "term", "get", `--term-id=${term.id}`)).name, "Revenue");
    // An owner given as a GUID is fine.
    assert.equal(
      (await ok(setup, "term", "update", "--confirm", `--term-id=${term.id}`, `--owner-id=${OWNER}`)).contacts
        .owner[0].id,
      OWNER,
    );
  });
});

Deno.test("uc term import-csv: a good file, a bad file, --dry-run", async () => {
  await withUc(async (setup) => {
    const domain = await ok(setup, "domain", "create", "--name=Finance");
    const d = `--domain-id=${domain.id}`;
    const good = await setup.file(
      "good.csv",
      [
        "name,description,status,acronym,owner_id,resource_name,resource_url",
        `Revenue,Money in,published,REV;RV,${OWNER},Wiki;Policy,https://w.example/r;https://p.example/r`,
        `"Cost, total","Money out, all of it",,,,,`,
        "Margin,,Draft,,,,",
      ].join("\n"),
    );

    // --dry-run: checked and shown, nothing written (the domain and its terms are only read).
    const dry = await ok(setup, "term", "import-csv", `--csv-file=${good}`, d, "--dry-run");
    assert.equal(dry.dryRun, true);
    assert.equal(dry.wouldCreate, 3);
    assert.deepEqual(dry.preview.map((r: { lines: number[] }) => r.lines[0]), [2, 3, 4]);
    assert.deepEqual(dry.preview[0].acronyms, ["REV", "RV"]);
    assert.equal(dry.preview[0].status, "PUBLISHED");
    assert.deepEqual(await ok(setup, "term", "list", d), []);

    const done = await ok(setup, "term", "import-csv", `--csv-file=${good}`, d);
    assert.deepEqual([done.rows, done.created, done.failed], [3, 3, 0]);
    const terms = await ok(setup, "term", "list", d);
    const revenue = terms.find((t: { name: string }) => t.name === "Revenue");
    assert.deepEqual(revenue.resources, [
      { name: "Wiki", url: "https://w.example/r" },
      { name: "Policy", url: "https://p.example/r" },
    ]);
    assert.equal(revenue.contacts.owner[0].id, OWNER);
    assert.equal(terms.find((t: { name: string }) => t.name === "Margin").status, "DRAFT");
    assert.ok(terms.some((t: { name: string }) => t.name === "Cost, total"));
    // Again: every term is there and holds its row.
    const again = await ok(setup, "term", "import-csv", `--csv-file=${good}`, d);
    assert.deepEqual([again.created, again.skipped], [0, 3]);

    // A bad file: every problem with file:line:column, nothing sent.
    const bad = await setup.file(
      "bad.csv",
      [
        "name,status,owner_id,resource_name,resource_url",
        "Ok,draft,,,",
        "Cost,approved,,,",
        "Owner,draft,ana@example.com,,",
        ",draft,,,",
        "Ok,draft,,Wiki,",
      ].join("\n"),
    );
    const result = await refused(
      setup,
      /bad\.csv has 5 problems; nothing was sent/,
      "term",
      "import-csv",
      `--csv-file=${bad}`,
      d,
    );
    assert.match(
      result.stderr,
      /bad\.csv:3:2: column status: "approved" is not one of DRAFT, PUBLISHED, EXPIRED/,
    );
    assert.match(
      result.stderr,
      /bad\.csv:4:3: column owner_id: "ana@example\.com" is an e-mail address; owner_id takes Entra ID object IDs/,
    );
    assert.match(result.stderr, /bad\.csv:5:1: column name: a value is required/);
    assert.match(result.stderr, /bad\.csv:6:1: column name: "Ok" is also on line 2/);
    assert.match(
      result.stderr,
      /bad\.csv:6:5: column resource_url: 0 resource_url value\(s\) for 1 resource_name/,
    );
    // The same refusal on a dry run.
    await refused(
      setup,
      /bad\.csv:4:3: column owner_id/,
      "term",
      "import-csv",
      `--csv-file=${bad}`,
      d,
      "--dry-run",
    );
    const columns = await setup.file("columns.csv", "title,status\nX,draft\n");
    await refused(
      setup,
      /columns\.csv:1: the header \(title, status\) matches none of the templates/,
      "term",
      "import-csv",
      `--csv-file=${columns}`,
      d,
    );
    await refused(setup, /missing required option --domain-id/, "term", "import-csv", `--csv-file=${good}`);

    // An unknown domain: refused by the service before any row is created.
    const lost = await setup.uc(
      "term",
      "import-csv",
      `--csv-file=${good}`,
      `--domain-id=${crypto.randomUUID()}`,
    );
    assert.equal(lost.code, 1, lost.stderr);
    assert.match(lost.stderr, /404/);
  });
});
