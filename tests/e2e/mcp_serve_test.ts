/**
 * `govcat serve` as a subprocess on every transport, with real SDK clients, against the embedded emulator.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { baseEnv, MAIN, runGovcat } from "../support/govcat_process.ts";
import { startServe } from "../support/serve_process.ts";

const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];

async function listAndCall(client: InstanceType<Awaited<ReturnType<typeof loadMcpClientSdk>>["Client"]>) {
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 10);
  for (const tool of tools) assert.ok(tool.annotations, `${tool.name} has annotations`);
  const result = await client.callTool({
    name: "search_entities",
    arguments: { query: "customers", limit: 3 },
  });
  assert.ok(!result.isError, JSON.stringify(result.content));
  const hits = (result.structuredContent as { results: Array<{ name: string }> }).results;
  assert.ok(hits.some((hit) => hit.name === "Customers"), "the seeded catalog is searched");
}

Deno.test("stdio: an SDK client launches govcat serve --emulator and calls tools", async () => {
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...PERMISSIONS, MAIN, "serve", "--emulator"],
    env: baseEnv(),
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    await listAndCall(client);
  } finally {
    await client.close();
  }
});

Deno.test("stdio: only JSON-RPC on stdout, and closing stdin ends the process cleanly", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMISSIONS, MAIN, "serve", "--emulator", "--verbose"],
    env: baseEnv(),
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  await writer.write(new TextEncoder().encode(JSON.stringify(initialize) + "\n"));
  await writer.write(new TextEncoder().encode("this is not json\n"));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  while (!stdout.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  await writer.close();
  const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const status = await child.status;
  clearTimeout(killer);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += value;
  }
  const stderr = await new Response(child.stderr).text();
  assert.equal(status.code, 0, `exits cleanly when stdin closes; stderr: ${stderr}`);
  const lines = stdout.trim().split("\n");
  for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", "stdout carries JSON-RPC only");
  assert.equal(JSON.parse(lines[0]).result.serverInfo.name, "govcat");
  assert.match(stderr, /info: |debug: /, "logs go to stderr");
});

Deno.test("streamable HTTP and SSE subprocesses serve SDK clients; SIGTERM stops them", async () => {
  const { Client, StreamableHTTPClientTransport, SSEClientTransport } = await loadMcpClientSdk();
  for (const transport of ["http", "sse"]) {
    const server = await startServe(["--emulator", `--transport=${transport}`, "--port=0"]);
    try {
      assert.match(server.banner, new RegExp(`"type": "${transport}"`), "a ready client configuration");
      const client = new Client({ name: `${transport}-test`, version: "1.0.0" });
      const url = new URL(server.url);
      await client.connect(
        transport === "sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url),
      );
      await listAndCall(client);
      await client.close();
    } finally {
      const { code } = await server.stop();
      assert.equal(code, 0);
    }
  }
});

Deno.test("hosted mode as a subprocess: /api/health and stateless tool calls", async () => {
  const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
  const server = await startServe(["--emulator"], { FUNCTIONS_CUSTOMHANDLER_PORT: "0" });
  try {
    assert.match(server.url, /\/api\/mcp$/);
    const health = await (await fetch(new URL("/api/health", server.url))).json();
    assert.equal(health.status, "healthy");
    const client = new Client({ name: "hosted-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    await listAndCall(client);
    await client.close();
  } finally {
    await server.stop();
  }
});

Deno.test("start-up refusals: SSE in hosted mode, public bind without a token, bad transport", async () => {
  const sse = await runGovcat(["serve", "--hosted", "--transport=sse", "--emulator"]);
  assert.equal(sse.code, 2);
  assert.match(sse.stderr, /SSE does not work in hosted mode.*Use streamable-http .* or stdio/s);

  const exposed = await runGovcat(["serve", "--transport=http", "--host=0.0.0.0", "--emulator"]);
  assert.equal(exposed.code, 2);
  assert.match(
    exposed.stderr,
    /Refusing to listen on 0\.0\.0\.0 without an access token.*CATALOG_MCP_AUTH_TOKEN/s,
  );

  const badTransport = await runGovcat(["serve", "--transport=websocket"]);
  assert.equal(badTransport.code, 2);
  assert.match(badTransport.stderr, /CATALOG_MCP_TRANSPORT has an invalid value "websocket"/);

  const typo = await runGovcat(["serve", "--trasnport=http"]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Did you mean "--transport"\?/);

  const noAccount = await runGovcat(["serve"]);
  assert.equal(noAccount.code, 2);
  assert.match(noAccount.stderr, /CATALOG_ACCOUNT_NAME is required/);
  // Someone trying govcat out has no account: the error names the way that needs none.
  assert.match(noAccount.stderr, /run "govcat serve --emulator"/);
  const noAccountOverHttp = await runGovcat(["serve", "--transport=http"]);
  assert.equal(noAccountOverHttp.code, 2);
  assert.match(noAccountOverHttp.stderr, /run "govcat serve --emulator"/);
});
