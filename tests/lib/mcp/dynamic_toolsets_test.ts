/**
 * The dynamic mode (lib/mcp/dynamic_toolsets.ts) with a real SDK client over streamable HTTP: three small
 * tools at the start, `enable_toolset` sends notifications/tools/list_changed (the client's listChanged
 * handler fires with the grown list), and read-only mode and the server's toolsets still bound what is
 * enabled. Also the server's icon and description (serverInfo).
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";

const DYNAMIC = ["list_available_toolsets", "get_toolset_tools", "enable_toolset"];
type Listed = Array<{ name: string }>;

interface DynamicSession {
  client: Awaited<ReturnType<typeof connect>>["client"];
  /** Tool lists the client's listChanged handler received, in order. */
  changes: Listed[];
  harness: Harness;
}

async function connect(harness: Harness, changes: Listed[]) {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const client = new Client({ name: "dynamic-test", version: "1" }, {
    listChanged: {
      tools: {
        debounceMs: 0,
        onChanged: (error, tools) => {
          // A refresh cut short by the client's close at the end of a test is no change.
          if (!error) changes.push(tools ?? []);
        },
      },
    },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", harness.baseUrl)));
  return { client };
}

async function withDynamic(env: Record<string, string>, body: (session: DynamicSession) => Promise<void>) {
  const harness = await startHarness({
    env: { CATALOG_MCP_DYNAMIC_TOOLSETS: "true", ...env },
    noClient: true,
  });
  const changes: Listed[] = [];
  const { client } = await connect(harness, changes);
  try {
    await body({ client, changes, harness });
  } finally {
    await client.close();
    await harness.close();
  }
}

/** Resolves once `changes` has `count` entries (the handler runs after the refreshing tools/list). */
async function changesReach(changes: Listed[], count: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (changes.length < count) {
    if (Date.now() > deadline) {
      throw new Error(`the listChanged handler fired ${changes.length} times, not ${count}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const names = (tools: Listed) => tools.map((tool) => tool.name);

Deno.test("dynamic mode: three small tools at the start, listChanged declared, under 5 KB", async () => {
  await withDynamic({}, async ({ client }) => {
    assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
    assert.match(
      client.getInstructions() ?? "",
      /^This session starts with three tools: list_available_toolsets/,
    );
    const { tools } = await client.listTools();
    assert.deepEqual(names(tools), DYNAMIC);
    const bytes = new TextEncoder().encode(JSON.stringify({ tools })).length;
    assert.ok(bytes < 5 * 1024, `the three dynamic tools take ${bytes} bytes in tools/list (limit 5120)`);
    for (const tool of tools) assert.match(tool.icons?.[0]?.src ?? "", /^data:image\/svg\+xml;base64,/);
  });
});

Deno.test("dynamic mode: enable_toolset adds the set's tools, notifies, and they can be called", async () => {
  await withDynamic({}, async ({ client, changes }) => {
    const before = await client.callTool({ name: "get_glossary_terms", arguments: {} });
    assert.equal(before.isError, true);
    assert.match(
      String(resultJson(before).message),
      /toolset "glossary", which this session has not enabled: call enable_toolset with \{"toolset": "glossary"\}/,
    );
    const listed = resultJson(await client.callTool({ name: "list_available_toolsets", arguments: {} }));
    const glossary = (listed.toolsets as Array<Record<string, unknown>>).find((set) =>
      set.name === "glossary"
    );
    const { icons, ...rest } = glossary as Record<string, unknown> & { icons: Array<{ src: string }> };
    assert.deepEqual(rest, {
      name: "glossary",
      description: "Classic glossary terms and their assignment to assets",
      tools: 3,
      enabled: false,
    });
    // Each toolset has an icon of its own (MCP 2025-11-25): an inline SVG, a different one per set.
    const sources = (listed.toolsets as Array<{ icons: Array<{ src: string; mimeType: string }> }>)
      .map((set) => set.icons[0]);
    assert.equal(icons.length, 1);
    assert.ok(sources.every((icon) =>
      icon.src.startsWith("data:image/svg+xml;base64,") &&
      icon.mimeType === "image/svg+xml"
    ));
    assert.equal(new Set(sources.map((icon) => icon.src)).size, sources.length);
    const shown = resultJson(
      await client.callTool({ name: "get_toolset_tools", arguments: { toolset: "glossary" } }),
    );
    assert.deepEqual((shown.tools as Array<{ name: string }>).map((tool) => tool.name), [
      "get_glossary_terms",
      "create_glossary_term",
      "assign_term_to_entities",
    ]);

    const enabled = await client.callTool({ name: "enable_toolset", arguments: { toolset: "glossary" } });
    assert.deepEqual(resultJson(enabled), {
      toolset: "glossary",
      added: ["get_glossary_terms", "create_glossary_term", "assign_term_to_entities"],
      already_enabled: false,
    });
    await changesReach(changes, 1);
    assert.deepEqual(names(changes[0]), [
      ...DYNAMIC,
      "get_glossary_terms",
      "create_glossary_term",
      "assign_term_to_entities",
    ]);
    assert.deepEqual(names((await client.listTools()).tools), names(changes[0]));
    const after = await client.callTool({ name: "get_glossary_terms", arguments: {} });
    assert.notEqual(after.isError, true, JSON.stringify(after));

    const again = resultJson(
      await client.callTool({ name: "enable_toolset", arguments: { toolset: "Glossary" } }),
    );
    assert.deepEqual(again, { toolset: "glossary", added: [], already_enabled: true });
    const unknown = await client.callTool({ name: "enable_toolset", arguments: { toolset: "linage" } });
    assert.equal(unknown.isError, true);
    assert.match(
      String(resultJson(unknown).message),
      /There is no toolset "linage"\. Did you mean "lineage"\?/,
    );
  });
});

Deno.test("dynamic mode: read-only mode and the server's toolsets bound what enabling adds", async () => {
  await withDynamic(
    {
      CATALOG_MCP_READ_ONLY: "true",
      CATALOG_MCP_TOOLSETS: "glossary,search",
      CATALOG_MCP_TOOLS: "-search_entities,-search_suggest,-search_browse",
    },
    async (session) => {
      const { client, changes } = session;
      const listed = resultJson(await client.callTool({ name: "list_available_toolsets", arguments: {} }));
      assert.deepEqual((listed.toolsets as Array<{ name: string }>).map((set) => set.name), [
        "search",
        "glossary",
      ]);
      const enabled = resultJson(
        await client.callTool({ name: "enable_toolset", arguments: { toolset: "glossary" } }),
      );
      assert.deepEqual(enabled.added, ["get_glossary_terms"], "read-only: the write tools stay off");
      await changesReach(changes, 1);
      const write = await client.callTool({ name: "create_glossary_term", arguments: { name: "x" } });
      assert.equal(write.isError, true);
      assert.match(String(resultJson(write).message), /read-only mode/);
      const outside = await client.callTool({ name: "enable_toolset", arguments: { toolset: "entities" } });
      assert.equal(outside.isError, true);
      assert.match(
        String(resultJson(outside).message),
        /Toolset "entities" is not served by this server here/,
      );
      const empty = resultJson(
        await client.callTool({ name: "enable_toolset", arguments: { toolset: "search" } }),
      );
      assert.deepEqual(empty, { toolset: "search", added: [], already_enabled: false });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(changes.length, 1, "a refused enabling, or one adding nothing, changes nothing");
    },
  );
});

Deno.test("serverInfo carries the server's icon and a description", async () => {
  const harness = await startHarness();
  try {
    const info = harness.client.getServerVersion()!;
    assert.equal(info.name, "govcat");
    assert.match(info.description ?? "", /Microsoft Purview data-governance catalog/);
    assert.equal(info.icons?.length, 1);
    const icon = info.icons![0];
    assert.equal(icon.mimeType, "image/svg+xml");
    assert.deepEqual(icon.sizes, ["any"]);
    const svg = atob(icon.src.replace(/^data:image\/svg\+xml;base64,/, ""));
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/);
    // The catalog tools carry no icon: 46 of them would add 11 KB to every tools/list (icons.ts).
    assert.ok((await harness.client.listTools()).tools.every((tool) => tool.icons === undefined));
  } finally {
    await harness.close();
  }
});
