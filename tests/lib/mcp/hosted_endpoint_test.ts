/**
 * Hosted mode (`/api/mcp`, stateless) against a real server on 127.0.0.1: a long import streams its
 * progress to an SDK client; it stops when the client goes away or cancels it, and only then — another
 * caller's cancellation, a forged session or none at all stops nothing; GET issues a session id and
 * DELETE ends its calls; closing the app ends the streams still open.
 */
import assert from "node:assert/strict";
import { type Harness, type HarnessOptions, startHarness } from "../../support/mcp_harness.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../../support/asset_import.ts";

const ROWS = 3_000;
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A hosted harness whose file root holds a CSV of {@link ROWS} rows, the catalog answering slowly. */
async function withImport(
  test: (harness: Harness, calls: { requestIds: (string | number)[] }) => Promise<void>,
  options: HarnessOptions = {},
): Promise<void> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-hosted-" }));
  await writeAssetsCsv(root, ROWS, "ds://hosted/");
  const calls = { requestIds: [] as (string | number)[] };
  // Records the JSON-RPC id of each tools/call the client sends, as another caller might learn it.
  const recording: typeof fetch = (input, init) => {
    if (init?.method === "POST" && String(init.body).includes('"tools/call"')) {
      calls.requestIds.push(JSON.parse(String(init.body)).id);
    }
    return fetch(input, init);
  };
  const harness = await startHarness({
    mode: "hosted",
    env: { CATALOG_MCP_FILE_ROOT: root },
    fetch: recording,
    ...options,
  });
  try {
    harness.emulator.faults.set({ latencyMs: 100 });
    await test(harness, calls);
  } finally {
    await harness.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Asserts the catalog receives no more requests: the import has stopped. */
async function assertImportStopped(harness: Harness): Promise<void> {
  await waitFor(() => harness.app.runningHostedCalls === 0, "the call to end");
  // A batch already sent may still be answered; after that, nothing more is sent.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const settled = harness.emulator.faults.stats().total;
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(harness.emulator.faults.stats().total, settled, "no request after the call ended");
  const imported = await harness.catalog.entity.listByUniqueAttributes(
    "DataSet",
    [`ds://hosted/${ROWS - 1}`],
    { minExtInfo: true },
  );
  assert.equal(imported.entities?.length ?? 0, 0, "the import did not run to its end");
}

/** Posts a tools/call by hand and reads its stream until a progress notification shows. */
async function startRawCall(harness: Harness, headers: Record<string, string> = {}) {
  const response = await fetch(`${harness.baseUrl}/api/mcp`, {
    method: "POST",
    headers: { ...JSON_HEADERS, "mcp-protocol-version": "2025-11-25", ...headers },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { ...ASSET_IMPORT, _meta: { progressToken: "p" } },
    }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("notifications/progress")) {
    const read = await reader.read();
    assert.ok(!read.done, "the stream ended before any progress");
    text += read.value;
  }
  return reader;
}

Deno.test("hosted: a long import streams progress to an SDK client before its result", async () => {
  await withImport(async (harness) => {
    harness.emulator.faults.set({ latencyMs: 10 });
    const progress: number[] = [];
    const result = await harness.client.callTool(ASSET_IMPORT, undefined, {
      onprogress: (p) => void progress.push(p.progress),
      timeout: 60_000,
    });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { created: number }).created, ROWS);
    assert.ok(progress.length >= 2, `progress notifications: ${progress.length}`);
    assert.equal(progress.at(-1), 2 * ROWS);
    assert.equal(harness.app.runningHostedCalls, 0);
  });
});

Deno.test("hosted: an import stops when its client goes away", async () => {
  await withImport(async (harness) => {
    const reader = await startRawCall(harness);
    assert.equal(harness.app.runningHostedCalls, 1);
    await reader.cancel("client left");
    await assertImportStopped(harness);
  });
});

Deno.test("hosted: a departed client is noticed even while its call sends nothing (no progress asked)", async () => {
  await withImport(async (harness) => {
    const response = await fetch(`${harness.baseUrl}/api/mcp`, {
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: ASSET_IMPORT }),
    });
    await waitFor(() => harness.emulator.faults.stats().total > 3, "the import to start");
    await response.body!.cancel();
    await assertImportStopped(harness);
  });
});

Deno.test("hosted: an SDK client's abort (notifications/cancelled in its session) stops the import", async () => {
  await withImport(async (harness) => {
    const controller = new AbortController();
    let progressSeen = 0;
    const call = harness.client.callTool(ASSET_IMPORT, undefined, {
      signal: controller.signal,
      onprogress: () => {
        if (++progressSeen === 2) controller.abort("user stopped it");
      },
      timeout: 60_000,
    });
    await assert.rejects(call, /user stopped it|abort/i);
    await assertImportStopped(harness);
  });
});

Deno.test("hosted: another caller's cancellation, a forged session or none stops nothing", async () => {
  await withImport(async (harness, calls) => {
    harness.emulator.faults.set({ latencyMs: 10 });
    const call = harness.client.callTool(ASSET_IMPORT, undefined, { timeout: 60_000 });
    await waitFor(() => calls.requestIds.length === 1 && harness.app.runningHostedCalls === 1, "the call");
    const requestId = calls.requestIds[0];
    const issued = await fetch(`${harness.baseUrl}/api/mcp`);
    const other = (await issued.json()).sessionId;
    const attempts: Record<string, string>[] = [
      { "mcp-session-id": other },
      { "mcp-session-id": "forged" },
      {},
    ];
    for (const headers of attempts) {
      const cancel = await fetch(`${harness.baseUrl}/api/mcp`, {
        method: "POST",
        headers: { ...JSON_HEADERS, ...headers },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } }),
      });
      assert.equal(cancel.status, 202);
      await cancel.body?.cancel();
    }
    const result = await call;
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { created: number }).created, ROWS, "the call ran to its end");
  });
});

Deno.test("hosted: GET issues a session id, DELETE ends the session's calls, then the id is refused", async () => {
  await withImport(async (harness) => {
    const url = `${harness.baseUrl}/api/mcp`;
    const issued = await fetch(url);
    assert.equal(issued.status, 200);
    const { sessionId, message } = await issued.json();
    assert.match(sessionId, /^[0-9a-f-]{36}$/);
    assert.equal(issued.headers.get("mcp-session-id"), sessionId);
    assert.match(message, /Mcp-Session-Id/);
    assert.notEqual((await (await fetch(url)).json()).sessionId, sessionId, "each GET a new id");

    const noSession = await fetch(url, { method: "DELETE" });
    assert.equal(noSession.status, 400);
    assert.match((await noSession.json()).error.message, /Mcp-Session-Id header is required/);

    const reader = await startRawCall(harness, { "mcp-session-id": sessionId });
    const ended = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
    assert.equal(ended.status, 200);
    await ended.body?.cancel();
    await assertImportStopped(harness);
    while (!(await reader.read()).done) { /* the stream ends */ }

    const after = await fetch(url, {
      method: "POST",
      headers: { ...JSON_HEADERS, "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(after.status, 404);
    assert.match(
      (await after.json()).error.message,
      /was ended by a DELETE request\. Initialize a new session/,
    );
  });
});

Deno.test("hosted: initialize answers with a session id the SDK client then sends", async () => {
  const seen: (string | null)[] = [];
  const watching: typeof fetch = (input, init) => {
    seen.push(new Headers(init?.headers).get("mcp-session-id"));
    return fetch(input, init);
  };
  const harness = await startHarness({ mode: "hosted", fetch: watching });
  try {
    await harness.client.listTools();
    assert.equal(seen[0], null, "initialize goes without one");
    assert.match(String(seen.at(-1)), /^[0-9a-f-]{36}$/, "later requests carry the id initialize gave");
  } finally {
    await harness.close();
  }
});

Deno.test("hosted: closing the app ends the streams still open", async () => {
  await withImport(async (harness) => {
    const reader = await startRawCall(harness);
    await harness.app.close();
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
    }
    await assertImportStopped(harness);
  });
});
