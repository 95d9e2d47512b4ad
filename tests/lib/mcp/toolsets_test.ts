/**
 * The toolset table (lib/mcp/toolsets.ts) and the selection by toolsets (tool_selection.ts): every tool in
 * exactly one set, unknown set names refused with a suggestion, and a narrowing that never widens.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { ConfigError } from "../../../lib/core/errors.ts";
import { narrowSelection, selectTools } from "../../../lib/mcp/tool_selection.ts";
import { TOOLSET_NAMES, TOOLSET_OF, toolsetOf, TOOLSETS } from "../../../lib/mcp/toolsets.ts";
import { ALL_TOOLS } from "../../../lib/mcp/tools/mod.ts";

const names = (tools: ReadonlyArray<{ name: string }>) => tools.map((tool) => tool.name);

Deno.test("every tool of ALL_TOOLS is in exactly one toolset, and the table names no other tool", () => {
  const missing = names(ALL_TOOLS).filter((name) => toolsetOf(name) === undefined);
  assert.deepEqual(
    missing,
    [],
    `Tools without a toolset: ${missing.join(", ")}. Add each to TOOLSET_OF in lib/mcp/toolsets.ts ` +
      `(toolsets: ${TOOLSET_NAMES.join(", ")}), then run deno task docs (docs/tools.md lists the toolsets).`,
  );
  const stale = Object.keys(TOOLSET_OF).filter((name) => !names(ALL_TOOLS).includes(name));
  assert.deepEqual(stale, [], `TOOLSET_OF names tools that do not exist: ${stale.join(", ")}.`);
  // One key per tool in an object literal: a tool is in one set by construction; each set is used.
  for (const set of TOOLSET_NAMES) {
    assert.ok(Object.values(TOOLSET_OF).includes(set), `toolset ${set} has no tool`);
  }
  assert.equal(new Set(TOOLSET_NAMES).size, TOOLSETS.length, "toolset names are distinct");
});

Deno.test("CATALOG_MCP_TOOLSETS: sets in table order; all, default and empty mean every set", () => {
  const base = { CATALOG_ACCOUNT_NAME: "contoso" };
  assert.deepEqual(
    loadConfig({ ...base, CATALOG_MCP_TOOLSETS: " Search , glossary" }).mcpToolsets,
    ["search", "glossary"],
  );
  for (const every of ["", "all", "default", "search,all"]) {
    assert.equal(loadConfig({ ...base, CATALOG_MCP_TOOLSETS: every }).mcpToolsets, undefined, every);
  }
  assert.equal(loadConfig(base).mcpDynamicToolsets, false);
  assert.equal(loadConfig({ ...base, CATALOG_MCP_DYNAMIC_TOOLSETS: "true" }).mcpDynamicToolsets, true);
});

Deno.test("an unknown toolset is a configuration error with a suggestion (exit code 2)", () => {
  assert.throws(
    () => loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_MCP_TOOLSETS: "search,glosary" }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.exitCode, 2);
      assert.equal(error.variable, "CATALOG_MCP_TOOLSETS");
      assert.match(error.message, /"glosary" is not a toolset\. Did you mean "glossary"\?/);
      assert.match(error.message, /Toolsets: entities, search, glossary/);
      return true;
    },
  );
});

Deno.test("selectTools keeps only the toolsets' tools, with read-only mode and the allow/deny list", () => {
  const all = [...ALL_TOOLS];
  const glossary = selectTools(all, { readOnly: false, toolsets: ["glossary"] });
  assert.deepEqual(names(glossary.enabled), [
    "get_glossary_terms",
    "create_glossary_term",
    "assign_term_to_entities",
  ]);
  assert.match(
    glossary.disabled.get("get_entity")!,
    /in toolset "entities", which this server does not serve/,
  );
  const readOnly = selectTools(all, { readOnly: true, toolsets: ["glossary", "operations"] });
  assert.deepEqual(names(readOnly.enabled), [
    "get_glossary_terms",
    "list_available_operations",
    "invoke_operation",
  ]);
  assert.equal(readOnly.enabled[2].annotations.readOnlyHint, true, "invoke_operation narrowed to reads");
  const denied = selectTools(all, {
    readOnly: false,
    toolsets: ["glossary"],
    toolsSpec: "-create_glossary_term",
  });
  assert.deepEqual(names(denied.enabled), ["get_glossary_terms", "assign_term_to_entities"]);
});

Deno.test("an allow list naming a tool outside the toolsets is a configuration error, not an empty server", () => {
  assert.throws(
    () => selectTools([...ALL_TOOLS], { readOnly: false, toolsets: ["search"], toolsSpec: "get_entity" }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /CATALOG_MCP_TOOLS allows get_entity, which is in toolset "entities"/.test(error.message) &&
      /serves only search/.test(error.message),
  );
});

Deno.test("narrowSelection keeps only sets the server serves: a request cannot widen", () => {
  const server = selectTools([...ALL_TOOLS], { readOnly: true, toolsets: ["search", "types"] });
  const narrowed = narrowSelection(server, ["glossary", "types"], "the X-MCP-Toolsets header");
  assert.deepEqual(names(narrowed.enabled), ["get_typedef", "list_typedefs"]);
  assert.deepEqual(narrowed.toolsets, ["types"]);
  assert.match(narrowed.disabled.get("search_entities")!, /X-MCP-Toolsets header: types/);
  // Read-only mode still holds: the narrowed selection is drawn from the server's own.
  assert.ok(
    !names(narrowSelection(server, ["search"], "x").enabled).some((name) => name.startsWith("create")),
  );
  assert.deepEqual(names(narrowSelection(server, ["glossary"], "x").enabled), []);
});
