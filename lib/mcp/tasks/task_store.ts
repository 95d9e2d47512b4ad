/**
 * The tasks of one server process (MCP 2025-11-25 tasks): a long tool call accepted as a task runs on after
 * its `tools/call` is answered, and any session of the same principal — a client that disconnected and
 * came back — reads its state and its result by task id. State is bounded: at most `maxTasks` held (the
 * oldest finished dropped first), at most `maxRunningPerOwner` running per principal (a further one is
 * refused), and every task expires `ttl` after its creation (the requested ttl, capped by `maxTtlMs`); a
 * task still running then is kept until it ends and `finishedGraceMs` more, so its result is not lost.
 *
 * A task belongs to the principal that created it (the signed-in user of an HTTP session, or the one
 * anonymous principal of a server without sign-in): another principal is told it does not exist.
 *
 * @module
 */
import { type CallToolResult, ErrorCode, type Task } from "../../deps/mcp_sdk.ts";
import { protocolError } from "../protocol_errors.ts";

/** The bounds of a process's tasks; {@link TASK_LIMITS} are the server's, documented in docs/mcp-server.md. */
export interface TaskLimits {
  /** Tasks held at once, running and finished. */
  maxTasks: number;
  /** Tasks of one principal running at once. */
  maxRunningPerOwner: number;
  /** A task's lifetime when the request names none (ms from creation). */
  defaultTtlMs: number;
  /** The longest lifetime a request may ask for (ms from creation). */
  maxTtlMs: number;
  /** How long a task that outlived its ttl is kept after it ends (ms). */
  finishedGraceMs: number;
  /** The polling interval suggested to clients (ms). */
  pollIntervalMs: number;
  /** Tasks in one tasks/list page. */
  pageSize: number;
}

export const TASK_LIMITS: TaskLimits = {
  maxTasks: 100,
  maxRunningPerOwner: 5,
  defaultTtlMs: 60 * 60_000,
  maxTtlMs: 24 * 60 * 60_000,
  finishedGraceMs: 60_000,
  pollIntervalMs: 1_000,
  pageSize: 20,
};

/** What a task's job ended with: the tool's result, or the JSON-RPC error the call would have answered. */
type Outcome = { result: CallToolResult } | { error: unknown };

interface Entry {
  task: Task;
  owner: string;
  /** Creation order, for tasks/list cursors. */
  seq: number;
  controller: AbortController;
  expiresAt: number;
  /** When the job ended; undefined while it runs. */
  endedAt?: number;
  outcome?: Outcome;
  ended: Promise<void>;
  onStatus?: (task: Task) => void;
}

/** The key of `io.modelcontextprotocol/related-task` metadata. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

const TERMINAL = new Set<Task["status"]>(["completed", "failed", "cancelled"]);

export class TaskStore {
  readonly limits: TaskLimits;
  readonly #entries = new Map<string, Entry>();
  #seq = 0;

  constructor(limits: Partial<TaskLimits> = {}) {
    this.limits = { ...TASK_LIMITS, ...limits };
  }

  /**
   * Accepts a job as a task of `owner` and starts it: `run` gets the task's signal, aborted by tasks/cancel.
   * Refused (JSON-RPC -32600) when `owner` has too many running or the store is full of running tasks.
   */
  create(
    owner: string,
    requestedTtl: number | null | undefined,
    run: (signal: AbortSignal) => Promise<CallToolResult>,
    onStatus?: (task: Task) => void,
  ): Task {
    this.#purge();
    const running = [...this.#entries.values()].filter((e) => e.owner === owner && !e.endedAt).length;
    if (running >= this.limits.maxRunningPerOwner) {
      throw protocolError(
        ErrorCode.InvalidRequest,
        `Too many running tasks: ${running} of yours are running, the limit is ` +
          `${this.limits.maxRunningPerOwner}. Wait for one to end (tasks/get, tasks/result), cancel one ` +
          "(tasks/cancel), or make this call without a task.",
      );
    }
    this.#makeRoom();
    const now = Date.now();
    const ttl = Math.min(requestedTtl ?? this.limits.defaultTtlMs, this.limits.maxTtlMs);
    const task: Task = {
      taskId: crypto.randomUUID(),
      status: "working",
      ttl,
      createdAt: new Date(now).toISOString(),
      lastUpdatedAt: new Date(now).toISOString(),
      pollInterval: this.limits.pollIntervalMs,
    };
    const controller = new AbortController();
    const entry: Entry = {
      task,
      owner,
      seq: ++this.#seq,
      controller,
      expiresAt: now + ttl,
      ended: Promise.resolve(),
      onStatus,
    };
    entry.ended = run(controller.signal).then(
      (result) => this.#end(entry, { result }),
      (error) => this.#end(entry, { error }),
    );
    this.#entries.set(task.taskId, entry);
    return { ...task };
  }

  /** The task `taskId` of `owner` (tasks/get). */
  get(owner: string, taskId: string): Task {
    return { ...this.#entry(owner, taskId).task };
  }

  /**
   * The result of `owner`'s task `taskId` once its job has ended (tasks/result): what the call would have
   * answered, with the related-task metadata; a call that failed with a JSON-RPC error throws it.
   */
  async result(owner: string, taskId: string, signal?: AbortSignal): Promise<CallToolResult> {
    const entry = this.#entry(owner, taskId);
    if (!entry.outcome) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(protocolError(ErrorCode.RequestTimeout, "tasks/result was cancelled"));
        if (signal?.aborted) return stop();
        signal?.addEventListener("abort", stop, { once: true });
        entry.ended.then(() => {
          signal?.removeEventListener("abort", stop);
          resolve();
        });
      });
    }
    const outcome = entry.outcome!;
    if ("error" in outcome) throw outcome.error;
    const { result } = outcome;
    return { ...result, _meta: { ...result._meta, [RELATED_TASK]: { taskId } } };
  }

  /** `owner`'s tasks, oldest first, one page from `cursor` (tasks/list). */
  list(owner: string, cursor?: string): { tasks: Task[]; nextCursor?: string } {
    this.#purge();
    let after = 0;
    if (cursor !== undefined) {
      after = Number.parseInt(cursor, 36);
      if (!/^[0-9a-z]+$/.test(cursor) || !Number.isSafeInteger(after)) {
        throw protocolError(
          ErrorCode.InvalidParams,
          `Invalid cursor ${JSON.stringify(cursor)}: pass a nextCursor of an earlier tasks/list answer, or ` +
            "none for the first page.",
        );
      }
    }
    const mine = [...this.#entries.values()].filter((e) => e.owner === owner && e.seq > after);
    const page = mine.slice(0, this.limits.pageSize);
    const more = mine.length > page.length;
    return {
      tasks: page.map((e) => ({ ...e.task })),
      ...(more ? { nextCursor: page[page.length - 1].seq.toString(36) } : {}),
    };
  }

  /** Cancels `owner`'s running task `taskId` (tasks/cancel): its job's signal is aborted. */
  cancel(owner: string, taskId: string): Task {
    const entry = this.#entry(owner, taskId);
    if (TERMINAL.has(entry.task.status)) {
      throw protocolError(
        ErrorCode.InvalidParams,
        `Cannot cancel task ${taskId}: already in terminal status '${entry.task.status}'.`,
      );
    }
    this.#update(
      entry,
      "cancelled",
      "Cancelled by request (tasks/cancel); the job stops as a cancelled call does.",
    );
    entry.controller.abort(new Error("task cancelled"));
    return { ...entry.task };
  }

  /** Aborts every running job (the server is shutting down). */
  abortAll(): void {
    for (const entry of this.#entries.values()) if (!entry.endedAt) entry.controller.abort();
  }

  /** Tasks held, for tests and limits. */
  get size(): number {
    this.#purge();
    return this.#entries.size;
  }

  #entry(owner: string, taskId: string): Entry {
    this.#purge();
    const entry = this.#entries.get(taskId);
    // Another principal's task is reported as missing: its existence is not theirs to learn.
    if (!entry || entry.owner !== owner) {
      throw protocolError(
        ErrorCode.InvalidParams,
        `Task not found: ${taskId}. No task of yours has this id on this server: it may have expired ` +
          "(tasks are kept for their ttl) or been created by another user; tasks/list lists yours.",
      );
    }
    return entry;
  }

  #end(entry: Entry, outcome: Outcome): void {
    entry.outcome = outcome;
    entry.endedAt = Date.now();
    // A cancelled task stays cancelled, whatever its job ended with.
    if (entry.task.status === "cancelled") return;
    if ("error" in outcome) {
      this.#update(entry, "failed", (outcome.error as Error)?.message ?? String(outcome.error));
    } else if (outcome.result.isError) {
      this.#update(entry, "failed", errorMessage(outcome.result));
    } else this.#update(entry, "completed");
  }

  #update(entry: Entry, status: Task["status"], statusMessage?: string): void {
    const { statusMessage: _previous, ...task } = entry.task;
    entry.task = {
      ...task,
      status,
      lastUpdatedAt: new Date().toISOString(),
      ...(statusMessage ? { statusMessage } : {}),
    };
    try {
      entry.onStatus?.({ ...entry.task });
    } catch {
      // A status notification is optional; a session that is gone does not stop the task.
    }
  }

  /** Drops the tasks whose lifetime is over: never one still running. */
  #purge(): void {
    const now = Date.now();
    for (const [id, entry] of this.#entries) {
      if (entry.endedAt === undefined) continue;
      const removeAt = entry.endedAt > entry.expiresAt
        ? entry.endedAt + this.limits.finishedGraceMs
        : entry.expiresAt;
      if (now >= removeAt) this.#entries.delete(id);
    }
  }

  /** Room for one more task: the oldest finished ones go; refused when every held task is running. */
  #makeRoom(): void {
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size < this.limits.maxTasks) return;
      if (entry.endedAt !== undefined) this.#entries.delete(id);
    }
    if (this.#entries.size >= this.limits.maxTasks) {
      throw protocolError(
        ErrorCode.InvalidRequest,
        `This server holds ${this.#entries.size} tasks, all running (the limit is ${this.limits.maxTasks}): ` +
          "wait for one to end, or make this call without a task.",
      );
    }
  }
}

/** The message of an error result (`{"error", "message", "hint"}` as text), for a failed task's status. */
function errorMessage(result: CallToolResult): string {
  const text = result.content.find((c) => c.type === "text")?.text ?? "";
  try {
    const body = JSON.parse(text) as { error?: string; message?: string };
    if (body.message) return body.error ? `${body.error}: ${body.message}` : body.message;
  } catch {
    // Not JSON: the text itself says what failed.
  }
  return text.slice(0, 500) || "The tool call ended with an error result.";
}
