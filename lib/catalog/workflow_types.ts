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
  /** What the workflow reacts to (a WorkflowTriggerType). */
  type: WorkflowTriggerType | string;
  /** `/glossaries/{guid}` or a term below one: requests on terms under it. */
  underGlossaryHierarchy?: string;
  /** A collection name: requests on assets in it. */
  underCollection?: string;
  /** A glossary GUID: requests on terms of it. */
  underGlossary?: string;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A workflow as created or replaced (the contract's WorkflowCreateOrUpdateCommand). */
export interface WorkflowDefinition {
  /** Name of the workflow. */
  name: string;
  /** What the workflow is for ("" when none). */
  description: string;
  /** Whether requests start runs of it. */
  isEnabled: boolean;
  /** The requests it watches. */
  triggers: WorkflowTrigger[];
  /** The actions run for each request: an approval, a condition on its outcome, the change, notices. */
  actionDag?: Record<string, unknown>;
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A stored workflow (the contract's Workflow): its definition, id and who created or changed it when. */
export interface Workflow extends WorkflowDefinition {
  /** GUID of the workflow. */
  id: string;
  /** When the workflow was created. */
  createdTime?: string;
  /** Object id of who created it. */
  createdBy?: string;
  /** When it last changed. */
  lastUpdateTime?: string;
  /** Object id of who last changed it. */
  updatedBy?: string;
}

/** One finding of a workflow validation. */
export interface WorkflowValidationViolation {
  /** `error` (the workflow cannot be stored) or `warning`. */
  severity: "error" | "warning" | string;
  /** Where the problem is: the workflow, an action, or one of its parameters. */
  location: {
    type: "workflow" | "action" | "actionParameter" | string;
    actionName?: string;
    parameterKey?: string;
  };
  /** What is wrong. */
  message: string;
}

/** One change of a user request. */
export interface UserRequestOperation {
  /** The kind of change (a UserRequestOperationType). */
  type: UserRequestOperationType | string;
  /** The change itself, e.g. `{"glossaryTerm": {...}}` for a term. */
  payload: Record<string, unknown>;
  /** Runs the request started for this change (answers only). */
  workflowRunIds?: string[];
}

/** A user request as submitted (the contract's UserRequestPayload). */
export interface UserRequestPayload {
  /** The changes asked for. */
  operations: UserRequestOperation[];
  /** A comment for the approvers or the requestor. */
  comment?: string;
}

/** A submitted user request (the contract's UserRequestResponse). */
export interface UserRequest extends UserRequestPayload {
  /** GUID of the request. */
  requestId: string;
  /** Object id of who asked. */
  requestor: string;
  /** The request's status, following its runs. */
  status: WorkflowRunStatus | string;
}

/** A workflow run (the contract's WorkflowRunMetadata; one run read alone adds actionDag and detail). */
export interface WorkflowRun {
  /** GUID of the run. */
  id: string;
  /** GUID of the workflow. */
  workflowId: string;
  /** When the run started. */
  startTime: string;
  /** Object id of who asked. */
  requestor: string;
  /** GUID of the user request that started it. */
  userRequestId?: string;
  /** The change the run handles: its type, its target (e.g. a term's name) and the change itself. */
  runPayload: { type: string; targetValue: string; payload?: Record<string, unknown> };
  /** The run's status (a WorkflowRunStatus). */
  status: WorkflowRunStatus | string;
  /** When the run ended. */
  endTime?: string;
  /** When the run was canceled. */
  cancelTime?: string;
  /** The comment given when it was canceled. */
  cancelComment?: string;
  /** The actions run for each request (an approval, a condition, the change, notices). */
  actionDag?: Record<string, unknown>;
  /** The run's input and the state of each action (read one run to get it). */
  detail?: { runInput: Record<string, unknown>; actions: Record<string, unknown> };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** An approver's answer on an approval task. */
export interface ApproverResponse {
  /** Approved, Rejected, or Pending while the approver has not replied. */
  reply: "Approved" | "Rejected" | "Pending" | string;
  /** The approver's comment. */
  comment?: string;
  /** When the approver replied. */
  responseTime?: string;
}

/** A workflow task: an approval (approvalDetail) or a simple task (taskDetail). */
export interface WorkflowTask {
  /** Approval or SimpleTask. */
  type: "Approval" | "SimpleTask" | string;
  /** GUID of the task. */
  id: string;
  /** Title shown to the assignees. */
  title?: string;
  /** GUID of the run the task belongs to. */
  workflowRunId: string;
  /** GUID of the workflow. */
  workflowId: string;
  /** Object id of who asked. */
  requestor: string;
  /** When the task was created. */
  createdTime: string;
  /** When the task last changed. */
  lastUpdateTime: string;
  /** The request the task is about: its type, its target and the change itself. */
  payload: { type: string; targetValue: string; payload?: Record<string, unknown> };
  /** An approval's type (PendingOnAny, PendingOnAll), status and each approver's reply. */
  approvalDetail?: {
    approvalType: "PendingOnAny" | "PendingOnAll" | string;
    status: "Pending" | "Approved" | "Rejected" | "Canceled" | string;
    approvers: Record<string, ApproverResponse>;
  };
  /** A simple task's body, assignees, status and history. */
  taskDetail?: {
    taskBody: string;
    assignedTo: string[];
    status: string;
    changeHistory: unknown[];
  };
  /** Fields of newer contract versions, kept as read. */
  [field: string]: unknown;
}

/** A page of a workflow list. */
export interface WorkflowPage<T> {
  /** Items of this page. */
  value: T[];
  /** URL of the next page; absent on the last one. */
  nextLink?: string;
}
