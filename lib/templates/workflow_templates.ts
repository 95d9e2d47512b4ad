/**
 * JSON templates of the `workflow` group: a workflow that holds new glossary terms for a steward's approval
 * (`govcat workflow create`) and a user request asking for a new term (`govcat workflow submit`). Shapes of
 * the workflow contract 2023-10-01-preview (WorkflowCreateOrUpdateCommand, UserRequestPayload); values in
 * angle brackets are ids only the user's catalog knows.
 *
 * @module
 */

/** One workflow template (the fields `json_templates.ts` lists). */
export interface WorkflowTemplate {
  name: string;
  summary: string;
  usage: string;
  payload: Record<string, unknown>;
}

const APPROVAL = "Start and wait for an approval";

/** The workflow group's templates, in the order `templates list` shows them. */
export function workflowTemplates(): WorkflowTemplate[] {
  return [
    {
      name: "workflow",
      summary: "A workflow holding new terms of one glossary until a steward approves them",
      usage: "govcat workflow create --payload-file <file>",
      payload: {
        name: "Approve new glossary terms",
        description: "New terms wait for a data steward",
        isEnabled: true,
        triggers: [{
          type: "when_term_creation_is_requested",
          underGlossaryHierarchy: "/glossaries/<glossary-guid>",
        }],
        actionDag: {
          actions: {
            [APPROVAL]: {
              type: "Approval",
              inputs: {
                parameters: {
                  approvalType: "PendingOnAny",
                  title: "Approval request for a new glossary term",
                  // Approvers are Entra ID object ids (GUIDs), never e-mail addresses.
                  assignedTo: ["<approver-object-id>"],
                },
              },
              runAfter: {},
            },
            Condition: {
              type: "If",
              expression: { and: [{ equals: [`@{outputs('${APPROVAL}')['outcome']}`, "Approved"] }] },
              actions: { "Create glossary term": { type: "CreateTerm", runAfter: {} } },
              runAfter: { [APPROVAL]: ["Succeeded"] },
            },
          },
        },
      },
    },
    {
      name: "user-request",
      summary:
        "A user request for a new glossary term; a workflow watching the glossary holds it for approval",
      usage: "govcat workflow submit --payload-file <file>",
      payload: {
        operations: [{
          type: "CreateTerm",
          payload: {
            glossaryTerm: {
              name: "Customer Lifetime Value",
              nickName: "CLV",
              anchor: { glossaryGuid: "<glossary-guid>" },
              status: "Approved",
            },
          },
        }],
        comment: "Needed for the retention dashboard",
      },
    },
  ];
}
