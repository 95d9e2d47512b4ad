/**
 * Search and list results carry `resource_link` items to the entity and term resources the server serves,
 * after the JSON text and at most MAX_RESOURCE_LINKS of them; a link's URI reads the entity or term it
 * names. Through a real SDK client over streamable HTTP, against the emulator.
 */
import assert from "node:assert/strict";
import { MAX_RESOURCE_LINKS } from "../../../lib/mcp/resource_links.ts";
import { type McpClient, resultJson, startHarness } from "../../support/mcp_harness.ts";

type Content = Array<Record<string, unknown>>;

async function call(client: McpClient, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  assert.ok(!result.isError, JSON.stringify(result.content));
  const content = result.content as Content;
  return {
    json: resultJson(result),
    structured: result.structuredContent as Record<string, unknown>,
    first: content[0],
    links: content.filter((item) => item.type === "resource_link"),
  };
}

/** The JSON text of a resource. */
async function read(client: McpClient, uri: string): Promise<Record<string, unknown>> {
  const { contents } = await client.readResource({ uri });
  assert.equal(contents[0].uri, uri);
  return JSON.parse(String((contents[0] as { text?: string }).text));
}

Deno.test("search_entities, search_suggest and search_browse link each entity found; a link reads it", async () => {
  const h = await startHarness();
  try {
    const search = await call(h.client, "search_entities", { query: "*", limit: 5 });
    assert.equal(search.first.type, "text", "the JSON text first");
    const hits = search.json.results as Array<Record<string, string>>;
    assert.ok(hits.length > 0);
    assert.deepEqual(search.structured, search.json, "structuredContent holds no links");
    assert.deepEqual(
      search.links.map((link) => link.uri),
      hits.map((hit) => `govcat://entity/${hit.guid}`),
    );
    const [link] = search.links;
    assert.equal(link.name, hits[0].name);
    assert.equal(link.title, `${hits[0].name} (${hits[0].entity_type})`);
    assert.equal(link.description, hits[0].qualified_name);
    assert.equal(link.mimeType, "application/json");
    const entity = (await read(h.client, String(link.uri))).entity as Record<string, unknown>;
    assert.equal(entity.guid, hits[0].guid);

    const word = String(hits[0].name).slice(0, 3);
    const suggest = await call(h.client, "search_suggest", { keywords: word });
    const suggestions = suggest.json.suggestions as Array<Record<string, string>>;
    assert.ok(suggestions.length > 0);
    assert.deepEqual(suggest.links.map((l) => l.uri), suggestions.map((s) => `govcat://entity/${s.guid}`));

    const browse = await call(h.client, "search_browse", { entity_type: hits[0].entity_type });
    const items = (browse.json.items as Array<Record<string, string>>).filter((item) => item.guid);
    assert.ok(items.length > 0);
    assert.deepEqual(browse.links.map((l) => l.uri), items.map((item) => `govcat://entity/${item.guid}`));
  } finally {
    await h.close();
  }
});

Deno.test(`a page of more than ${MAX_RESOURCE_LINKS} hits carries the first ${MAX_RESOURCE_LINKS} links`, async () => {
  const h = await startHarness();
  try {
    const entities = Array.from({ length: MAX_RESOURCE_LINKS + 10 }, (_, i) => ({
      typeName: "DataSet",
      attributes: { qualifiedName: `links://many/${i}`, name: `linkmany ${i}` },
    }));
    await h.catalog.entity.createOrUpdateMany(entities);
    const search = await call(h.client, "search_entities", { query: "linkmany", limit: 100 });
    const hits = search.json.results as Array<Record<string, string>>;
    assert.equal(hits.length, MAX_RESOURCE_LINKS + 10, "every hit in the JSON");
    assert.deepEqual(
      search.links.map((l) => l.uri),
      hits.slice(0, MAX_RESOURCE_LINKS).map((hit) => `govcat://entity/${hit.guid}`),
    );
  } finally {
    await h.close();
  }
});

Deno.test("get_glossary_terms links each term; a link reads the term", async () => {
  const h = await startHarness();
  try {
    for (const name of ["Churn Rate", "Net Revenue"]) {
      await call(h.client, "create_glossary_term", { name, short_description: `About ${name}` });
    }
    const listed = await call(h.client, "get_glossary_terms", {});
    const terms = listed.json.terms as Array<Record<string, string>>;
    assert.ok(terms.length >= 2);
    assert.deepEqual(listed.structured, listed.json);
    assert.deepEqual(
      listed.links.map((l) => [l.uri, l.name]),
      terms.map((t) => [`govcat://glossary/term/${t.guid}`, t.name]),
    );
    const term = (await read(h.client, String(listed.links[0].uri))).term as Record<string, unknown>;
    assert.equal(term.guid, terms[0].guid);
    assert.equal(term.name, terms[0].name);
  } finally {
    await h.close();
  }
});

Deno.test("get_lineage links each node of the graph, data sets and processes", async () => {
  const h = await startHarness();
  try {
    // The seed's Products table and its monthly revenue report, neither with lineage of its own.
    const [source, target] = ["ca7a1000-0000-4000-8000-000000000030", "ca7a1000-0000-4000-8000-000000000060"];
    await call(h.client, "create_lineage", {
      source_guids: [source],
      target_guids: [target],
      process_name: "links_copy",
    });
    const lineage = await call(h.client, "get_lineage", { guid: source, direction: "downstream" });
    const nodes = lineage.json.nodes as Array<{ guid: string; name?: string }>;
    assert.equal(nodes.length, 3, "source, process, target");
    assert.deepEqual(lineage.links.map((l) => l.uri), nodes.map((n) => `govcat://entity/${n.guid}`));
    const process = lineage.links.find((l) => l.name === "links_copy");
    assert.ok(process, "the process is linked too");
    assert.equal(process.title, "links_copy (Process)");
  } finally {
    await h.close();
  }
});

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** The content kinds of a search_entities result, posted raw to `url`. */
async function contentKinds(url: string, headers: Record<string, string>): Promise<string[]> {
  const answer = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "search_entities", arguments: { query: "*", limit: 3 } },
    }),
  });
  const text = await answer.text();
  const result = [...text.matchAll(/^data: (.+)$/gm)].map(([, data]) => JSON.parse(data))
    .find((message) => message.id === 7)?.result;
  assert.ok(result && !result.isError, text);
  return result.content.map((item: { type: string }) => item.type);
}

Deno.test("a session of a revision before 2025-06-18 gets no resource_link items; the revision is the session's or the header's", async () => {
  const h = await startHarness({ noClient: true });
  try {
    const url = `${h.baseUrl}/mcp`;
    const cases: Array<[string, string[]]> = [["2025-03-26", ["text"]], ["2025-06-18", [
      "text",
      "resource_link",
    ]]];
    for (const [version, kinds] of cases) {
      const opened = await fetch(url, {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      });
      await opened.text();
      // No MCP-Protocol-Version header: the session's own revision decides.
      const session = { "mcp-session-id": opened.headers.get("mcp-session-id")! };
      assert.deepEqual([...new Set(await contentKinds(url, session))], kinds, version);
    }
  } finally {
    await h.close();
  }
  const hosted = await startHarness({ mode: "hosted", noClient: true });
  try {
    const url = `${hosted.baseUrl}/api/mcp`;
    assert.deepEqual(await contentKinds(url, { "mcp-protocol-version": "2025-03-26" }), ["text"]);
    assert.deepEqual(await contentKinds(url, {}), ["text"], "no header: 2025-03-26, as the transports say");
    assert.deepEqual(
      [...new Set(await contentKinds(url, { "mcp-protocol-version": "2025-11-25" }))],
      ["text", "resource_link"],
    );
  } finally {
    await hosted.close();
  }
});
