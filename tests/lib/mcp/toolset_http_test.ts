/**
 * Toolsets per request on the HTTP transports (lib/mcp/toolset_scope.ts, http_app.ts): `/mcp/x/<set>` and
 * the `X-MCP-Toolsets` header narrow what a session lists and runs, with real SDK clients; and, as an
 * attacker would try it, neither can reach a toolset the server's configuration leaves out.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import type { HttpMode } from "../../../lib/mcp/http_app.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";
import { READER } from "../../support/entra_stand_in.ts";
import { startSignedInHarness } from "../../support/signed_in_harness.ts";

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const GLOSSARY = ["get_glossary_terms", "create_glossary_term", "assign_term_to_entities"];
const SEARCH = ["search_entities", "search_suggest", "search_browse"];

async function withApp(
  env: Record<string, string>,
  body: (harness: Harness) => Promise<void>,
  mode: HttpMode = "streamable-http",
): Promise<void> {
  const harness = await startHarness({ env, noClient: true, mode });
  try {
    await body(harness);
  } finally {
    await harness.close();
  }
}

/** The tool names a real SDK client lists at `path`, sending `headers`. */
async function listedAt(
  harness: Harness,
  path: string,
  headers: Record<string, string> = {},
  mode: HttpMode = "streamable-http",
): Promise<string[]> {
  const { Client, StreamableHTTPClientTransport, SSEClientTransport } = await loadMcpClientSdk();
  const client = new Client({ name: "toolsets-test", version: "1" });
  const url = new URL(path, harness.baseUrl);
  await client.connect(
    mode === "sse"
      ? new SSEClientTransport(url, { requestInit: { headers } })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers } }),
  );
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

async function refusal(response: Response): Promise<{ status: number; message: string }> {
  const body = await response.json();
  return { status: response.status, message: body.error?.message ?? "" };
}

const initAt = (harness: Harness, path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, harness.baseUrl), {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(INIT),
  });

Deno.test("streamable HTTP: /mcp/x/<set> and X-MCP-Toolsets narrow the session's tools", async () => {
  await withApp({}, async (harness) => {
    assert.deepEqual(await listedAt(harness, "/mcp/x/glossary"), GLOSSARY);
    assert.deepEqual(await listedAt(harness, "/mcp/x/GLOSSARY"), GLOSSARY, "set names in any case");
    assert.deepEqual(
      (await listedAt(harness, "/mcp", { "X-MCP-Toolsets": "search, glossary" })).sort(),
      [...GLOSSARY, ...SEARCH].sort(),
    );
    // Path and header together: the sets in both.
    assert.deepEqual(
      await listedAt(harness, "/mcp/x/search", { "X-MCP-Toolsets": "search,glossary" }),
      SEARCH,
    );
    assert.equal((await listedAt(harness, "/mcp/x/all")).length, (await listedAt(harness, "/mcp")).length);
  });
});

Deno.test("a narrowed session refuses a call to a tool outside its toolsets, saying why", async () => {
  await withApp({}, async (harness) => {
    const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
    const client = new Client({ name: "toolsets-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp/x/search", harness.baseUrl)));
    try {
      const result = await client.callTool({ name: "get_entity", arguments: { guid: "x" } });
      assert.equal(result.isError, true);
      assert.match(
        String(resultJson(result).message),
        /get_entity is in toolset "entities", which this server does not serve here \(the URL path \/mcp\/x\/search: search\)/,
      );
      const search = await client.callTool({ name: "search_entities", arguments: { query: "customer" } });
      assert.notEqual(search.isError, true);
    } finally {
      await client.close();
    }
  });
});

Deno.test("attacker: a server started with toolsets=search serves nothing else, by path or header", async () => {
  await withApp({ CATALOG_MCP_TOOLSETS: "search" }, async (harness) => {
    assert.deepEqual(await listedAt(harness, "/mcp"), SEARCH);
    assert.deepEqual(await listedAt(harness, "/mcp/x/all"), SEARCH, "all means all the server serves");
    assert.deepEqual(await listedAt(harness, "/mcp", { "X-MCP-Toolsets": "all" }), SEARCH);

    const byPath = await refusal(await initAt(harness, "/mcp/x/glossary"));
    assert.equal(byPath.status, 404);
    assert.match(byPath.message, /does not serve the toolset glossary, asked for by the URL path/);
    assert.match(byPath.message, /it serves search .*never widen/);
    for (const path of ["/mcp/x/Glossary", "/mcp/x/search/../glossary", "/mcp/x/%2E%2E/x/glossary"]) {
      const answer = await initAt(harness, path);
      assert.equal(answer.status, 404, path);
      await answer.body?.cancel();
    }
    const byHeader = await refusal(await initAt(harness, "/mcp", { "X-MCP-Toolsets": "search,glossary" }));
    assert.equal(byHeader.status, 400);
    assert.match(
      byHeader.message,
      /does not serve the toolset glossary, asked for by the X-MCP-Toolsets header/,
    );
    // Several sets in a path, an unknown set, a deeper path: refused, each saying what to do.
    const several = await refusal(await initAt(harness, "/mcp/x/search,glossary"));
    assert.equal(several.status, 404);
    assert.match(several.message, /names one toolset.*X-MCP-Toolsets header/);
    const unknown = await refusal(await initAt(harness, "/mcp/x/glosary"));
    assert.equal(unknown.status, 404);
    assert.match(unknown.message, /"glosary" is not a toolset\. Did you mean "glossary"\?/);
    const deeper = await refusal(await initAt(harness, "/mcp/x/search/readonly"));
    assert.equal(deeper.status, 404);
    const badHeader = await refusal(await initAt(harness, "/mcp", { "X-MCP-Toolsets": "serch" }));
    assert.equal(badHeader.status, 400);
    assert.match(
      badHeader.message,
      /X-MCP-Toolsets header is not valid: "serch" is not a toolset\. Did you mean "search"/,
    );
  });
});

Deno.test("a streamable session keeps the toolsets it started with; a request asking for others is refused", async () => {
  await withApp({}, async (harness) => {
    const started = await initAt(harness, "/mcp/x/glossary");
    assert.equal(started.status, 200);
    const sessionId = started.headers.get("mcp-session-id")!;
    await started.body?.cancel();
    const session = { ...HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    for (
      const [path, headers] of [["/mcp", {}], ["/mcp/x/search", {}], ["/mcp", {
        "X-MCP-Toolsets": "glossary,search",
      }]] as const
    ) {
      const answer = await refusal(
        await fetch(new URL(path, harness.baseUrl), {
          method: "POST",
          headers: { ...session, ...headers },
          body: JSON.stringify(list),
        }),
      );
      assert.equal(answer.status, 400, path);
      assert.match(answer.message, /started with toolsets glossary \(the URL path \/mcp\/x\/glossary\)/);
      assert.match(answer.message, /initialize a new session for other toolsets/);
    }
    const same = await fetch(new URL("/mcp/x/glossary", harness.baseUrl), {
      method: "POST",
      headers: session,
      body: JSON.stringify(list),
    });
    assert.equal(same.status, 200);
    const text = await same.text();
    assert.match(text, /"name":"get_glossary_terms"/);
    assert.doesNotMatch(text, /"name":"search_entities"/);
  });
});

Deno.test("hosted mode narrows per request: /api/mcp/x/<set> and the header", async () => {
  await withApp({ CATALOG_MCP_TOOLSETS: "search,glossary" }, async (harness) => {
    assert.deepEqual(await listedAt(harness, "/api/mcp/x/glossary"), GLOSSARY);
    assert.deepEqual(await listedAt(harness, "/api/mcp", { "X-MCP-Toolsets": "search" }), SEARCH);
    const refused = await refusal(await initAt(harness, "/api/mcp/x/entities"));
    assert.equal(refused.status, 404);
    assert.match(refused.message, /does not serve the toolset entities/);
  }, "hosted");
});

Deno.test("SSE: /sse/x/<set> and the header narrow the session opened", async () => {
  await withApp({}, async (harness) => {
    assert.deepEqual(await listedAt(harness, "/sse/x/glossary", {}, "sse"), GLOSSARY);
    assert.deepEqual(await listedAt(harness, "/sse", { "X-MCP-Toolsets": "search" }, "sse"), SEARCH);
  }, "sse");
});

Deno.test("dynamic mode at /mcp/x/<set>: only that set can be enabled", async () => {
  await withApp({ CATALOG_MCP_DYNAMIC_TOOLSETS: "true" }, async (harness) => {
    const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
    const client = new Client({ name: "toolsets-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp/x/lineage", harness.baseUrl)));
    try {
      const listed = resultJson(await client.callTool({ name: "list_available_toolsets", arguments: {} }));
      assert.deepEqual((listed.toolsets as Array<{ name: string }>).map((set) => set.name), ["lineage"]);
      const outside = await client.callTool({ name: "enable_toolset", arguments: { toolset: "entities" } });
      assert.equal(outside.isError, true);
      assert.match(
        String(resultJson(outside).message),
        /Toolset "entities" is not served by this server here/,
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("with sign-in, a toolset path is checked after the token: no token, no answer about toolsets", async () => {
  const harness = await startSignedInHarness();
  try {
    for (const path of ["/mcp/x/glossary", "/mcp/x/bogus"]) {
      const anonymous = await fetch(new URL(path, harness.baseUrl), {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify(INIT),
      });
      assert.equal(anonymous.status, 401, path);
      assert.doesNotMatch(await anonymous.text(), /toolset/);
    }
    const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
    const client = new Client({ name: "toolsets-test", version: "1" });
    const requestInit = { headers: { authorization: `Bearer ${await harness.authority.token(READER)}` } };
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp/x/glossary", harness.baseUrl), { requestInit }),
    );
    try {
      assert.deepEqual((await client.listTools()).tools.map((tool) => tool.name), GLOSSARY);
    } finally {
      await client.close();
    }
  } finally {
    await harness.close();
  }
});
