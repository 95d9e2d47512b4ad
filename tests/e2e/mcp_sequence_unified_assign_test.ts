/**
 * Typical sequence 2 exactly as the product lists it, by an MCP client against
 * `govcat serve --emulator` over streamable HTTP: uc_list_domains, uc_create_domain, uc_create_term, then
 * assign_term_to_entities with the unified catalog term's ID (no classic glossary term in between). The
 * term is related to the asset in the unified catalog (read back with uc.term-relationships); an unknown
 * asset fails alone; an ID that is no term at all is refused with a message naming where to find one.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startServe } from "../support/serve_process.ts";

/** The seeded Customers table. */
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";
const UNKNOWN = "0000dead-0000-4000-8000-000000000000";

Deno.test("sequence 2 as listed: uc_create_domain, uc_create_term, assign_term_to_entities(term id)", async () => {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator", "--transport=http", "--port=0"]);
  const client = new Client({ name: "sequence-uc-assign-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const raw = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await raw(name, args);
      assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, unknown>;
    };

    await call("uc_list_domains", {});
    const domain = await call("uc_create_domain", { name: "Customer Analytics", type: "dataDomain" });
    const term = await call("uc_create_term", {
      name: "Customer Lifetime Value",
      domain_id: String(domain.id),
    });
    const termId = String(term.id);

    const assigned = await call("assign_term_to_entities", {
      term_guid: termId,
      entity_guids: [CUSTOMERS, UNKNOWN],
    });
    assert.equal(assigned.term_kind, "unified_catalog");
    assert.deepEqual([assigned.assigned, assigned.already_assigned, assigned.failed], [1, 0, 1]);
    const results = assigned.results as Array<{ entity_guid: string; status: string; error?: string }>;
    assert.deepEqual(results.map((r) => [r.entity_guid, r.status]), [[CUSTOMERS, "assigned"], [
      UNKNOWN,
      "failed",
    ]]);
    assert.match(String(results[1].error), /^404/);

    const again = await call("assign_term_to_entities", { term_guid: termId, entity_guids: [CUSTOMERS] });
    assert.equal(again.already_assigned, 1, "repeating the assignment relates nothing twice");

    const links = await call("invoke_operation", {
      operation: "uc.term-relationships",
      arguments: { termId, entityType: "DATAASSET" },
    });
    const related = links.result as Array<{ entityId: string; relationshipType: string }>;
    assert.deepEqual(related.map((l) => [l.entityId, l.relationshipType]), [[CUSTOMERS, "Related"]]);

    const nothing = await raw("assign_term_to_entities", { term_guid: UNKNOWN, entity_guids: [CUSTOMERS] });
    assert.equal(nothing.isError, true);
    const text = JSON.stringify(nothing.content);
    assert.match(text, /neither a glossary term nor a unified catalog term/);
    assert.match(text, /uc_list_terms/);
  } finally {
    await client.close();
    await server.stop();
  }
});
