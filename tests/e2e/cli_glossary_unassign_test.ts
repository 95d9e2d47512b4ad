/**
 * End-to-end: `glossary unassign-term` against the emulator over HTTP, on the command line and through
 * invoke_operation — assignments removed by entity GUID (their relationship GUIDs looked up), entities
 * without the term reported and not sent, a repeat harmless, the term deletable afterwards.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";
import { resultJson, startHarness } from "../support/mcp_harness.ts";

const MISSING = "6f1d2a44-0000-4000-8000-000000000404";
// Seeded assets the seed assigns no glossary term to, so the test's term is their only meaning.
const PRODUCTS = "ca7a1000-0000-4000-8000-000000000030";
const CUSTOMER_360 = "ca7a1000-0000-4000-8000-000000000061";

/** A run that must succeed; its JSON. */
// deno-lint-ignore no-explicit-any
async function ok(setup: CliSetup, ...args: string[]): Promise<any> {
  const result = await setup.govcat(...args);
  assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
  return result.json;
}

Deno.test("glossary unassign-term removes the assignments by entity GUID; then the term can be deleted", async () => {
  await withCliSetup({ seed: true, prefix: "govcat-unassign-" }, async (setup) => {
    const glossary = (await ok(setup, "glossary", "create", "--name=Finance")).guid;
    const term =
      (await ok(setup, "glossary", "create-term", `--glossary-guid=${glossary}`, "--name=Revenue")).guid;
    await setup.client.glossary.assignTermToEntities(term, [{ guid: PRODUCTS }, { guid: CUSTOMER_360 }]);
    const refused = await setup.govcat("glossary", "delete-term", "--confirm", `--term-guid=${term}`);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /status: 400 ATLAS-400-00-086/);

    // One entity that carries the term and one that does not: the other is reported, not sent.
    assert.deepEqual(
      await ok(
        setup,
        "glossary",
        "unassign-term",
        "--confirm",
        `--term-guid=${term}`,
        `--entity-guids=${PRODUCTS}`,
        `--entity-guids=${MISSING}`,
      ),
      { termGuid: term, removed: [PRODUCTS], notAssigned: [MISSING] },
    );
    const left = await setup.client.glossary.getTermAssignedEntities(term);
    assert.deepEqual(left.map((e) => e.guid), [CUSTOMER_360]);
    assert.deepEqual((await setup.client.entity.get(PRODUCTS)).entity.meanings ?? [], []);
    // A GUID in another letter case finds its assignment.
    assert.deepEqual(
      await ok(
        setup,
        "glossary",
        "unassign-term",
        "--confirm",
        `--term-guid=${term}`,
        `--entity-guids=${CUSTOMER_360.toUpperCase()}`,
      ),
      { termGuid: term, removed: [CUSTOMER_360], notAssigned: [] },
    );
    // Repeating it changes nothing and succeeds.
    const deletes = setup.requests("DELETE");
    assert.deepEqual(
      await ok(
        setup,
        "glossary",
        "unassign-term",
        "--confirm",
        `--term-guid=${term}`,
        `--entity-guids=${CUSTOMER_360}`,
      ),
      { termGuid: term, removed: [], notAssigned: [CUSTOMER_360] },
    );
    assert.equal(setup.requests("DELETE"), deletes, "nothing to remove, nothing sent");
    assert.deepEqual(await ok(setup, "glossary", "delete-term", "--confirm", `--term-guid=${term}`), {
      termGuid: term,
      deleted: true,
    });

    // An unknown term is the service's 404; a malformed GUID or no entity is refused before sending.
    const unknown = await setup.govcat(
      "glossary",
      "unassign-term",
      "--confirm",
      `--term-guid=${MISSING}`,
      `--entity-guids=${CUSTOMER_360}`,
    );
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /status: 404/);
    await assertRefusedLocally(setup, /--entity-guids: must be a GUID/, [
      "glossary",
      "unassign-term",
      "--confirm",
      `--term-guid=${term}`,
      "--entity-guids=orders",
    ]);
    await assertRefusedLocally(setup, /--entity-guids/, [
      "glossary",
      "unassign-term",
      "--confirm",
      `--term-guid=${term}`,
    ]);
  });
});

Deno.test("glossary.unassign-term over MCP: listed as destructive and idempotent, run by invoke_operation", async () => {
  const harness = await startHarness();
  try {
    const glossary = harness.catalog.glossary;
    const glossaryGuid = (await glossary.create({ name: "Finance" })).guid!;
    const term = (await glossary.createTerm({ name: "Revenue", anchor: { glossaryGuid } })).guid!;
    await glossary.assignTermToEntities(term, [{ guid: PRODUCTS }]);

    const listed = resultJson(
      await harness.client.callTool({
        name: "list_available_operations",
        arguments: { category: "glossary" },
      }),
    ) as { categories: Array<{ operations: Array<{ name: string; annotations: Record<string, boolean> }> }> };
    const unassign = listed.categories.flatMap((c) => c.operations).find((o) =>
      o.name === "glossary.unassign-term"
    );
    assert.deepEqual(unassign?.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });

    const done = await harness.client.callTool({
      name: "invoke_operation",
      arguments: {
        operation: "glossary.unassign-term",
        arguments: { termGuid: term, entityGuids: [PRODUCTS], confirm: true },
      },
    });
    assert.equal(done.isError, undefined, JSON.stringify(done));
    assert.deepEqual((resultJson(done) as { result: unknown }).result, {
      termGuid: term,
      removed: [PRODUCTS],
      notAssigned: [],
    });
    await glossary.deleteTerm(term);
  } finally {
    await harness.close();
  }
});
