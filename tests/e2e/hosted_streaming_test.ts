/**
 * `govcat serve --hosted` as a real subprocess (behind its TCP front, lib/net/net_guard.ts, as deployed): a
 * long import streams progress to an SDK client, and stops when the client aborts it or simply leaves —
 * the catalog (the embedded emulator, slowed down) then receives no more requests.
 */
import assert from "node:assert/strict";
import { loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { type ServeProcess, startServe } from "../support/serve_process.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../support/asset_import.ts";

const ROWS = 3_000;

async function withHostedServer(test: (server: ServeProcess, emulator: string) => Promise<void>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-hosted-e2e-" }));
  await writeAssetsCsv(root, ROWS, "ds://e2e/");
  const server = await startServe(["--emulator", `--file-root=${root}`], {
    FUNCTIONS_CUSTOMHANDLER_PORT: "0",
  });
  try {
    const emulator = /embedded emulator at (http:\/\/\S+)/.exec(server.banner)![1];
    const slowed = await fetch(`${emulator}/_emulator/faults`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ latencyMs: 100 }),
    });
    assert.equal(slowed.status, 200);
    await slowed.body?.cancel();
    await test(server, emulator);
  } finally {
    const { code } = await server.stop();
    assert.equal(code, 0);
    await Deno.remove(root, { recursive: true });
  }
}

async function catalogRequests(emulator: string): Promise<number> {
  return (await (await fetch(`${emulator}/_emulator/stats`)).json()).total;
}

/** Asserts the catalog stops receiving requests within a few seconds, and the import did not finish. */
async function assertImportStops(emulator: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let before = await catalogRequests(emulator);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 700));
    const now = await catalogRequests(emulator);
    if (now === before) break;
    assert.ok(Date.now() < deadline, "the import kept sending requests after its client left");
    before = now;
  }
  assert.ok(before < ROWS / 20, `the import ran to its end or near it: ${before} catalog requests`);
}

Deno.test("hosted subprocess: progress streams to an SDK client, and its abort stops the import", async () => {
  await withHostedServer(async (server, emulator) => {
    const { Client, StreamableHTTPClientTransport } = await loadMcpClientSdk();
    const client = new Client({ name: "hosted-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const controller = new AbortController();
      const progress: number[] = [];
      const call = client.callTool(ASSET_IMPORT, undefined, {
        signal: controller.signal,
        timeout: 60_000,
        onprogress: (p) => {
          progress.push(p.progress);
          if (progress.length === 2) controller.abort("enough");
        },
      });
      await assert.rejects(call);
      assert.equal(progress.length, 2, "progress arrived while the call ran");
      await assertImportStops(emulator);
    } finally {
      await client.close();
    }
  });
});

Deno.test("hosted subprocess: a client that disconnects mid-import stops it", async () => {
  await withHostedServer(async (server, emulator) => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { ...ASSET_IMPORT, _meta: { progressToken: 1 } },
      }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("notifications/progress")) {
      const read = await reader.read();
      assert.ok(!read.done, "the stream ended before any progress");
      text += read.value;
    }
    await reader.cancel();
    await assertImportStops(emulator);
  });
});
