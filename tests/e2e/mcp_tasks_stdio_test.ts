/**
 * Tasks over stdio: an SDK client launches `govcat serve --emulator` and calls the long tools as tasks
 * with the SDK's own task client (`callToolStream`: the task, its statuses, the result), as a host would.
 */
import assert from "node:assert/strict";
import { type CallToolResult, CallToolResultSchema, loadMcpClientSdk } from "../../lib/deps/mcp_sdk.ts";
import { ASSET_IMPORT, writeAssetsCsv } from "../support/asset_import.ts";
import { baseEnv, MAIN } from "../support/govcat_process.ts";

const PERMISSIONS = ["--allow-net=127.0.0.1", "--allow-env", "--allow-read", "--allow-write"];
const ROWS = 400;

Deno.test("stdio: import_entities_from_csv and batch_create_entities run as tasks, listed and read back", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "govcat-stdio-tasks-" }));
  const { Client, StdioClientTransport } = await loadMcpClientSdk();
  const client = new Client({ name: "stdio-tasks", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", ...PERMISSIONS, MAIN, "serve", "--emulator"],
      env: { ...baseEnv(), CATALOG_MCP_FILE_ROOT: root },
      stderr: "pipe",
    }),
  );
  try {
    assert.ok(client.getServerCapabilities()?.tasks?.requests?.tools?.call, "tasks are declared");
    await writeAssetsCsv(root, ROWS, "ds://stdio-task/");
    const messages: Array<{ type: string; task?: { taskId: string; status: string }; result?: unknown }> = [];
    for await (
      const message of client.experimental.tasks.callToolStream(ASSET_IMPORT, CallToolResultSchema, {
        task: { ttl: 60_000 },
      })
    ) messages.push(message as (typeof messages)[number]);
    assert.equal(messages[0].type, "taskCreated", JSON.stringify(messages[0]));
    const taskId = messages[0].task!.taskId;
    assert.equal(messages.at(-2)?.task?.status, "completed");
    assert.equal(messages.at(-1)?.type, "result", JSON.stringify(messages.at(-1)));
    const result = messages.at(-1)!.result as CallToolResult;
    assert.equal((result.structuredContent as { created: number }).created, ROWS);
    assert.deepEqual(result._meta?.["io.modelcontextprotocol/related-task"], { taskId });

    const batch = client.experimental.tasks.callToolStream(
      {
        name: "batch_create_entities",
        arguments: {
          entities: [{ type_name: "DataSet", qualified_name: "ds://stdio-task/batch", name: "Batch" }],
        },
      },
      CallToolResultSchema,
      { task: {} },
    );
    let batchResult: CallToolResult | undefined;
    for await (const message of batch) {
      if (message.type === "result") batchResult = message.result as CallToolResult;
    }
    assert.equal(
      (batchResult?.structuredContent as { created: number }).created,
      1,
      JSON.stringify(batchResult),
    );

    const { tasks } = await client.experimental.tasks.listTasks();
    assert.equal(tasks.length, 2);
    assert.equal(tasks[0].taskId, taskId);
    assert.deepEqual(tasks.map((t) => t.status), ["completed", "completed"]);
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
  }
});
