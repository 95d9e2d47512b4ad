/**
 * Shapes of the workflow API (2023-10-01-preview; contract
 * `rest-specs/specification/purview/data-plane/Azure.Analytics.Purview.Workflow/preview/2023-10-01-preview/purviewWorkflow.json`):
 * workflows, user requests, workflow runs and workflow tasks (approvals and simple tasks). Every shape keeps
 * the fields a newer service adds.
 *
 * @module
 */

/** What a workflow reacts to (the contract's Trigger.type). */
export type WorkflowTriggerType =
  | "when_term_creation_is_requested"
  | "when_term_deletion_is_requested"
  | "when_term_update_is_requested"
  | "when_terms_import_is_requested"
  | "when_data_access_grant_is_requested"
  | "when_asset_update_is_requested";

/** Every trigger type, in the contract's order. */
export const WORKFLOW_TRIGGER_TYPES: readonly WorkflowTriggerType[] = [
  "when_term_creation_is_requested",
  "when_term_deletion_is_requested",
  "when_term_update_is_requested",
  "when_terms_import_is_requested",
  "when_data_access_grant_is_requested",
  "when_asset_update_is_requested",
];

/** A change a user request asks for (the contract's OperationType). */
export type UserRequestOperationType =
  | "CreateTerm"
  | "UpdateTerm"
  | "DeleteTerm"
  | "ImportTerms"
  | "UpdateAsset"
  | "GrantDataAccess";

/** The status of a run or a user request (the contract's Status). */
export type WorkflowRunStatus =
  | "NotStarted"
  | "InProgress"
  | "Failed"
  | "Completed"
  | "Canceling"
  | "CancellationFailed"
  | "Canceled";

/** Every run status, in the contract's order. */
export const WORKFLOW_RUN_STATUSES: readonly WorkflowRunStatus[] = [
  "InProgress",
  "Failed",
  "Completed",
  "NotStarted",
  "Canceling",
  "CancellationFailed",
  "Canceled",
];

/** Every task status the task list filters on (the contract's taskStatuses). */
export const WORKFLOW_TASK_STATUSES = [
  "Pending",
  "Approved",
  "Rejected",
  "Canceled",
  "NotStarted",
  "InProgress",
  "Completed",
] as const;

/** What a simple task's status may be set to (the contract's TaskUpdateCommand.newStatus). */
export const SIMPLE_TASK_STATUSES = ["NotStarted", "InProgress", "Completed", "Canceled"] as const;

/** A trigger of a workflow: its type and the scope it watches. */
export interface WorkflowTrigger {
  type: WorkflowTriggerType | string;
  /** `/glossaries/{guid}` or a term below one: requests on terms under it. */
  underGlossaryHierarchy?: string;
  /** A collection name: requests on assets in it. */
  underCollection?: string;
  /** A glossary GUID: requests on terms of it. */
  underGlossary?: string;
  [field: string]: unknown;
}

/** A workflow as created or replaced (the contract's WorkflowCreateOrUpdateCommand). */
export interface WorkflowDefinition {
  name: string;
  description: string;
  isEnabled: boolean;
  triggers: WorkflowTrigger[];
  /** The actions run for each request: an approval, a condition on its outcome, the change, notices. */
  actionDag?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A stored workflow (the contract's Workflow): its definition, id and who created or changed it when. */
export interface Workflow extends WorkflowDefinition {
  id: string;
  createdTime?: string;
  createdBy?: string;
  lastUpdateTime?: string;
  updatedBy?: string;
}

/** One finding of a workflow validation. */
export interface WorkflowValidationViolation {
  severity: "error" | "warning" | string;
  location: {
    type: "workflow" | "action" | "actionParameter" | string;
    actionName?: string;
    parameterKey?: string;
  };
  message: string;
}

/** One change of a user request. */
export interface UserRequestOperation {
  type: UserRequestOperationType | string;
  /** The change itself, e.g. `{"glossaryTerm": {...}}` for a term. */
  payload: Record<string, unknown>;
  /** Runs the request started for this change (answers only). */
  workflowRunIds?: string[];
}

/** A user request as submitted (the contract's UserRequestPayload). */
export interface UserRequestPayload {
  operations: UserRequestOperation[];
  comment?: string;
}

/** A submitted user request (the contract's UserRequestResponse). */
export interface UserRequest extends UserRequestPayload {
  requestId: string;
  requestor: string;
  status: WorkflowRunStatus | string;
}

/** A workflow run (the contract's WorkflowRunMetadata; one run read alone adds actionDag and detail). */
export interface WorkflowRun {
  id: string;
  workflowId: string;
  startTime: string;
  requestor: string;
  userRequestId?: string;
  runPayload: { type: string; targetValue: string; payload?: Record<string, unknown> };
  status: WorkflowRunStatus | string;
  endTime?: string;
  cancelTime?: string;
  cancelComment?: string;
  actionDag?: Record<string, unknown>;
  detail?: { runInput: Record<string, unknown>; actions: Record<string, unknown> };
  [field: string]: unknown;
}

/** An approver's answer on an approval task. */
export interface ApproverResponse {
  reply: "Approved" | "Rejected" | "Pending" | string;
  comment?: string;
  responseTime?: string;
}

/** A workflow task: an approval (approvalDetail) or a simple task (taskDetail). */
export interface WorkflowTask {
  type: "Approval" | "SimpleTask" | string;
  id: string;
  title?: string;
  workflowRunId: string;
  workflowId: string;
  requestor: string;
  createdTime: string;
  lastUpdateTime: string;
  payload: { type: string; targetValue: string; payload?: Record<string, unknown> };
  approvalDetail?: {
    approvalType: "PendingOnAny" | "PendingOnAll" | string;
    status: "Pending" | "Approved" | "Rejected" | "Canceled" | string;
    approvers: Record<string, ApproverResponse>;
  };
  taskDetail?: {
    taskBody: string;
    assignedTo: string[];
    status: string;
    changeHistory: unknown[];
  };
  [field: string]: unknown;
}

/** A page of a workflow list. */
export interface WorkflowPage<T> {
  value: T[];
  nextLink?: string;
}
