/**
 * list_available_operations is an index by default (a lean result): per category each
 * operation's id, one-line summary and kind, under a documented bound; input schemas come for one
 * category or one operation on request. Before: 147 KB unfiltered, every input schema included.
 */
import assert from "node:assert/strict";
import { offeredOverMcp, OPERATION_INDEX_BOUND_BYTES } from "../../../lib/mcp/tools/registry_tools.ts";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { resultJson, startHarness } from "../../support/mcp_harness.ts";

type Category = {
  name: string;
  operations?: Array<Record<string, unknown>>;
  read?: Record<string, string>;
  write?: Record<string, string>;
  destructive?: Record<string, string>;
};
type Listing = { detail: string; categories: Category[] };
const KINDS = ["read", "write", "destructive"] as const;

Deno.test("list_available_operations: the default listing is an index under its bound, schemas on request", async () => {
  const h = await startHarness();
  try {
    const call = (args: Record<string, unknown>) =>
      h.client.callTool({ name: "list_available_operations", arguments: args });
    const index = await call({});
    assert.ok(!index.isError, JSON.stringify(index.content));
    const text = (index.content as Array<{ text: string }>)[0].text;
    const bytes = new TextEncoder().encode(text).length;
    console.log(`list_available_operations index: ${bytes} bytes`);
    assert.ok(bytes < OPERATION_INDEX_BOUND_BYTES, `index is ${bytes} bytes`);
    assert.ok(OPERATION_INDEX_BOUND_BYTES <= 25_000);
    const listing = index.structuredContent as Listing;
    assert.equal(listing.detail, "index");
    // Every operation offered over MCP is in the index once, under its kind, with a one-line summary.
    const entries = listing.categories.flatMap((c) =>
      KINDS.flatMap((kind) =>
        Object.entries(c[kind] ?? {}).map(([name, summary]) => ({ name, summary, kind }))
      )
    );
    assert.ok(listing.categories.every((c) => !c.operations), "no schemas in the index");
    const offered = createOperationRegistry().all().filter(offeredOverMcp);
    assert.deepEqual(entries.map((e) => e.name).sort(), offered.map((op) => op.id).sort());
    for (const entry of entries) {
      assert.ok(entry.summary.length > 0 && !entry.summary.includes("\n"), entry.name);
    }
    // As the registry grows, the index stays under its bound by shortening every summary a step (and says
    // to how many characters), never by leaving an operation out.
    const limit = (index.structuredContent as { summariesShortenedTo?: number }).summariesShortenedTo;
    if (limit !== undefined) {
      assert.ok(entries.every((e) => e.summary.length <= limit), `a summary over ${limit} characters`);
      assert.ok(entries.some((e) => e.summary.endsWith("…")), "nothing was shortened");
    }
    const kind = (id: string) => entries.find((e) => e.name === id)?.kind;
    assert.equal(kind("entity.get"), "read");
    assert.equal(kind("entity.delete"), "destructive");
    assert.equal(kind("entity.create"), "destructive"); // overwrites with --if-exists=update
    assert.equal(kind("glossary.create"), "write");

    // One category: its operations with input schemas and annotations (the category argument as before).
    const entity = (await call({ category: "entity" })).structuredContent as Listing;
    assert.equal(entity.detail, "schemas");
    assert.deepEqual(entity.categories.map((c) => c.name), ["entity"]);
    const get = entity.categories[0].operations!.find((op) => op.name === "entity.get")!;
    assert.ok("guid" in (get.inputSchema as { properties: object }).properties);
    assert.equal((get.annotations as { readOnlyHint: boolean }).readOnlyHint, true);
    const entityIndex = (await call({ category: "entity", detail: "index" })).structuredContent as Listing;
    assert.equal(entityIndex.categories.length, 1);
    assert.equal(entityIndex.categories[0].operations, undefined);
    assert.equal(entityIndex.categories[0].destructive?.["entity.delete"] !== undefined, true);

    // One operation, by id or command form.
    for (const operation of ["entity.delete", "entity delete"]) {
      const one = (await call({ operation })).structuredContent as Listing;
      const ops = one.categories.flatMap((c) => c.operations ?? []);
      assert.deepEqual(ops.map((op) => op.name), ["entity.delete"]);
      assert.ok("confirm" in (ops[0].inputSchema as { properties: object }).properties);
      assert.equal(ops[0].kind, "destructive");
    }
    // Each schema is reachable: the per-category listings together hold every offered operation's schema.
    let withSchemas = 0;
    for (const { name } of listing.categories) {
      const full = (await call({ category: name })).structuredContent as Listing;
      withSchemas += full.categories[0].operations!.filter((op) => op.inputSchema).length;
    }
    assert.equal(withSchemas, entries.length);

    // All schemas at once is refused with the way to get them; an unknown operation gets a suggestion.
    const all = await call({ detail: "schemas" });
    assert.equal(all.isError, true);
    assert.match(String(resultJson(all).message), /needs a category or an operation/);
    const typo = await call({ operation: "entity.gett" });
    assert.equal(typo.isError, true);
    assert.match(String(resultJson(typo).message), /Did you mean "entity.get"/);
    const secret = await call({ operation: "account.list-keys" });
    assert.equal(secret.isError, true, "an operation not offered over MCP is not described either");
  } finally {
    await h.close();
  }
});

Deno.test("list_available_operations offers only what invoke_operation runs: no profile or config operation", async () => {
  const h = await startHarness();
  try {
    const call = (name: string, args: Record<string, unknown>) =>
      h.client.callTool({ name, arguments: args });
    const index = (await call("list_available_operations", {})).structuredContent as Listing;
    const names = index.categories.flatMap((c) => KINDS.flatMap((kind) => Object.keys(c[kind] ?? {})));
    const cliOnly = createOperationRegistry().all().filter((op) => op.annotations.commandLineOnly);
    assert.deepEqual(cliOnly.map((op) => op.group).filter((g, i, all) => all.indexOf(g) === i).sort(), [
      "config",
      "profile",
    ]);
    assert.deepEqual(names.filter((name) => /^(profile|config)\./.test(name)), [], "listed, then refused");
    assert.ok(!index.categories.some((c) => c.name === "profile" || c.name === "config"));
    const refused = await call("invoke_operation", { operation: "profile.list_profiles", arguments: {} });
    assert.equal(refused.isError, true);
    const text = (refused.content as Array<{ text: string }>)[0].text;
    assert.match(text, /connection profiles.*not offered over MCP/);
    assert.match(text, /govcat profile list_profiles/);
  } finally {
    await h.close();
  }
});
