/**
 * Long tool calls as tasks (MCP 2025-11-25) over streamable HTTP with real SDK clients: a task-augmented
 * import answers a task at once and runs on (tasks/get: working, then completed), tasks/result gives what a
 * plain call gives, tasks/list lists it, tasks/cancel stops the import (nothing written after), a client on
 * a new session gets the result, another signed-in user does not, and the bounds hold (running tasks, ttl).
 * A tool without task support refuses a task (-32601); hosted mode has no tasks and answers normally.
 */
import assert from "node:assert/strict";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateTaskResultSchema,
  McpError,
  type Task,
  TaskStatusNotificationSchema,
} from "../../../../lib/deps/mcp_sdk.ts";
import type { CatalogClient } from "../../../../lib/catalog/client.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../../../support/asset_import.ts";
import {
  type Harness,
  type HarnessOptions,
  type McpClient,
  startHarness,
} from "../../../support/mcp_harness.ts";
import { startSignedInHarness } from "../../../support/signed_in_harness.ts";
import { CURATOR, READER } from "../../../support/entra_stand_in.ts";
import {
  accept,
  type Asked,
  CUSTOMERS,
  description,
  elicitingClient,
} from "../../../support/eliciting_client.ts";

const ROWS = 600;

async function withRoot(
  test: (root: string, harness: Harness) => Promise<void>,
  options: HarnessOptions = {},
) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-mcp-tasks-" }));
  const harness = await startHarness({ ...options, env: { CATALOG_MCP_FILE_ROOT: root, ...options.env } });
  try {
    await test(root, harness);
  } finally {
    await harness.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** A task-augmented tools/call: the CreateTaskResult's task. */
async function startTask(
  client: McpClient,
  name: string,
  args: Record<string, unknown>,
  ttl?: number,
): Promise<Task> {
  const created = await client.request(
    { method: "tools/call", params: { name, arguments: args } },
    CreateTaskResultSchema,
    { task: ttl === undefined ? {} : { ttl } },
  );
  return created.task;
}

/** Polls tasks/get until the task is terminal; every status seen, in order, without repeats. */
async function statusesUntilDone(client: McpClient, taskId: string): Promise<string[]> {
  const seen: string[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (seen.at(-1) !== task.status) seen.push(task.status);
    if (["completed", "failed", "cancelled"].includes(task.status)) return seen;
    assert.ok(Date.now() < deadline, `task ${taskId} still ${task.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function taskResult(client: McpClient, taskId: string): Promise<CallToolResult> {
  return await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema) as CallToolResult;
}

/** The JSON-RPC error a request ends with. */
async function rpcError(request: Promise<unknown>): Promise<McpError> {
  const error = await request.then(() => undefined, (e) => e);
  assert.ok(error instanceof McpError, `expected a JSON-RPC error, got ${error}`);
  return error;
}

/** An import summary without what differs between two runs of the same import (file, timing). */
function comparable(result: CallToolResult): Record<string, unknown> {
  const { file: _f, elapsedMs: _e, rowsPerSecond: _r, ...rest } = result.structuredContent as Record<
    string,
    unknown
  >;
  return { isError: result.isError, ...rest };
}

/** Batches the import's checkpoint records as completed (0 while it does not exist). */
async function completedBatches(checkpoint: string): Promise<number> {
  const text = await Deno.readTextFile(checkpoint).catch(() => "");
  return text.split("\n").filter((line) => line.includes('"event":"completed"')).length;
}

/** How many of the DataSets `prefix`0 … `prefix`{rows-1} exist. */
async function stored(catalog: CatalogClient, prefix: string, rows: number): Promise<number> {
  let found = 0;
  for (let i = 0; i < rows; i += 200) {
    const names = Array.from({ length: Math.min(200, rows - i) }, (_, k) => `${prefix}${i + k}`);
    const result = await catalog.entity.listByUniqueAttributes("DataSet", names, { minExtInfo: true });
    found += result.entities?.length ?? 0;
  }
  return found;
}

Deno.test("a task-augmented import answers a task at once; get, result (as a plain call), list", async () => {
  await withRoot(async (root, harness) => {
    const { client } = harness;
    const { capabilities } = { capabilities: client.getServerCapabilities() };
    assert.deepEqual(capabilities?.tasks, { list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const taskTools = tools.filter((t) => t.execution?.taskSupport === "optional").map((t) => t.name).sort();
    assert.deepEqual(taskTools, [
      "batch_create_entities",
      "batch_update_entities",
      "import_entities_from_csv",
      "invoke_operation",
    ]);

    harness.emulator.faults.set({ latencyMs: 10 });
    await writeAssetsCsv(root, ROWS, "ds://task/");
    const started = performance.now();
    const task = await startTask(client, ASSET_IMPORT.name, ASSET_IMPORT.arguments, 120_000);
    const answeredIn = performance.now() - started;
    assert.equal(task.status, "working");
    assert.equal(task.ttl, 120_000);
    assert.ok(task.pollInterval! > 0);
    assert.ok(!Number.isNaN(Date.parse(task.createdAt)));

    const statuses = await statusesUntilDone(client, task.taskId);
    assert.deepEqual(statuses, ["working", "completed"]);
    const result = await taskResult(client, task.taskId);
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.deepEqual(result._meta?.["io.modelcontextprotocol/related-task"], { taskId: task.taskId });
    assert.equal((result.structuredContent as { created: number }).created, ROWS);
    const elapsedMs = (result.structuredContent as { elapsedMs: number }).elapsedMs;
    assert.ok(answeredIn < elapsedMs / 2, `the task came at once (${answeredIn} ms; import ${elapsedMs} ms)`);

    // The same import as a plain call answers the same.
    await Deno.rename(`${root}/assets.csv`, `${root}/first.csv`);
    await writeAssetsCsv(root, ROWS, "ds://plain/");
    const plain = await client.callTool(ASSET_IMPORT) as CallToolResult;
    assert.deepEqual(comparable(result), comparable(plain));

    const { tasks } = await client.experimental.tasks.listTasks();
    assert.deepEqual(tasks.map((t) => [t.taskId, t.status]), [[task.taskId, "completed"]]);
  });
});

Deno.test("a task's progress and status changes reach its session after the task is answered", async () => {
  await withRoot(async (root, harness) => {
    const { client } = harness;
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
    harness.emulator.faults.set({ latencyMs: 10 });
    await writeAssetsCsv(root, ROWS, "ds://progress/");
    let answered = false;
    const progressAfterAnswer: number[] = [];
    const created = await client.request(
      { method: "tools/call", params: ASSET_IMPORT },
      CreateTaskResultSchema,
      { task: {}, onprogress: (p) => void (answered && progressAfterAnswer.push(p.progress)) },
    );
    answered = true;
    await taskResult(client, created.task.taskId);
    const deadline = Date.now() + 5_000;
    while (!statuses.includes("completed")) {
      assert.ok(Date.now() < deadline, `statuses notified: ${statuses}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok(progressAfterAnswer.length > 0, "progress notifications after the task was answered");
  });
});

Deno.test("tasks/cancel stops a long import: nothing is written after it", async () => {
  await withRoot(async (root, harness) => {
    const { client } = harness;
    harness.emulator.faults.set({ latencyMs: 15 });
    await writeAssetsCsv(root, 3_000, "ds://cancel/");
    const task = await startTask(client, ASSET_IMPORT.name, ASSET_IMPORT.arguments);
    const deadline = Date.now() + 20_000;
    while (await completedBatches(`${root}/assets.csv.govcat-checkpoint`) < 3) {
      assert.ok(Date.now() < deadline, "the import made no progress");
      assert.equal((await client.experimental.tasks.getTask(task.taskId)).status, "working");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    assert.equal(cancelled.status, "cancelled");

    // tasks/result waits for the import to stop, and says it was cancelled.
    const result = await taskResult(client, task.taskId);
    assert.equal(result.isError, true);
    assert.match(
      JSON.stringify(result.content),
      /ImportInterruptedError.*interrupted; \d+ of 3000 rows done/,
    );
    const written = await stored(harness.catalog, "ds://cancel/", 3_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await stored(harness.catalog, "ds://cancel/", 3_000), written, "nothing written after");
    assert.ok(written < 3_000, `the import stopped early (${written} rows)`);
    assert.equal((await client.experimental.tasks.getTask(task.taskId)).status, "cancelled");

    const again = await rpcError(client.experimental.tasks.cancelTask(task.taskId));
    assert.equal(again.code, -32602);
    assert.match(again.message, /already in terminal status 'cancelled'/);
    // The checkpoint stayed, as after a cancelled call: resume continues the import.
    await Deno.stat(`${root}/assets.csv.govcat-checkpoint`);
  });
});

Deno.test("invoke_operation entity.bulk-import as a task: cancelled, then resumed as a task to the end", async () => {
  await withRoot(async (root, harness) => {
    const { client } = harness;
    harness.emulator.faults.set({ latencyMs: 15 });
    const rows = 2_000;
    await Deno.writeTextFile(
      `${root}/entities.csv`,
      ["typeName,qualifiedName,displayName"].concat(
        Array.from({ length: rows }, (_, i) => `DataSet,ds://invoke-task/${i},Set ${i}`),
      ).join("\n") + "\n",
    );
    const call = (input: Record<string, unknown>) => ({
      operation: "entity.bulk-import",
      arguments: { csvFile: "entities.csv", batchSize: 50, ...input },
    });
    const task = await startTask(client, "invoke_operation", call({}));
    const deadline = Date.now() + 20_000;
    while (await completedBatches(`${root}/entities.csv.govcat-checkpoint`) < 2) {
      assert.ok(Date.now() < deadline, "the import made no progress");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await client.experimental.tasks.cancelTask(task.taskId);
    const stopped = await taskResult(client, task.taskId);
    assert.equal(stopped.isError, true);
    assert.match(JSON.stringify(stopped.content), /resume/);

    harness.emulator.faults.set({ latencyMs: 0 });
    const resumed = await startTask(client, "invoke_operation", call({ resume: true }));
    assert.equal((await statusesUntilDone(client, resumed.taskId)).at(-1), "completed");
    const result = await taskResult(client, resumed.taskId);
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal(await stored(harness.catalog, "ds://invoke-task/", rows), rows, "every row in the catalog");
  });
});

Deno.test("closing the server stops its running tasks as cancelled calls stop", async () => {
  await withRoot(async (root, harness) => {
    harness.emulator.faults.set({ latencyMs: 15 });
    await writeAssetsCsv(root, 3_000, "ds://closing/");
    const task = await startTask(harness.client, ASSET_IMPORT.name, ASSET_IMPORT.arguments);
    const deadline = Date.now() + 20_000;
    while (await completedBatches(`${root}/assets.csv.govcat-checkpoint`) < 2) {
      assert.ok(Date.now() < deadline, "the import made no progress");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await harness.app.close();
    const result = await harness.tasks.result("anonymous", task.taskId);
    assert.match(JSON.stringify(result.content), /ImportInterruptedError/);
    assert.equal(harness.tasks.get("anonymous", task.taskId).status, "failed");
  });
});

Deno.test("a client on a new session gets its task's result; an unknown task id is -32602", async () => {
  await withRoot(async (root, harness) => {
    harness.emulator.faults.set({ latencyMs: 10 });
    await writeAssetsCsv(root, ROWS, "ds://again/");
    const first = await harness.connect();
    const task = await startTask(first, ASSET_IMPORT.name, ASSET_IMPORT.arguments);
    await first.close();

    const second = await harness.connect();
    const result = await taskResult(second, task.taskId);
    assert.equal((result.structuredContent as { created: number }).created, ROWS);
    assert.equal((await second.experimental.tasks.getTask(task.taskId)).status, "completed");

    const unknown = await rpcError(second.experimental.tasks.getTask("no-such-task"));
    assert.equal(unknown.code, -32602);
    assert.match(unknown.message, /Task not found: no-such-task\. No task of yours has this id/);
    assert.equal(
      (await rpcError(second.experimental.tasks.getTaskResult("no-such-task", CallToolResultSchema))).code,
      -32602,
    );
  });
});

Deno.test("a task is another signed-in user's to read: not found for them", async () => {
  const h = await startSignedInHarness();
  try {
    const curator = await h.connect(await h.authority.token(CURATOR));
    const reader = await h.connect(await h.authority.token(READER));
    const task = await startTask(curator, "invoke_operation", {
      operation: "types.list-headers",
      arguments: {},
    });
    await taskResult(curator, task.taskId);
    const refused = await rpcError(reader.experimental.tasks.getTask(task.taskId));
    assert.equal(refused.code, -32602);
    assert.equal(
      (await rpcError(reader.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).code,
      -32602,
    );
    assert.equal((await rpcError(reader.experimental.tasks.cancelTask(task.taskId))).code, -32602);
    assert.deepEqual((await reader.experimental.tasks.listTasks()).tasks, []);
    // The curator, on a new session, still reads it.
    const again = await h.connect(await h.authority.token(CURATOR));
    assert.equal((await again.experimental.tasks.getTask(task.taskId)).status, "completed");
  } finally {
    await h.close();
  }
});

Deno.test("a task asked of a tool without task support is refused with -32601", async () => {
  const harness = await startHarness();
  try {
    const error = await rpcError(startTask(harness.client, "search_entities", { query: "customers" }));
    assert.equal(error.code, -32601);
    assert.match(error.message, /search_entities does not run as a task .*call it without "task"/);
    assert.match(error.message, /import_entities_from_csv/);
    assert.equal(harness.tasks.size, 0);
  } finally {
    await harness.close();
  }
});

Deno.test("bounds: a running task too many is refused; a task expires after its ttl (capped)", async () => {
  await withRoot(async (root, harness) => {
    const { client } = harness;
    harness.emulator.faults.set({ latencyMs: 10 });
    await writeAssetsCsv(root, ROWS, "ds://bounds/");
    const task = await startTask(client, ASSET_IMPORT.name, ASSET_IMPORT.arguments, 60_000);
    assert.equal(task.ttl, 1_000, "the requested ttl is capped by the server's maximum");
    const refused = await rpcError(startTask(client, ASSET_IMPORT.name, ASSET_IMPORT.arguments));
    assert.equal(refused.code, -32600);
    assert.match(refused.message, /Too many running tasks: 1 of yours are running, the limit is 1\./);

    // Ended well within its ttl: kept until the ttl is over, then gone.
    await client.experimental.tasks.cancelTask(task.taskId);
    await taskResult(client, task.taskId);
    assert.equal((await client.experimental.tasks.getTask(task.taskId)).status, "cancelled");
    const expiry = Date.parse(task.createdAt) + task.ttl!;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiry - Date.now()) + 50));
    const expired = await rpcError(client.experimental.tasks.getTask(task.taskId));
    assert.equal(expired.code, -32602);
    assert.deepEqual((await client.experimental.tasks.listTasks()).tasks, []);
  }, { tasks: { maxRunningPerOwner: 1, maxTtlMs: 1_000, finishedGraceMs: 0 } });
});

Deno.test("a destructive call run as a task asks the user after the task is answered, then goes on", async () => {
  const asked: Asked[] = [];
  const h = await startHarness({ client: elicitingClient(accept, asked) });
  try {
    // The call's own stream closes with the task: the question must reach the client all the same.
    const task = await startTask(h.client, "batch_update_entities", {
      updates: [{ guid: CUSTOMERS.guid, attributes: { description: "Asked within a task" } }],
    });
    assert.equal(task.status, "working");
    assert.equal((await statusesUntilDone(h.client, task.taskId)).at(-1), "completed");
    assert.ok(!(await taskResult(h.client, task.taskId)).isError);
    assert.equal(asked.length, 1);
    assert.match(asked[0].message, /Asked within a task/);
    assert.equal(await description(h.client, CUSTOMERS.guid), "Asked within a task");
  } finally {
    await h.close();
  }
});
