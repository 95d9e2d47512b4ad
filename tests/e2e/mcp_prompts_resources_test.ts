/**
 * Prompts, resources and completions through `govcat serve` as a subprocess: over stdio (past the fast
 * start, which answers only the handshake) and in hosted mode (a new server per request), with real SDK
 * clients against the embedded emulator.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { baseEnv, MAIN } from "../support/govcat_process.ts";
import { startServe } from "../support/serve_process.ts";

const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];
const CUSTOMERS = "ca7a1000-0000-4000-8000-000000000010";

type Client = InstanceType<Awaited<ReturnType<typeof loadMcpClientSdk>>["Client"]>;

async function useExtras(client: Client) {
  const capabilities = client.getServerCapabilities();
  assert.ok(
    capabilities?.prompts && capabilities.resources && capabilities.completions,
    JSON.stringify(capabilities),
  );
  const { prompts } = await client.listPrompts();
  assert.ok(prompts.some((p) => p.name === "explore_asset"));
  const prompt = await client.getPrompt({ name: "explore_asset", arguments: { query: "customers" } });
  assert.match((prompt.messages[0].content as { text: string }).text, /search_suggest/);
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "govcat://typedefs"));
  const { contents: [entity] } = await client.readResource({ uri: `govcat://entity/${CUSTOMERS}` });
  assert.equal(JSON.parse((entity as { text: string }).text).entity.guid, CUSTOMERS);
  const { completion } = await client.complete({
    ref: { type: "ref/prompt", name: "register_asset" },
    argument: { name: "type_name", value: "azure_sql_ta" },
  });
  assert.deepEqual(completion.values, ["azure_sql_table"]);
}

Deno.test("stdio: prompts, resources and completions after the fast start", async () => {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...PERMISSIONS, MAIN, "serve", "--emulator"],
    env: baseEnv(),
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-extras", version: "1.0.0" });
  await client.connect(transport);
  try {
    await useExtras(client);
  } finally {
    await client.close();
  }
});

Deno.test("hosted mode: prompts, resources and completions on stateless requests", async () => {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator"], { FUNCTIONS_CUSTOMHANDLER_PORT: "0" });
  try {
    const client = new Client({ name: "hosted-extras", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await useExtras(client);
    await client.close();
  } finally {
    await server.stop();
  }
});
