/**
 * The daily command line's rules, end to end (govcat as a subprocess, no terminal, against the seeded
 * emulator): destructive commands need --confirm, options in any of their spellings, enum values in any
 * letter case, and GUID options that refuse anything else before a request is sent.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, withCliSetup } from "../support/cli_harness.ts";

const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";

Deno.test("entity delete without a terminal needs --confirm: exit 2 and the entity stays; with it, deleted", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    await assertRefusedLocally(
      setup,
      /error: entity delete guid=ca7a1000-0000-4000-8000-000000000010 is destructive: refusing to run it without --confirm, as there is no terminal to ask on; nothing was sent\.\nhint: Add --confirm to go ahead\./,
      ["entity", "delete", `--guid=${CUSTOMERS}`],
    );
    assert.equal((await setup.client.entity.get(CUSTOMERS)).entity.status, "ACTIVE");

    const deleted = await setup.govcat("entity", "delete", `--guid=${CUSTOMERS}`, "--confirm");
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.json.mutatedEntities.DELETE[0].guid, CUSTOMERS);
    assert.equal((await setup.client.entity.get(CUSTOMERS)).entity.status, "DELETED");

    // Its help says so.
    const help = await setup.govcatText("entity", "delete", "--help");
    assert.match(help.stdout, /--confirm +Go ahead without asking/);
    assert.match(help.stdout, /asks before it runs \(y\/N\) on a terminal; --confirm skips the question/);
  });
});

Deno.test("options in snake case and enum values in lower case work like the documented spellings", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const glossary = await setup.govcat("glossary", "create", "--name=Finance");
    assert.equal(glossary.code, 0, glossary.stderr);
    const term = await setup.govcat(
      "glossary",
      "create-term",
      `--glossary_guid=${glossary.json.guid}`,
      "--name=Revenue",
      "--status=approved",
    );
    assert.equal(term.code, 0, term.stderr);
    assert.equal(term.json.status, "Approved");
    assert.equal(term.json.anchor.glossaryGuid, glossary.json.guid);

    const lineage = await setup.govcat(
      "lineage",
      "get",
      `--guid=${CUSTOMERS}`,
      "--direction=input",
      "--depth=1",
    );
    assert.equal(lineage.code, 0, lineage.stderr);
    assert.equal(lineage.json.lineageDirection, "INPUT");

    await assertRefusedLocally(
      setup,
      /--direction: must be one of INPUT, OUTPUT, BOTH \(any letter case\), not "sideways"/,
      ["lineage", "get", `--guid=${CUSTOMERS}`, "--direction=sideways"],
    );
  });
});

Deno.test("a GUID option given something else exits 2 naming it and the form; the emulator gets no request", async () => {
  await withCliSetup({ seed: true }, async (setup) => {
    const form = "must be a GUID \\(8-4-4-4-12 hexadecimal digits, e\\.g\\. [0-9a-f-]{36}\\)";
    for (
      const [args, option] of [
        [["entity", "get", "--guid=Customers"], "guid"],
        [["glossary", "read-term", "--term_guid=1234"], "term-guid"],
        [["uc", "term", "get", "--term-id=not-a-term"], "term-id"],
        [["entity", "get-many", `--guid=${CUSTOMERS}`, "--guid=-1"], "guid"],
        [["entity", "delete", "--guid=..", "--confirm"], "guid"],
      ] as const
    ) {
      await assertRefusedLocally(setup, new RegExp(`--${option}: ${form}, not "`), args);
    }
    // A GUID in capitals is a GUID.
    const upper = await setup.govcat("entity", "get", `--guid=${CUSTOMERS.toUpperCase()}`);
    assert.notEqual(upper.code, 2, upper.stderr);
  });
});
