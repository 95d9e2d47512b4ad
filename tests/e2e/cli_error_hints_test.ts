/**
 * End-to-end: refusals of the real emulator over HTTP carry hints that fit the command and the cause
 * (`lib/core/error_hints.ts`), for the cases once seen pointing the wrong way — a 404 of `uc term delete` or
 * `types delete` suggesting search, a 409 of `uc domain delete` or `types createTypeDefs` saying "read it
 * again" — and a term still assigned to entities, whose hint names `glossary unassign-term` on the command
 * line and the operation id over MCP.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { resultJson, startHarness } from "../support/mcp_harness.ts";
import { type ProcessResult, runGovcat } from "../support/govcat_process.ts";

const MISSING = "6f1d2a44-0000-4000-8000-000000000404";
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const ORDERS = "ca7a1000-0000-4000-8000-000000000020";

interface Setup {
  emulator: RunningEmulator;
  client: CatalogClient;
  dir: string;
  govcat(...args: string[]): Promise<ProcessResult>;
}

/** A seeded emulator serving both APIs, govcat run against it, and a temporary directory. */
async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: true });
  const env = {
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
  };
  const dir = await Deno.makeTempDir({ prefix: "govcat-hints-" });
  try {
    await test({
      emulator,
      client: CatalogClient.fromConfig(loadConfig(env), { retryBaseMs: 5 }),
      dir,
      govcat: (...args) => runGovcat(args, env),
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
    await emulator.close();
  }
}

/** A run that must succeed; its JSON. */
// deno-lint-ignore no-explicit-any
async function ok(setup: Setup, ...args: string[]): Promise<any> {
  const result = await setup.govcat(...args);
  assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** A run the service refused with `status`: exit 1, nothing on stdout; its hint line. */
async function refusedHint(setup: Setup, status: number, ...args: string[]): Promise<string> {
  const result = await setup.govcat(...args);
  assert.equal(result.code, 1, `${args.join(" ")}: ${result.stderr}`);
  assert.match(result.stderr, new RegExp(`^status: ${status}\\b`, "m"), args.join(" "));
  assert.equal(result.stdout, "");
  const hint = /^hint: (.*)$/m.exec(result.stderr)?.[1];
  assert.ok(hint, `${args.join(" ")} gives a hint: ${result.stderr}`);
  return hint;
}

Deno.test("hints: a 404 of uc term delete and of types delete names the list command, not search", async () => {
  await withSetup(async (setup) => {
    const term = await refusedHint(setup, 404, "uc", "term", "delete", `--term-id=${MISSING}`, "--confirm");
    assert.match(term, /`govcat uc term query --keyword=…`.*`govcat uc term list --domain-id=…`/);
    assert.doesNotMatch(term, /search_entities|search query/);

    const type = await refusedHint(setup, 404, "types", "delete", "--confirm", "--name=NoSuchType");
    assert.match(type, /Check the type name: `govcat types list-headers`/);
    assert.doesNotMatch(type, /search_entities|search query/);
  });
});

Deno.test("hints: a 409 of uc domain delete (it has terms) and of createTypeDefs (it exists) says what to do", async () => {
  await withSetup(async (setup) => {
    const domain = await ok(setup, "uc", "domain", "create", "--name=Finance");
    for (const name of ["Revenue", "Cost"]) {
      await ok(setup, "uc", "term", "create", `--name=${name}`, `--domain-id=${domain.id}`);
    }
    const full = await refusedHint(
      setup,
      409,
      "uc",
      "domain",
      "delete",
      `--domain-id=${domain.id}`,
      "--confirm",
    );
    assert.match(full, /delete them or move them to another domain first/);
    assert.match(full, /`govcat uc term list --domain-id=…`/);
    assert.doesNotMatch(full, /read it again/);

    const payload = `${setup.dir}/types.json`;
    await Deno.writeTextFile(
      payload,
      JSON.stringify({
        businessMetadataDefs: [{
          name: "Stewardship",
          category: "BUSINESS_METADATA",
          attributeDefs: [{
            name: "owner",
            typeName: "string",
            isOptional: true,
            cardinality: "SINGLE",
            options: { applicableEntityTypes: '["DataSet"]', maxStrLength: "50" },
          }],
        }],
      }),
    );
    await ok(setup, "types", "createTypeDefs", `--payload-file=${payload}`);
    const again = await refusedHint(setup, 409, "types", "createTypeDefs", `--payload-file=${payload}`);
    assert.match(again, /exists already: change it with `govcat types updateTypeDefs --payload-file=…`/);
    assert.doesNotMatch(again, /read it again/);
  });
});

Deno.test("hints: deleting an assigned term (or its glossary) names unassign-term; an unknown term the glossary lists", async () => {
  await withSetup(async (setup) => {
    const glossary = (await ok(setup, "glossary", "create", "--name=Finance")).guid;
    const term =
      (await ok(setup, "glossary", "create-term", `--glossary-guid=${glossary}`, "--name=Revenue")).guid;
    await setup.client.glossary.assignTermToEntities(term, [{ guid: CUSTOMERS }, { guid: ORDERS }]);

    for (
      const args of [
        ["delete-term", `--term-guid=${term}`, "--confirm"],
        ["delete", `--glossary-guid=${glossary}`, "--confirm"],
      ]
    ) {
      const hint = await refusedHint(setup, 400, "glossary", ...args);
      assert.match(hint, /`govcat glossary unassign-term --term-guid=… --entity-guids=…`/, args[0]);
      assert.match(hint, /invoke_operation glossary\.unassign-term/, args[0]);
      assert.doesNotMatch(hint, /request body/, args[0]);
    }

    // An unknown term: the glossary's not-found hint, from the lookup of its assignments.
    const unknown = await refusedHint(
      setup,
      404,
      "glossary",
      "unassign-term",
      "--confirm",
      `--term-guid=${MISSING}`,
      `--entity-guids=${ORDERS}`,
    );
    assert.match(unknown, /govcat glossary read-terms-headers/);
    // An unknown entity to assign: the entity search hint, not the glossary's.
    const entity = await setup.client.glossary.assignTermToEntities(term, [{ guid: MISSING }]).catch((e) =>
      e
    );
    assert.match(entity.hint, /search_entities/);
  });
});

Deno.test("hints over MCP: invoke_operation's refusal of an assigned term names the operation id", async () => {
  const harness = await startHarness();
  try {
    const glossary = harness.catalog.glossary;
    const glossaryGuid = (await glossary.create({ name: "Finance" })).guid!;
    const term = (await glossary.createTerm({ name: "Revenue", anchor: { glossaryGuid } })).guid!;
    await glossary.assignTermToEntities(term, [{ guid: CUSTOMERS }]);

    const refused = await harness.client.callTool({
      name: "invoke_operation",
      arguments: { operation: "glossary.delete-term", arguments: { termGuid: term, confirm: true } },
    });
    assert.equal(refused.isError, true);
    const body = resultJson(refused);
    assert.equal(body.status, 400);
    assert.equal(body.code, "ATLAS-400-00-086");
    assert.match(String(body.hint), /invoke_operation glossary\.unassign-term/);
  } finally {
    await harness.close();
  }
});
