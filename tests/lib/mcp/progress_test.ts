/**
 * MCP progress notifications: the sink's throttling and ordering with a fake clock, the message's counts
 * (`1 row`, `1 error`), then end to end — a real SDK client calling, over an in-process transport pair, a
 * throwaway tool and a registry operation that report progress, with and without a progress token.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../../lib/config/config.ts";
import { loadMcpClientSdk } from "../../../lib/deps/mcp_sdk.ts";
import { z } from "../../../lib/deps/zod.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { mcpProgressSink, progressMessage, type ProgressNotification } from "../../../lib/mcp/progress.ts";
import { createToolServer, createToolServices } from "../../../lib/mcp/server.ts";
import { defineTool, READ_ONLY, type ToolDefinition } from "../../../lib/mcp/tool.ts";
import { invokeOperationTool } from "../../../lib/mcp/tools/registry_tools.ts";
import { OperationRegistry } from "../../../lib/operations/registry.ts";
import { defineOperation, READ } from "../../../lib/operations/types.ts";

function fakeExtra(progressToken?: string | number) {
  const sent: ProgressNotification["params"][] = [];
  return {
    sent,
    extra: {
      _meta: progressToken === undefined ? {} : { progressToken },
      sendNotification: (n: ProgressNotification) => {
        sent.push(n.params);
        return Promise.resolve();
      },
    },
  };
}

Deno.test("no progress token, no sink", () => {
  assert.equal(mcpProgressSink(fakeExtra().extra), undefined);
  assert.equal(mcpProgressSink({ sendNotification: () => Promise.resolve() }), undefined);
});

Deno.test("notifications are throttled to four a second, and the last state is sent on finish", async () => {
  const { extra, sent } = fakeExtra("tok-1");
  let t = 0;
  const sink = mcpProgressSink(extra, { now: () => t })!;
  // A report every 50 ms for a second: 21 reports.
  for (let i = 0; i <= 20; i++, t += 50) {
    sink.update({ phase: "importing", done: i * 10, total: 300, errors: 0 });
  }
  t = 1040;
  sink.update({ phase: "importing", done: 210, total: 300, errors: 1 });
  sink.finish();
  await sink.settled();
  assert.deepEqual(sent.map((p) => p.progress), [0, 50, 100, 150, 200, 210]);
  assert.deepEqual(sent.at(-1), {
    progressToken: "tok-1",
    progress: 210,
    total: 300,
    message: "importing: 210/300 rows, 1 error",
  });
  // Finishing again, or after a sent state, adds nothing.
  sink.finish();
  await sink.settled();
  assert.equal(sent.length, 6);
});

Deno.test("the message says 1 row and 1 error, and a total of one row is 0/1 row", async () => {
  assert.equal(progressMessage({ phase: "validating", done: 1, errors: 1 }), "validating: 1 row, 1 error");
  assert.equal(progressMessage({ phase: "validating", done: 0, errors: 0 }), "validating: 0 rows, 0 errors");
  assert.equal(
    progressMessage({ phase: "importing", done: 0, total: 1, errors: 0 }),
    "importing: 0/1 row, 0 errors",
  );
  assert.equal(
    progressMessage({ phase: "importing", done: 1, total: 2, errors: 2 }),
    "importing: 1/2 rows, 2 errors",
  );
  // As the client sees it.
  const { extra, sent } = fakeExtra("one");
  const sink = mcpProgressSink(extra, { now: () => 0 })!;
  sink.update({ phase: "importing", done: 1, total: 1, errors: 1 });
  sink.finish();
  await sink.settled();
  assert.deepEqual(sent, [{
    progressToken: "one",
    progress: 1,
    total: 1,
    message: "importing: 1/1 row, 1 error",
  }]);
});

Deno.test("the last state is not repeated on finish, and a job that never reported sends nothing", async () => {
  const { extra, sent } = fakeExtra(7);
  const sink = mcpProgressSink(extra, { now: () => 0 })!;
  sink.update({ phase: "validating", done: 5, errors: 0 });
  sink.finish();
  await sink.settled();
  assert.deepEqual(sent, [{ progressToken: 7, progress: 5, message: "validating: 5 rows, 0 errors" }]);

  const idle = fakeExtra(8);
  const quiet = mcpProgressSink(idle.extra)!;
  quiet.finish();
  await quiet.settled();
  assert.deepEqual(idle.sent, []);
});

Deno.test("progress keeps increasing across phases; the message carries the phase's own counts", async () => {
  const { extra, sent } = fakeExtra("phases");
  let t = 0;
  const sink = mcpProgressSink(extra, { now: () => (t += 1000) })!;
  sink.update({ phase: "validating", done: 0, total: 100, errors: 0 });
  sink.update({ phase: "validating", done: 100, total: 100, errors: 2 });
  sink.update({ phase: "validating", done: 100, total: 100, errors: 3 }); // no increase: not sent
  sink.update({ phase: "importing", done: 0, total: 100, errors: 0 }); // no increase either
  sink.update({ phase: "importing", done: 40, total: 100, errors: 1 });
  sink.finish();
  await sink.settled();
  assert.deepEqual(sent.map(({ progress, total, message }) => ({ progress, total, message })), [
    { progress: 0, total: 100, message: "validating: 0/100 rows, 0 errors" },
    { progress: 100, total: 100, message: "validating: 100/100 rows, 2 errors" },
    { progress: 140, total: 200, message: "importing: 40/100 rows, 1 error" },
  ]);
});

Deno.test("a notification that cannot be sent is reported and never fails the job", async () => {
  const errors: unknown[] = [];
  let calls = 0;
  let t = 0;
  const sink = mcpProgressSink({
    _meta: { progressToken: 1 },
    sendNotification: () => ++calls === 1 ? Promise.reject(new Error("client gone")) : Promise.resolve(),
  }, { now: () => (t += 1000), onError: (e) => errors.push(e) })!;
  sink.update({ phase: "importing", done: 1, errors: 0 });
  sink.update({ phase: "importing", done: 2, errors: 0 });
  sink.finish();
  await sink.settled();
  assert.equal(calls, 2);
  assert.deepEqual(errors.map((e) => (e as Error).message), ["client gone"]);
});

/** A tool that reports progress the way a bulk import does: a few slow steps, then a burst. */
const progressProbe = defineTool({
  name: "progress_probe",
  title: "Progress probe (test)",
  description: "Reports progress, for tests.",
  input: z.object({}),
  output: z.object({ hadSink: z.boolean() }),
  annotations: READ_ONLY,
  handler: async (ctx) => {
    if (!ctx.progress) return { hadSink: false };
    for (const done of [0, 10]) {
      ctx.progress.update({ phase: "importing", done, total: 30, errors: 0 });
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    ctx.progress.update({ phase: "importing", done: 20, total: 30, errors: 0 });
    for (let done = 21; done <= 30; done++) {
      ctx.progress.update({ phase: "importing", done, total: 30, errors: 1 });
    }
    // The server finishes the sink itself: the last state is sent even though the tool did not.
    return { hadSink: true };
  },
});

const progressOperation = defineOperation({
  id: "lineage.progress-probe",
  group: "lineage",
  command: "progress-probe",
  summary: "Reports progress, for tests",
  input: z.object({ rows: z.number() }),
  annotations: READ,
  run: (ctx, input) => {
    for (let done = 0; done <= input.rows; done++) {
      ctx.progress?.update({ phase: "validating", done, total: input.rows, errors: 0 });
    }
    ctx.progress?.finish();
    return Promise.resolve({ hadSink: ctx.progress !== undefined });
  },
});

async function withClient(
  tools: ToolDefinition[],
  test: (client: InstanceType<Awaited<ReturnType<typeof loadMcpClientSdk>>["Client"]>) => Promise<void>,
) {
  const { Client, InMemoryTransport } = await loadMcpClientSdk();
  const services = createToolServices({
    config: loadConfig({ CATALOG_ACCOUNT_NAME: "contoso", CATALOG_ENDPOINT: "http://127.0.0.1:9" }),
    logger: createLogger("error", { write: () => {} }),
    registry: new OperationRegistry().register(progressOperation),
  });
  const server = createToolServer(services, { enabled: tools, disabled: new Map() });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "progress-test", version: "1.0.0" });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  try {
    await test(client);
  } finally {
    await client.close();
    await server.close();
  }
}

type Progress = { progress: number; total?: number; message?: string };

Deno.test("a client asking for progress gets throttled notifications, the last one before the result", async () => {
  await withClient([progressProbe], async (client) => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: "progress_probe", arguments: {} }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    assert.ok(!result.isError, JSON.stringify(result.content));
    assert.deepEqual(result.structuredContent, { hadSink: true });
    assert.deepEqual(seen, [
      { progress: 0, total: 30, message: "importing: 0/30 rows, 0 errors" },
      { progress: 10, total: 30, message: "importing: 10/30 rows, 0 errors" },
      { progress: 20, total: 30, message: "importing: 20/30 rows, 0 errors" },
      { progress: 30, total: 30, message: "importing: 30/30 rows, 1 error" },
    ]);

    const without = await client.callTool({ name: "progress_probe", arguments: {} });
    assert.deepEqual(without.structuredContent, { hadSink: false }, "no token: the tool gets no sink");
  });
});

Deno.test("invoke_operation hands the client's progress to the operation", async () => {
  await withClient([invokeOperationTool], async (client) => {
    const seen: Progress[] = [];
    const result = await client.callTool(
      {
        name: "invoke_operation",
        arguments: { operation: "lineage.progress-probe", arguments: { rows: 50 } },
      },
      undefined,
      { onprogress: (p) => seen.push(p) },
    );
    assert.ok(!result.isError, JSON.stringify(result.content));
    assert.deepEqual((result.structuredContent as { result: unknown }).result, { hadSink: true });
    // Fifty-one reports in a burst: the first, then the last when the operation finished.
    assert.deepEqual(seen.map((p) => p.message), [
      "validating: 0/50 rows, 0 errors",
      "validating: 50/50 rows, 0 errors",
    ]);

    const without = await client.callTool({
      name: "invoke_operation",
      arguments: { operation: "lineage.progress-probe", arguments: { rows: 5 } },
    });
    assert.deepEqual((without.structuredContent as { result: unknown }).result, { hadSink: false });
  });
});
