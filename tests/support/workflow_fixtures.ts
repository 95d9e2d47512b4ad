/**
 * Workflow payloads the workflow tests share: a term-creation workflow watching one glossary with one
 * approval, and a user request creating a term in that glossary.
 *
 * @module
 */
import { EMULATOR_USER_ID } from "../../lib/emulator/workflow/caller.ts";

export { EMULATOR_USER_ID };

/** Another principal, for reassignments. */
export const OTHER_USER_ID = "00000000-0000-4000-8000-00000000e002";

/** A workflow that holds term creations in `glossaryGuid` for the approval of `approvers`. */
export function termApprovalWorkflow(glossaryGuid: string, approvers: string[] = [EMULATOR_USER_ID]) {
  return {
    name: "Approve new terms",
    description: "New terms of the glossary wait for a steward",
    isEnabled: true,
    triggers: [{
      type: "when_term_creation_is_requested",
      underGlossaryHierarchy: `/glossaries/${glossaryGuid}`,
    }],
    actionDag: {
      actions: {
        "Start and wait for an approval": {
          type: "Approval",
          inputs: { parameters: { approvalType: "PendingOnAny", title: "New term", assignedTo: approvers } },
          runAfter: {},
        },
        Condition: {
          type: "If",
          expression: {
            and: [{ equals: ["@{outputs('Start and wait for an approval')['outcome']}", "Approved"] }],
          },
          actions: { "Create glossary term": { type: "CreateTerm", runAfter: {} } },
          runAfter: { "Start and wait for an approval": ["Succeeded"] },
        },
      },
    },
  };
}

/** A user request creating the term `name` in `glossaryGuid`. */
export function createTermRequest(glossaryGuid: string, name: string) {
  return {
    operations: [{
      type: "CreateTerm",
      payload: { glossaryTerm: { name, anchor: { glossaryGuid }, status: "Approved" } },
    }],
    comment: `Please add ${name}`,
  };
}
