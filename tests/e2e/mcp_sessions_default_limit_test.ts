/**
 * `govcat serve --transport=http` with its default connection limit, as a real subprocess, carries 200 SDK
 * sessions at once (each holding a GET event stream and its POSTs): every session opens, calls tools and
 * ends without a failed call or connection.
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { startServe } from "../support/serve_process.ts";

const SESSIONS = 200;
const CALLS_PER_SESSION = 3;

/** The environment of the server: `CATALOG_MCP_MAX_CONNECTIONS` left unset, so the default is what runs. */
const SERVE_ENV = { CATALOG_RATE_LIMIT: "0" };

Deno.test(`${SESSIONS} concurrent SDK sessions against serve's default connection limit: no failure`, async () => {
  const sdk = await loadMcpClientSdk();
  const server = await startServe(["--emulator", "--transport=http", "--port=0"], SERVE_ENV);
  const errors: string[] = [];
  let calls = 0;
  try {
    await Promise.all(Array.from({ length: SESSIONS }, async () => {
      const client = new sdk.Client({ name: "govcat-sessions", version: "1.0.0" });
      const transport = new sdk.StreamableHTTPClientTransport(new URL(server.url));
      try {
        await client.connect(transport, { timeout: 60_000 });
        for (let i = 0; i < CALLS_PER_SESSION; i++) {
          const result = await client.callTool(
            { name: "search_entities", arguments: { query: "customers", limit: 2 } },
            undefined,
            { timeout: 60_000 },
          );
          if (result.isError) errors.push(`search_entities: ${JSON.stringify(result.content)}`);
          calls++;
        }
        await transport.terminateSession();
      } catch (error) {
        errors.push(String(error));
      } finally {
        await client.close().catch(() => {});
      }
    }));
  } finally {
    const { code, stderr } = await server.stop();
    assert.equal(code, 0, stderr);
  }
  assert.deepEqual(errors.slice(0, 5), [], `${errors.length} failures, e.g. the first 5`);
  assert.equal(calls, SESSIONS * CALLS_PER_SESSION);
});
