/**
 * One definition per capability: a curated tool is built from the operations that do its
 * work, so its hints are theirs, and no tool module reaches the catalog but through an operation. The
 * lists of exceptions below shrank to nothing while the tools were migrated; a new tool is built from an
 * operation, or the test names it.
 */
import assert from "node:assert/strict";
import { createOperationRegistry } from "../../../lib/operations/mod.ts";
import { composedHints, operationTool } from "../../../lib/mcp/tool_operation.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";
import { getAccount } from "../../../lib/operations/account_operations.ts";
import { deleteEntity } from "../../../lib/operations/entity_operations.ts";
import { z } from "../../../lib/deps/zod.ts";
import { UsageError } from "../../../lib/core/errors.ts";
import type { ToolServices } from "../../../lib/mcp/tool.ts";

/** The registry tools: they run whichever operation they are given, and list the others. */
const REGISTRY_TOOLS = ["list_available_operations", "invoke_operation"];

/** Tools still written against the catalog client, to be built from operations: none. */
const NOT_YET_BUILT_FROM_OPERATIONS: ReadonlyArray<string> = [];

/** Modules under lib/mcp/tools/ that still call the catalog client: none. */
const MODULES_STILL_CALLING_THE_CLIENT: ReadonlyArray<string> = [];

const TOOLS_DIR = new URL("../../../lib/mcp/tools/", import.meta.url);

/** Ways a module reaches the catalog without an operation: the services' clients, the client classes, a client module. */
const DIRECT_CLIENT_USE = new RegExp(
  [
    String.raw`\.(catalog|unified)\(\)`,
    String.raw`\bnew (Unified)?CatalogClient\b`,
    String.raw`\bCatalogClient\.fromConfig\b`,
    // A value (not a type) from a module that sends requests.
    String.raw`^import (?!type )[^;]*from "\.\./\.\./(catalog|unified)/` +
    String.raw`(client|\w+_api|lineage_builder|resource|relationships|kinds|paging)\.ts"`,
  ].join("|"),
  "m",
);

Deno.test("every curated tool names the operations that do its work, and they are registered", () => {
  const registry = createOperationRegistry();
  const unbuilt = ALL_TOOLS.filter((tool) => !tool.operations).map((tool) => tool.name);
  assert.deepEqual(
    unbuilt.filter((name) => !REGISTRY_TOOLS.includes(name)).sort(),
    [...NOT_YET_BUILT_FROM_OPERATIONS].sort(),
    "a tool built from operations leaves NOT_YET_BUILT_FROM_OPERATIONS; a new tool is built from one",
  );
  for (const tool of ALL_TOOLS.filter((t) => t.operations)) {
    assert.ok(tool.operations!.length > 0, tool.name);
    for (const id of tool.operations!) {
      assert.ok(registry.get(id), `${tool.name} runs ${id}, which the CLI and invoke_operation must reach`);
    }
  }
});

Deno.test("a curated tool's hints are its operations' hints", () => {
  const registry = createOperationRegistry();
  for (const tool of ALL_TOOLS.filter((t) => t.operations)) {
    const operations = tool.operations!.map((id) => registry.get(id)!);
    assert.deepEqual(
      tool.annotations,
      composedHints(operations),
      `${tool.name}: hints of ${tool.operations}`,
    );
  }
});

Deno.test("a tool cannot carry hints of its own, and a destructive operation's tool asks for confirm", () => {
  const spec = {
    name: "probe_account",
    title: "Probe account",
    description: "A probe built from account.get, to show where its hints come from (never listed).",
    output: z.object({ account: z.record(z.string(), z.unknown()) }),
    operation: getAccount,
    view: (account: unknown) => ({ account: account as Record<string, unknown> }),
    // A hint smuggled in the spec is ignored: the operation decides.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  };
  const tool = operationTool(spec);
  assert.deepEqual(tool.annotations, {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  });
  const remover = operationTool({
    ...spec,
    name: "probe_delete",
    output: z.object({}),
    operation: deleteEntity,
    view: () => ({}),
  });
  assert.equal(remover.annotations.destructiveHint, true);
  assert.ok("confirm" in remover.input.shape, "the destructive operation's tool takes confirm");
});

Deno.test("no module under lib/mcp/tools/ calls the catalog client but the ones listed", async () => {
  const offenders: string[] = [];
  for await (const entry of Deno.readDir(TOOLS_DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, TOOLS_DIR));
    if (DIRECT_CLIENT_USE.test(source)) offenders.push(entry.name);
  }
  assert.deepEqual(
    offenders.sort(),
    [...MODULES_STILL_CALLING_THE_CLIENT].sort(),
    "a module that no longer calls the client leaves the list; no new module calls it",
  );
});

Deno.test("a tool that asks for no confirmation cannot run a destructive operation unconfirmed", async () => {
  const sent: string[] = [];
  const tool = operationTool({
    name: "probe_careless_delete",
    title: "Careless delete",
    description: "A probe that wrongly says it needs no confirmation, to show the operation still asks.",
    output: z.object({}),
    operation: deleteEntity,
    confirmWhen: () => false,
    view: () => ({}),
  });
  const services = {
    operationContext: () => ({
      catalog: () => {
        sent.push("catalog");
        throw new Error("nothing may be sent");
      },
    }),
  } as unknown as ToolServices;
  const refused = await tool.handler({ services }, { guid: "ca7a1000-0000-4000-8000-000000000010" })
    .then(() => undefined, (error) => error as Error);
  assert.ok(refused instanceof UsageError, String(refused));
  assert.match(refused.message, /^entity delete guid=ca7a1000-\S+ is destructive: .*nothing was sent\.$/);
  assert.deepEqual(sent, [], "the catalog was not reached");
});
