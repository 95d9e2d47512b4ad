/**
 * The filters of the emulated workflow run and task lists (WorkflowRuns_List, WorkflowTasks_List of the
 * workflow contract 2023-10-01-preview). Array filters are read comma-separated (Swagger's default `csv`)
 * and repeated alike. Runs: `viewMode` `mine` (the caller's requests) or `admin` (all, the default),
 * `timeWindow`, `runStatuses`, `workflowIds`, `requestors`, `orderby` (`startTime desc` by default).
 * Tasks: `viewMode` `received` (the caller is an assignee), `sent` (the caller requested it), `history`
 * (closed, the caller either), `mine` (the caller either), `taskTypes`, `taskStatuses`, `requestors`,
 * `assignees`, `workflowIds`, `workflowNameKeyword`, `timeWindow`, `orderby` (`createdTime desc` by
 * default). `maxpagesize` pages with a `nextLink` (`$skipToken`, an offset; the contract leaves its form
 * open).
 *
 * @module
 */
import { EmulatorError } from "../errors.ts";
import { outcome } from "./tasks.ts";
import type { WorkflowStore } from "./store.ts";

type Json = Record<string, unknown>;

const WINDOW_DAYS: Record<string, number> = { "1d": 1, "7d": 7, "30d": 30, "90d": 90 };
const DEFAULT_PAGE = 100;

/** One page of the runs the query selects. */
export function runsPage(store: WorkflowStore, url: URL, caller: string, now: number): Json {
  const q = url.searchParams;
  const mode = oneOf(q, "viewMode", ["mine", "admin"]);
  const statuses = listParam(q, "runStatuses");
  const workflows = lower(listParam(q, "workflowIds"));
  const requestors = lower(listParam(q, "requestors"));
  const since = windowStart(q, now);
  const runs = store.list<Json>("run").filter((run) =>
    (mode !== "mine" || run.requestor === caller) &&
    (!statuses || statuses.includes(String(run.status))) &&
    (!workflows || workflows.includes(String(run.workflowId).toLowerCase())) &&
    (!requestors || requestors.includes(String(run.requestor).toLowerCase())) &&
    Date.parse(String(run.startTime)) >= since
  ).map(({ actionDag: _dag, detail: _detail, ...metadata }) => {
    const { payload: _payload, ...runPayload } = metadata.runPayload as Json;
    return { ...metadata, runPayload };
  });
  return page(sorted(runs, q, "startTime"), url);
}

/** One page of the tasks the query selects. */
export function tasksPage(store: WorkflowStore, url: URL, caller: string, now: number): Json {
  const q = url.searchParams;
  const mode = oneOf(q, "viewMode", ["sent", "received", "history", "mine"]);
  const types = lower(listParam(q, "taskTypes"));
  const statuses = listParam(q, "taskStatuses");
  const workflows = lower(listParam(q, "workflowIds"));
  const requestors = lower(listParam(q, "requestors"));
  const assignees = lower(listParam(q, "assignees"));
  const keyword = q.get("workflowNameKeyword")?.toLowerCase();
  const since = windowStart(q, now);
  const names = new Map(store.list<Json>("workflow").map((w) => [w.id, String(w.name).toLowerCase()]));
  const tasks = store.list<Json>("task").filter((task) => {
    const assigned = assigneesOf(task);
    const requested = task.requestor === caller;
    const open = ["Pending", "NotStarted", "InProgress"].includes(outcome(task));
    const inView = mode === "received"
      ? assigned.includes(caller)
      : mode === "sent"
      ? requested
      : mode === "history"
      ? !open && (requested || assigned.includes(caller))
      : mode === "mine"
      ? requested || assigned.includes(caller)
      : true;
    return inView &&
      (!types || types.includes(String(task.type).toLowerCase())) &&
      (!statuses || statuses.includes(outcome(task))) &&
      (!workflows || workflows.includes(String(task.workflowId).toLowerCase())) &&
      (!requestors || requestors.includes(String(task.requestor).toLowerCase())) &&
      (!assignees || assigned.some((id) => assignees.includes(id))) &&
      (!keyword || (names.get(task.workflowId) ?? "").includes(keyword)) &&
      Date.parse(String(task.createdTime)) >= since;
  });
  return page(sorted(tasks, q, "createdTime"), url);
}

/** Who a task waits on: an approval's approvers, a simple task's assignees. */
export function assigneesOf(task: Json): string[] {
  if (task.approvalDetail) return Object.keys((task.approvalDetail as Json).approvers as Json);
  return ((task.taskDetail as Json)?.assignedTo as string[]) ?? [];
}

function sorted(items: Json[], q: URLSearchParams, defaultField: string): Json[] {
  const orderby = (q.get("orderby") ?? `${defaultField} desc`).trim().split(/\s+/);
  const field = orderby[0];
  const descending = (orderby[1] ?? "asc").toLowerCase() === "desc";
  return [...items].sort((a, b) => {
    const order = String(a[field] ?? "").localeCompare(String(b[field] ?? ""));
    return descending ? -order : order;
  });
}

function page(items: Json[], url: URL): Json {
  const size = positiveInt(url.searchParams, "maxpagesize") ?? DEFAULT_PAGE;
  const offset = positiveInt(url.searchParams, "$skipToken") ?? 0;
  const answer: Json = { value: items.slice(offset, offset + size) };
  if (offset + size < items.length) {
    const next = new URL(url);
    next.searchParams.set("$skipToken", String(offset + size));
    answer.nextLink = next.toString();
  }
  return answer;
}

function listParam(q: URLSearchParams, name: string): string[] | undefined {
  const values = q.getAll(name).flatMap((value) => value.split(",")).map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}

function lower(values: string[] | undefined): string[] | undefined {
  return values?.map((value) => value.toLowerCase());
}

function oneOf(q: URLSearchParams, name: string, allowed: string[]): string | undefined {
  const value = q.get(name) ?? undefined;
  if (value !== undefined && !allowed.includes(value)) {
    throw new EmulatorError(
      400,
      "InvalidQueryParameter",
      `${name} must be one of ${allowed.join(", ")}, not "${value}".`,
      {
        target: name,
      },
    );
  }
  return value;
}

function windowStart(q: URLSearchParams, now: number): number {
  const window = oneOf(q, "timeWindow", Object.keys(WINDOW_DAYS));
  return window ? now - WINDOW_DAYS[window] * 86_400_000 : -Infinity;
}

function positiveInt(q: URLSearchParams, name: string): number | undefined {
  const text = q.get(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < (name === "$skipToken" ? 0 : 1)) {
    throw new EmulatorError(
      400,
      "InvalidQueryParameter",
      `${name} must be a positive whole number, not "${text}".`,
      {
        target: name,
      },
    );
  }
  return value;
}
