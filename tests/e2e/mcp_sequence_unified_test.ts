/**
 * Typical sequence 2, run start to finish by an MCP client against `govcat serve --emulator`
 * over streamable HTTP: uc_list_domains, uc_create_domain, uc_create_term, assign_term_to_entities.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startServe } from "../support/serve_process.ts";

/** The seeded Customers table. */
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";

Deno.test("sequence 2: list domains, create a domain, create a term in it, assign the term", async () => {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator", "--transport=http", "--port=0"]);
  const client = new Client({ name: "sequence-uc-test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      assert.ok(!result.isError, `${name} failed: ${JSON.stringify(result.content)}`);
      return result.structuredContent as Record<string, unknown>;
    };

    const domains = await call("uc_list_domains", {});
    const existing = (domains.domains as Array<{ id: string; name?: string }>).find((d) =>
      d.name === "Customer Analytics"
    );
    assert.equal(existing, undefined, "the emulator starts without this domain");

    const domain = await call("uc_create_domain", {
      name: "Customer Analytics",
      description: "Customer data and its measures",
      type: "dataDomain",
    });
    const domainId = String(domain.id);
    assert.match(domainId, /^[0-9a-f-]{36}$/);
    const listed = await call("uc_list_domains", {});
    assert.ok((listed.domains as Array<{ id: string }>).some((d) => d.id === domainId));

    const term = await call("uc_create_term", {
      name: "Customer Lifetime Value",
      domain_id: domainId,
      description: "Net revenue expected from a customer over the whole relationship",
      acronyms: ["CLV"],
    });
    assert.equal(term.domain_id, domainId);
    assert.equal(term.status, "DRAFT");
    const inDomain = await call("uc_list_terms", { domain_id: domainId });
    assert.deepEqual((inDomain.terms as Array<{ id: string }>).map((t) => t.id), [term.id]);

    // The unified catalog term and the classic glossary term are separate resources in Purview:
    // assign_term_to_entities tags assets with a classic glossary term (by its GUID), so the term is also
    // defined, under the same name, in the classic glossary, and that term is assigned to the asset.
    const glossaryTerm = await call("create_glossary_term", {
      name: "Customer Lifetime Value",
      short_description: "Net revenue expected from a customer over the whole relationship",
      abbreviation: "CLV",
    });
    const glossaryTermGuid = String(glossaryTerm.guid);
    assert.notEqual(glossaryTermGuid, term.id);

    const assigned = await call("assign_term_to_entities", {
      term_guid: glossaryTermGuid,
      entity_guids: [CUSTOMERS],
    });
    assert.equal(assigned.assigned, 1);
    assert.equal(assigned.failed, 0);
    const again = await call("assign_term_to_entities", {
      term_guid: glossaryTermGuid,
      entity_guids: [CUSTOMERS],
    });
    assert.equal(again.already_assigned, 1, "repeating the assignment is harmless");

    const customers = await call("get_entity", { guid: CUSTOMERS, min_ext_info: true });
    const meanings = (customers.entity as { terms?: Array<{ guid: string }> }).terms ?? [];
    assert.ok(meanings.some((m) => m.guid === glossaryTermGuid), JSON.stringify(meanings));
  } finally {
    await client.close();
    await server.stop();
  }
});
