/**
 * What the emulated workflow API checks in a workflow definition (the contract's
 * WorkflowCreateOrUpdateCommand, `purviewWorkflow.json` of Azure.Analytics.Purview.Workflow
 * 2023-10-01-preview): a name, `isEnabled`, at least one trigger of a known type with a string scope, and an
 * `actionDag` whose `actions` each have a `type`, whose `runAfter` names sibling actions only, and whose
 * approvals name their approvers (`inputs.parameters.assignedTo`, GUIDs) and an approval type. The contract
 * does not list its checks; these are the ones a run depends on. `validate` answers them as violations,
 * create-or-replace refuses a definition with an error among them.
 *
 * @module
 */
import { isGuid } from "../../core/guid.ts";

/** One finding, in the contract's WorkflowValidationRuleViolation shape. */
export interface Violation {
  severity: "error" | "warning";
  location: { type: "workflow" | "action" | "actionParameter"; actionName?: string; parameterKey?: string };
  message: string;
}

/**
 * The trigger types a workflow may name (the contract's Trigger.type), the emulator's own copy
 * (tests/contract/emulator_lists_test.ts compares it with the contract).
 */
export const TRIGGER_TYPES: readonly string[] = [
  "when_term_creation_is_requested",
  "when_term_deletion_is_requested",
  "when_term_update_is_requested",
  "when_terms_import_is_requested",
  "when_data_access_grant_is_requested",
  "when_asset_update_is_requested",
];

/** Action types that open a task a person must close. */
export const HUMAN_ACTION_TYPES: ReadonlySet<string> = new Set(["Approval", "SimpleTask"]);
const APPROVAL_TYPES = ["PendingOnAny", "PendingOnAll"];

/** Every problem of a definition; empty when it can be stored and run. */
export function workflowViolations(body: Record<string, unknown>): Violation[] {
  const found: Violation[] = [];
  const workflow = (message: string) =>
    found.push({ severity: "error", location: { type: "workflow" }, message });
  if (typeof body.name !== "string" || body.name.trim() === "") workflow("name must be a non-empty string.");
  if (typeof body.isEnabled !== "boolean") workflow("isEnabled must be true or false.");
  if (body.description !== undefined && typeof body.description !== "string") {
    workflow("description must be a string.");
  }
  if (!Array.isArray(body.triggers) || body.triggers.length === 0) {
    workflow(`triggers must be a non-empty array of {"type": "<trigger type>", ...}.`);
  } else {
    body.triggers.forEach((trigger, i) => found.push(...triggerViolations(trigger, i)));
  }
  const dag = body.actionDag;
  if (dag === null || typeof dag !== "object" || Array.isArray(dag)) {
    workflow('actionDag must be an object {"actions": {"<name>": {"type": ..., "runAfter": {...}}}}.');
  } else {
    const actions = (dag as Record<string, unknown>).actions;
    if (!isObject(actions) || Object.keys(actions).length === 0) {
      workflow("actionDag.actions must name at least one action.");
    } else found.push(...actionViolations(actions));
  }
  return found;
}

function triggerViolations(trigger: unknown, index: number): Violation[] {
  const at = `triggers[${index}]`;
  const problem = (message: string): Violation => ({
    severity: "error",
    location: { type: "workflow" },
    message,
  });
  if (!isObject(trigger)) return [problem(`${at} must be an object with a type.`)];
  const problems: Violation[] = [];
  if (!TRIGGER_TYPES.includes(String(trigger.type))) {
    problems.push(
      problem(
        `${at}.type ${JSON.stringify(trigger.type ?? null)} is not one of ${TRIGGER_TYPES.join(", ")}.`,
      ),
    );
  }
  for (const scope of ["underGlossaryHierarchy", "underCollection", "underGlossary"]) {
    if (trigger[scope] !== undefined && typeof trigger[scope] !== "string") {
      problems.push(problem(`${at}.${scope} must be a string.`));
    }
  }
  return problems;
}

/** Problems of one level of actions, and of the levels nested in conditions. */
function actionViolations(actions: Record<string, unknown>): Violation[] {
  const found: Violation[] = [];
  for (const [name, action] of Object.entries(actions)) {
    const problem = (message: string, parameterKey?: string): Violation => ({
      severity: "error",
      location: parameterKey
        ? { type: "actionParameter", actionName: name, parameterKey }
        : { type: "action", actionName: name },
      message,
    });
    if (!isObject(action) || typeof action.type !== "string" || action.type === "") {
      found.push(problem(`Action "${name}" must be an object with a type.`));
      continue;
    }
    const runAfter = action.runAfter ?? {};
    if (!isObject(runAfter)) found.push(problem(`runAfter of "${name}" must be an object.`));
    else {
      for (const before of Object.keys(runAfter)) {
        if (before === name || !(before in actions)) {
          found.push(problem(`"${name}" runs after "${before}", which is not another action at its level.`));
        }
      }
    }
    if (action.type === "Approval" || action.type === "SimpleTask") {
      found.push(...assigneeViolations(action, problem));
    }
    if (isObject(action.actions)) found.push(...actionViolations(action.actions));
    const otherwise = action.else;
    if (isObject(otherwise) && isObject(otherwise.actions)) {
      found.push(...actionViolations(otherwise.actions));
    }
  }
  return found;
}

function assigneeViolations(
  action: Record<string, unknown>,
  problem: (message: string, parameterKey?: string) => Violation,
): Violation[] {
  const parameters = isObject(action.inputs) && isObject(action.inputs.parameters)
    ? action.inputs.parameters
    : {};
  const found: Violation[] = [];
  const assignedTo = parameters.assignedTo;
  if (!Array.isArray(assignedTo) || assignedTo.length === 0) {
    found.push(problem("assignedTo must name at least one approver (a principal object id).", "assignedTo"));
  } else {
    const bad = assignedTo.filter((id) => typeof id !== "string" || !isGuid(id));
    if (bad.length > 0) {
      found.push(
        problem(`assignedTo holds values that are not GUIDs: ${JSON.stringify(bad)}.`, "assignedTo"),
      );
    }
  }
  if (
    action.type === "Approval" && parameters.approvalType !== undefined &&
    !APPROVAL_TYPES.includes(String(parameters.approvalType))
  ) {
    found.push(
      problem(
        `approvalType must be PendingOnAny or PendingOnAll, not ${JSON.stringify(parameters.approvalType)}.`,
        "approvalType",
      ),
    );
  }
  return found;
}

/** True for a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
