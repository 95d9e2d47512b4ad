/**
 * The process's task store on its own: held tasks are bounded (the oldest finished dropped, a store full
 * of running tasks refuses), tasks/list pages with opaque cursors and refuses one it did not issue, a
 * cancelled task stays cancelled whatever its job ends with, and a tool's error result fails its task.
 */
import assert from "node:assert/strict";
import type { CallToolResult } from "../../../../lib/deps/mcp_sdk.ts";
import { TASK_LIMITS, TaskStore } from "../../../../lib/mcp/tasks/task_store.ts";

const OK: CallToolResult = { content: [{ type: "text", text: "{}" }], structuredContent: {} };

/** A job that ends when the test says so. */
function heldJob() {
  let finish: (result: CallToolResult) => void = () => {};
  const ended = new Promise<CallToolResult>((resolve) => finish = resolve);
  let signal: AbortSignal | undefined;
  return {
    run: (s: AbortSignal) => {
      signal = s;
      return ended;
    },
    finish: (result: CallToolResult = OK) => finish(result),
    aborted: () => signal?.aborted,
  };
}

/** The JSON-RPC error (code and message) `action` throws. */
function refusal(action: () => unknown): Error & { code: number } {
  try {
    action();
  } catch (error) {
    assert.ok(
      error instanceof Error && typeof (error as { code?: unknown }).code === "number",
      String(error),
    );
    return error as Error & { code: number };
  }
  assert.fail("expected a refusal");
}

Deno.test("held tasks are bounded: the oldest finished goes first; a store full of running ones refuses", async () => {
  const store = new TaskStore({ maxTasks: 3, maxRunningPerOwner: 10 });
  const jobs = [heldJob(), heldJob(), heldJob()];
  const tasks = jobs.map((job) => store.create("me", undefined, job.run));
  const full = refusal(() => store.create("me", undefined, heldJob().run));
  assert.equal(full.code, -32600);
  assert.match(full.message, /holds 3 tasks, all running \(the limit is 3\)/);

  jobs[1].finish();
  jobs[0].finish();
  await store.result("me", tasks[0].taskId);
  await store.result("me", tasks[1].taskId);
  const fourth = store.create("me", undefined, heldJob().run);
  assert.equal(store.size, 3);
  // The first created of the finished ones went.
  assert.equal(refusal(() => store.get("me", tasks[0].taskId)).code, -32602);
  assert.equal(store.get("me", tasks[1].taskId).status, "completed");
  assert.equal(store.get("me", fourth.taskId).status, "working");
  store.abortAll();
});

Deno.test("tasks/list pages with its own cursors, only the owner's tasks", () => {
  const store = new TaskStore({ pageSize: 2, maxRunningPerOwner: 10 });
  const mine = Array.from({ length: 5 }, () => store.create("me", undefined, heldJob().run).taskId);
  store.create("someone else", undefined, heldJob().run);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = store.list("me", cursor);
    assert.ok(page.tasks.length <= 2);
    seen.push(...page.tasks.map((t) => t.taskId));
    cursor = page.nextCursor;
  } while (cursor);
  assert.deepEqual(seen, mine);
  const invalid = refusal(() => store.list("me", "not a cursor!"));
  assert.equal(invalid.code, -32602);
  assert.match(invalid.message, /Invalid cursor "not a cursor!": pass a nextCursor/);
  store.abortAll();
});

Deno.test("a cancelled task stays cancelled; an error result fails a task with its message", async () => {
  const store = new TaskStore();
  const job = heldJob();
  const task = store.create("me", undefined, job.run);
  assert.equal(store.cancel("me", task.taskId).status, "cancelled");
  assert.equal(job.aborted(), true, "the job's signal is aborted");
  job.finish();
  await store.result("me", task.taskId);
  assert.equal(store.get("me", task.taskId).status, "cancelled");

  const failing = heldJob();
  const failed = store.create("me", undefined, failing.run);
  failing.finish({
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ error: "NotFound", message: "No such entity." }) }],
  });
  const result = await store.result("me", failed.taskId);
  assert.equal(result.isError, true);
  const state = store.get("me", failed.taskId);
  assert.equal(state.status, "failed");
  assert.equal(state.statusMessage, "NotFound: No such entity.");
});

Deno.test("the tasks limits table of docs/mcp-server.md says the server's limits", async () => {
  const page = await Deno.readTextFile(new URL("../../../../docs/mcp-server.md", import.meta.url));
  const table = page.slice(page.indexOf("| Tasks limit"));
  const value = (row: string) => table.match(new RegExp(`\\| ${row}[^|]*\\| ([^|]+) \\|`))?.[1].trim();
  assert.equal(value("Tasks held by the process"), String(TASK_LIMITS.maxTasks));
  assert.equal(value("Tasks of one caller running at once"), String(TASK_LIMITS.maxRunningPerOwner));
  assert.equal(value("A task's lifetime from its creation"), `${TASK_LIMITS.defaultTtlMs / 3_600_000} h`);
  assert.equal(value("Longest `ttl`"), `${TASK_LIMITS.maxTtlMs / 3_600_000} h`);
  assert.equal(
    value("A task still running when its `ttl` is over"),
    `${TASK_LIMITS.finishedGraceMs / 1000} s`,
  );
  assert.equal(value("Polling interval suggested"), `${TASK_LIMITS.pollIntervalMs / 1000} s`);
  assert.match(page, /tasks\/list` pages the caller's tasks \(20 a page/);
  assert.equal(TASK_LIMITS.pageSize, 20);
});
