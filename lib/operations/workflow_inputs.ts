/**
 * What the operations of the `workflow` group share: their input fields (GUIDs checked before anything is
 * sent), the payload files they read (template placeholders refused), and the hints for the service's
 * refusals.
 *
 * @module
 */
import type { WorkflowDefinition } from "../catalog/workflow_types.ts";
import { z } from "../deps/zod.ts";
import { guidField } from "./guid_fields.ts";
import { UsageError } from "../core/errors.ts";
import { findPlaceholder } from "../templates/scan_templates.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import type { OperationContext } from "./types.ts";

export const workflowId = guidField("GUID of the workflow (`workflow list` shows them)");
export const runId = guidField("GUID of the workflow run (`workflow runs` shows them)");
export const taskId = guidField("GUID of the workflow task (`workflow tasks` shows them)");
export const comment = z.string().trim().min(1).optional().describe("A comment the requestor sees");
export const payloadFile = z.string().min(1);

/** Where to look when a workflow, run or task is not found. */
export const NOT_FOUND_HINT = {
  workflow: "Check the id with `govcat workflow list`.",
  run: "Check the id with `govcat workflow runs`.",
  task: "Check the id with `govcat workflow tasks` (a task may be someone else's: try --view-mode mine).",
};

export { hinted } from "./scan_inputs.ts";

const DEFINITION_SHAPE =
  '{"name": ..., "description": ..., "isEnabled": true, "triggers": [{"type": ...}], ' +
  '"actionDag": {"actions": {...}}}';

/** Reads a workflow definition file; its shape is checked here, its actions by the service. */
export async function readWorkflowDefinition(
  ctx: OperationContext,
  path: string,
): Promise<WorkflowDefinition> {
  const payload = await readJsonFile(ctx, path, "--payload-file");
  if (!isPlainObject(payload)) {
    throw payloadError(path, `a workflow ${DEFINITION_SHAPE}`, describeJson(payload));
  }
  if (typeof payload.name !== "string" || payload.name.trim() === "") {
    throw payloadError(path, `a workflow ${DEFINITION_SHAPE}`, "no name");
  }
  if (!Array.isArray(payload.triggers) || payload.triggers.length === 0) {
    throw payloadError(
      path,
      `a workflow ${DEFINITION_SHAPE}`,
      "no triggers",
      'Name at least one trigger, e.g. {"type": "when_term_creation_is_requested"}.',
    );
  }
  if (!isPlainObject(payload.actionDag)) {
    throw payloadError(path, `a workflow ${DEFINITION_SHAPE}`, "no actionDag object");
  }
  refusePlaceholders(path, payload);
  return { description: "", ...payload } as WorkflowDefinition;
}

/** Refuses a payload still holding a template placeholder (`<glossary-guid>`), naming where. */
export function refusePlaceholders(path: string, payload: unknown): void {
  const placeholder = findPlaceholder(payload);
  if (placeholder) {
    throw new UsageError(
      `${path} still has the template placeholder ${placeholder.placeholder} at ${placeholder.path}.`,
      "Replace every value in angle brackets before sending the payload.",
    );
  }
}
