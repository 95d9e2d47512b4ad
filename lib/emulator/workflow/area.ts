/**
 * The workflow area (api-version 2023-10-01-preview; contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/purviewWorkflow.json`,
 * basePath `/workflow`), mounted without a prefix: workflows (list, get, create or replace, delete,
 * validate), user requests (submit), workflow runs (list, get, cancel) and workflow tasks (list, get,
 * approve, reject, reassign, change a simple task's status). State lives in {@link WorkflowStore}; what a
 * request, an approval or a cancel does is {@link WorkflowEngine}'s. Errors use the contract's
 * `{"error": {code, message, target}}` shape (the server picks it for every `/workflow` path).
 *
 * @module
 */
import type { ApiArea } from "../area.ts";
import { EmulatorError, jsonResponse } from "../errors.ts";
import type { RouteContext, RouteDefinition } from "../router.ts";
import { callerId, EMULATOR_USER_ID } from "./caller.ts";
import { WorkflowEngine } from "./engine.ts";
import { notFound } from "./errors.ts";
import { runsPage, tasksPage } from "./lists.ts";
import { isObject, workflowViolations } from "./shape.ts";
import { isGuid } from "../../core/guid.ts";
import { WorkflowStore } from "./store.ts";

type Json = Record<string, unknown>;

const W = "/workflow/workflows";
const RUNS = "/workflow/workflowruns";
const TASKS = "/workflow/workflowtasks";

/** The workflow API's routes. */
export const workflowArea: ApiArea = (deps) => {
  const store = new WorkflowStore(deps.store.database);
  const engine = new WorkflowEngine(store, deps);
  return [
    ...workflowRoutes(store, () => new Date(deps.now()).toISOString()),
    ...runRoutes(store, engine, deps.now),
    ...taskRoutes(store, engine, deps.now),
  ];
};

/** Workflows: list, get, create or replace, delete, validate. */
function workflowRoutes(store: WorkflowStore, time: () => string): RouteDefinition[] {
  const workflow = (ctx: RouteContext): Json => {
    const id = guidParam(ctx, "workflowId");
    const found = store.get<Json>("workflow", id);
    if (!found) throw notFound("WorkflowNotFound", `There is no workflow ${id}.`);
    return found;
  };
  return [
    {
      method: "GET",
      path: W,
      handler: () => jsonResponse({ value: store.list<Json>("workflow").map(metadata) }),
    },
    { method: "GET", path: `${W}/{workflowId}`, handler: (ctx) => jsonResponse(workflow(ctx)) },
    {
      method: "PUT",
      path: `${W}/{workflowId}`,
      handler: async (ctx) => {
        const id = guidParam(ctx, "workflowId");
        const body = await objectBody(ctx);
        const errors = workflowViolations(body).filter((v) => v.severity === "error");
        if (errors.length > 0) {
          throw new EmulatorError(400, "InvalidWorkflow", errors.map((e) => e.message).join(" "), {
            target: errors[0].location.actionName ?? "workflow",
          });
        }
        const caller = callerId(ctx.request);
        const existing = store.get<Json>("workflow", id);
        const at = time();
        const stored: Json = {
          id,
          triggers: body.triggers,
          createdTime: existing?.createdTime ?? at,
          createdBy: existing?.createdBy ?? caller,
          lastUpdateTime: at,
          updatedBy: caller,
          name: body.name,
          isEnabled: body.isEnabled,
          description: typeof body.description === "string" ? body.description : "",
          actionDag: body.actionDag,
        };
        store.put("workflow", id, stored);
        return jsonResponse(stored);
      },
    },
    {
      method: "DELETE",
      path: `${W}/{workflowId}`,
      handler: (ctx) => {
        const id = guidParam(ctx, "workflowId");
        if (!store.remove("workflow", id)) throw notFound("WorkflowNotFound", `There is no workflow ${id}.`);
        return new Response(null, { status: 204 });
      },
    },
    {
      method: "POST",
      path: `${W}/{workflowId}/validate`,
      handler: async (ctx) => {
        guidParam(ctx, "workflowId");
        return jsonResponse({ value: workflowViolations(await objectBody(ctx)) });
      },
    },
  ];
}

/** User requests (submit) and workflow runs: list, get, cancel. */
function runRoutes(store: WorkflowStore, engine: WorkflowEngine, now: () => number): RouteDefinition[] {
  return [
    {
      method: "POST",
      path: "/workflow/userrequests",
      handler: async (ctx) => jsonResponse(engine.submit(await objectBody(ctx), callerId(ctx.request))),
    },
    {
      method: "GET",
      path: RUNS,
      handler: (ctx) => jsonResponse(runsPage(store, ctx.url, callerId(ctx.request), now())),
    },
    {
      method: "GET",
      path: `${RUNS}/{workflowRunId}`,
      handler: (ctx) => {
        const id = guidParam(ctx, "workflowRunId");
        const run = store.get<Json>("run", id);
        if (!run) throw notFound("WorkflowRunNotFound", `There is no workflow run ${id}.`);
        return jsonResponse(run);
      },
    },
    {
      method: "POST",
      path: `${RUNS}/{workflowRunId}/cancel`,
      handler: async (ctx) => {
        const body = await optionalBody(ctx);
        engine.cancel(guidParam(ctx, "workflowRunId"), optionalComment(body));
        return empty();
      },
    },
  ];
}

/** Workflow tasks: list, get, approve, reject, reassign, change a simple task's status. */
function taskRoutes(store: WorkflowStore, engine: WorkflowEngine, now: () => number): RouteDefinition[] {
  return [
    {
      method: "GET",
      path: TASKS,
      handler: (ctx) => jsonResponse(tasksPage(store, ctx.url, callerId(ctx.request), now())),
    },
    {
      method: "GET",
      path: `${TASKS}/{taskId}`,
      handler: (ctx) => {
        const id = guidParam(ctx, "taskId");
        const task = store.get<Json>("task", id);
        if (!task) throw notFound("WorkflowTaskNotFound", `There is no workflow task ${id}.`);
        return jsonResponse(task);
      },
    },
    ...(["approve", "reject"] as const).map((verb): RouteDefinition => ({
      method: "POST",
      path: `${TASKS}/{taskId}/${verb}-approval`,
      handler: async (ctx) => {
        const body = await optionalBody(ctx);
        const reply = verb === "approve" ? "Approved" : "Rejected";
        engine.decide(guidParam(ctx, "taskId"), callerId(ctx.request), reply, optionalComment(body));
        return empty();
      },
    })),
    {
      method: "POST",
      path: `${TASKS}/{taskId}/reassign`,
      handler: async (ctx) => {
        engine.reassign(guidParam(ctx, "taskId"), await objectBody(ctx));
        return empty();
      },
    },
    {
      method: "POST",
      path: `${TASKS}/{taskId}/change-task-status`,
      handler: async (ctx) => {
        engine.changeStatus(guidParam(ctx, "taskId"), callerId(ctx.request), await objectBody(ctx));
        return empty();
      },
    },
  ];
}

export { EMULATOR_USER_ID };

/** A workflow as the list shows it: without its action DAG (the contract's WorkflowMetadata). */
function metadata(workflow: Json): Json {
  const { actionDag: _dag, ...rest } = workflow;
  return rest;
}

/** The contract's 200 without a body. */
function empty(): Response {
  return new Response(null, { status: 200 });
}

function guidParam(ctx: RouteContext, name: string): string {
  const value = ctx.params[name];
  if (!isGuid(value)) {
    throw new EmulatorError(400, "InvalidId", `${name} must be a GUID, not ${JSON.stringify(value)}.`, {
      target: name,
    });
  }
  return value.toLowerCase();
}

async function objectBody(ctx: RouteContext): Promise<Json> {
  const body = await ctx.readJson();
  if (!isObject(body)) {
    throw new EmulatorError(400, "InvalidRequestBody", "The request body must be a JSON object.");
  }
  return body;
}

/** A body the contract makes optional (a comment): empty is `{}`. */
async function optionalBody(ctx: RouteContext): Promise<Json> {
  const text = await ctx.request.text();
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EmulatorError(
      400,
      "InvalidRequestBody",
      `The request body is not valid JSON: ${(error as Error).message}`,
    );
  }
  if (!isObject(value)) {
    throw new EmulatorError(
      400,
      "InvalidRequestBody",
      'The request body must be a JSON object, e.g. {"comment": "..."}.',
    );
  }
  return value;
}

function optionalComment(body: Json): string | undefined {
  if (body.comment === undefined || body.comment === null) return undefined;
  if (typeof body.comment !== "string") {
    throw new EmulatorError(400, "InvalidRequestBody", "comment must be a string.", { target: "comment" });
  }
  return body.comment;
}
