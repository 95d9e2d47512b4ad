/**
 * Toolsets and the dynamic mode through `govcat serve` as a real subprocess over stdio, with a real SDK
 * client: the fast start lists only the configured toolsets and steps aside for the dynamic mode, and bad
 * toolset configuration ends start-up with exit code 2.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { baseEnv, govcatArgs, runGovcat } from "../support/govcat_process.ts";

const GLOSSARY = ["get_glossary_terms", "create_glossary_term", "assign_term_to_entities"];

async function withStdioClient(
  args: string[],
  env: Record<string, string>,
  body: (client: Awaited<ReturnType<typeof connect>>, changes: string[][]) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: true });
  const changes: string[][] = [];
  const client = await connect(emulator, args, env, changes);
  try {
    await body(client, changes);
  } finally {
    await client.close();
    await emulator.close();
  }
}

async function connect(
  emulator: RunningEmulator,
  args: string[],
  env: Record<string, string>,
  changes: string[][],
) {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: govcatArgs(["serve", ...args]),
    env: { ...baseEnv(), CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-toolsets", version: "1" }, {
    listChanged: {
      tools: { debounceMs: 0, onChanged: (_error, tools) => changes.push((tools ?? []).map((t) => t.name)) },
    },
  });
  await client.connect(transport);
  return client;
}

const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name);

Deno.test("stdio: CATALOG_MCP_TOOLSETS (through the fast start) and --toolsets list only those sets", async () => {
  await withStdioClient([], { CATALOG_MCP_TOOLSETS: "glossary" }, async (client) => {
    assert.deepEqual(names((await client.listTools()).tools), GLOSSARY);
    const outside = await client.callTool({ name: "get_entity", arguments: { guid: "x" } });
    assert.equal(outside.isError, true);
    const text = (outside.content as Array<{ text: string }>)[0].text;
    assert.match(
      JSON.parse(text).message,
      /get_entity is in toolset "entities".*\(CATALOG_MCP_TOOLSETS: glossary\)/,
    );
  });
  await withStdioClient(["--toolsets=glossary,types", "--read-only"], {}, async (client) => {
    assert.deepEqual(names((await client.listTools()).tools), [
      "get_glossary_terms",
      "get_typedef",
      "list_typedefs",
    ]);
  });
});

Deno.test("stdio: the dynamic mode starts with three tools and grows on enable_toolset", async () => {
  // Through the variable, not the flag: the fast start would answer a plain command line's tools/list.
  await withStdioClient([], { CATALOG_MCP_DYNAMIC_TOOLSETS: "true" }, async (client, changes) => {
    assert.equal(client.getServerCapabilities()?.tools?.listChanged, true);
    assert.deepEqual(names((await client.listTools()).tools), [
      "list_available_toolsets",
      "get_toolset_tools",
      "enable_toolset",
    ]);
    const enabled = await client.callTool({ name: "enable_toolset", arguments: { toolset: "glossary" } });
    assert.notEqual(enabled.isError, true);
    const deadline = Date.now() + 5000;
    while (changes.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(changes.length, 1, "the client's listChanged handler fired");
    assert.deepEqual(changes[0].slice(3), GLOSSARY);
    assert.equal((await client.listTools()).tools.length, 6);
  });
});

Deno.test("serve: bad toolset configuration exits with code 2 and says what to do", async () => {
  const env = { CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9" };
  const typo = await runGovcat(["serve", "--toolsets=search,glosary"], env);
  assert.equal(typo.code, 2, typo.stderr);
  assert.match(typo.stderr, /"glosary" is not a toolset\. Did you mean "glossary"\?/);
  const variable = await runGovcat(["serve"], { ...env, CATALOG_MCP_TOOLSETS: "everything" });
  assert.equal(variable.code, 2, variable.stderr);
  assert.match(variable.stderr, /CATALOG_MCP_TOOLSETS \(or --toolsets\): "everything" is not a toolset/);
  const conflict = await runGovcat(["serve", "--toolsets=search"], {
    ...env,
    CATALOG_MCP_TOOLS: "get_entity",
  });
  assert.equal(conflict.code, 2, conflict.stderr);
  assert.match(conflict.stderr, /CATALOG_MCP_TOOLS allows get_entity, which is in toolset "entities"/);
  const hosted = await runGovcat(["serve", "--hosted", "--dynamic-toolsets", "--port=0"], env);
  assert.equal(hosted.code, 2, hosted.stderr);
  assert.match(hosted.stderr, /hosted mode is stateless.*--toolsets/s);
});
