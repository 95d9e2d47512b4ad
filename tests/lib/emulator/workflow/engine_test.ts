/**
 * The emulated workflow API over real HTTP on 127.0.0.1: a term creation a workflow watches becomes a run
 * with an approval task assigned to the workflow's approver; approving creates the term and completes the
 * run, rejecting drops it and fails the run; PendingOnAll waits for every approver; an operation no
 * workflow watches is applied at once; cancel, reassign and a simple task's status.
 */
import assert from "node:assert/strict";
import { call, ok, withEmulator } from "../emulator_test_helpers.ts";
import {
  createTermRequest,
  EMULATOR_USER_ID,
  OTHER_USER_ID,
  termApprovalWorkflow,
} from "../../../support/workflow_fixtures.ts";
import { glossary, held, terms, tokenFor, V, WF, WORKFLOW } from "./test_helpers.ts";

Deno.test("workflow: a held term creation becomes a run and an approval task; approve creates the term", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const { runId, taskId } = await held(emulator, g);
    const task = (await ok(emulator, "GET", `/workflow/workflowtasks/${taskId}?${V}`)).body;
    assert.equal(task.type, "Approval");
    assert.equal(task.workflowRunId, runId);
    assert.deepEqual(task.approvalDetail.approvers, { [EMULATOR_USER_ID]: { reply: "Pending" } });
    assert.equal(task.payload.targetValue, "Revenue");
    assert.deepEqual(await terms(emulator, g), [], "held until approved");

    const approved = await call(emulator, "POST", `/workflow/workflowtasks/${taskId}/approve-approval?${V}`, {
      comment: "Fine",
    });
    assert.equal(approved.status, 200);
    assert.equal(approved.body, undefined);
    assert.deepEqual(await terms(emulator, g), ["Revenue"]);
    const run = (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body;
    assert.equal(run.status, "Completed");
    assert.ok(run.endTime);
    assert.equal(run.detail.actions.change.status, "Succeeded");
    const after = (await ok(emulator, "GET", `/workflow/workflowtasks/${taskId}?${V}`)).body;
    assert.equal(after.approvalDetail.status, "Approved");
    assert.equal(after.approvalDetail.approvers[EMULATOR_USER_ID].comment, "Fine");
    const again = await call(emulator, "POST", `/workflow/workflowtasks/${taskId}/approve-approval?${V}`, {});
    assert.equal(again.status, 409);
  });
});

Deno.test("workflow: reject drops the change and fails the run; the request follows", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const { runId, taskId } = await held(emulator, g);
    await ok(emulator, "POST", `/workflow/workflowtasks/${taskId}/reject-approval?${V}`, { comment: "No" });
    assert.deepEqual(await terms(emulator, g), []);
    const run = (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body;
    assert.equal(run.status, "Failed");
    assert.equal(run.detail.actions.change.status, "Skipped");
    const failed = await ok(emulator, "GET", `/workflow/workflowruns?${V}&runStatuses=Failed`);
    assert.deepEqual(failed.body.value.map((r: { id: string }) => r.id), [runId]);
    const rejected = await ok(emulator, "GET", `/workflow/workflowtasks?${V}&taskStatuses=Rejected`);
    assert.equal(rejected.body.value.length, 1);
  });
});

Deno.test("workflow: only an approver decides; PendingOnAll waits for every approver", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const definition = termApprovalWorkflow(g, [EMULATOR_USER_ID, OTHER_USER_ID]);
    const approval = definition.actionDag.actions["Start and wait for an approval"];
    approval.inputs.parameters.approvalType = "PendingOnAll";
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, definition);
    const submitted = await ok(
      emulator,
      "POST",
      `/workflow/userrequests?${V}`,
      createTermRequest(g, "Margin"),
    );
    const runId = submitted.body.operations[0].workflowRunIds[0];
    const taskId = (await ok(emulator, "GET", `/workflow/workflowtasks?${V}`)).body.value[0].id;
    const stranger = await call(
      emulator,
      "POST",
      `/workflow/workflowtasks/${taskId}/approve-approval?${V}`,
      {},
      {
        headers: tokenFor("00000000-0000-4000-8000-0000000000ff"),
      },
    );
    assert.equal(stranger.status, 403);
    assert.match(stranger.body.error.message, /not an approver/);

    await ok(emulator, "POST", `/workflow/workflowtasks/${taskId}/approve-approval?${V}`, {});
    assert.equal(
      (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body.status,
      "InProgress",
    );
    assert.deepEqual(await terms(emulator, g), [], "one of two approvals is not enough");
    await call(emulator, "POST", `/workflow/workflowtasks/${taskId}/approve-approval?${V}`, {}, {
      headers: tokenFor(OTHER_USER_ID),
    });
    assert.equal(
      (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body.status,
      "Completed",
    );
    assert.deepEqual(await terms(emulator, g), ["Margin"]);
  });
});

Deno.test("workflow: a change no enabled workflow watches is applied at once", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const other = await glossary(emulator, "Marketing");
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, termApprovalWorkflow(other));
    const direct = await ok(emulator, "POST", `/workflow/userrequests?${V}`, createTermRequest(g, "Revenue"));
    assert.equal(direct.body.status, "Completed");
    assert.deepEqual(direct.body.operations[0].workflowRunIds, []);
    assert.deepEqual(await terms(emulator, g), ["Revenue"], "out of the workflow's scope");

    const disabled = { ...termApprovalWorkflow(g), isEnabled: false };
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, disabled);
    await ok(emulator, "POST", `/workflow/userrequests?${V}`, createTermRequest(g, "Churn"));
    assert.deepEqual(
      (await terms(emulator, g)).sort(),
      ["Churn", "Revenue"],
      "a disabled workflow holds nothing",
    );
  });
});

Deno.test("workflow: cancel ends the run and its task; reassign moves the approver", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const { runId, taskId, requestId } = await held(emulator, g);
    const moved = await call(emulator, "POST", `/workflow/workflowtasks/${taskId}/reassign?${V}`, {
      reassignments: [{ reassignFrom: EMULATOR_USER_ID, reassignTo: OTHER_USER_ID }],
    });
    assert.equal(moved.status, 200);
    const received = await ok(emulator, "GET", `/workflow/workflowtasks?${V}&viewMode=received`);
    assert.equal(received.body.value.length, 0);
    const sent = await ok(emulator, "GET", `/workflow/workflowtasks?${V}&viewMode=sent`);
    assert.equal(sent.body.value.length, 1, "the caller still requested it");
    const theirs = await call(emulator, "GET", `/workflow/workflowtasks?${V}&viewMode=received`, undefined, {
      headers: tokenFor(OTHER_USER_ID),
    });
    assert.equal(theirs.body.value.length, 1, "the new approver receives it");
    const wrong = await call(emulator, "POST", `/workflow/workflowtasks/${taskId}/reassign?${V}`, {
      reassignments: [{ reassignFrom: EMULATOR_USER_ID, reassignTo: OTHER_USER_ID }],
    });
    assert.equal(wrong.status, 400, "the caller is no longer an approver");

    await ok(emulator, "POST", `/workflow/workflowruns/${runId}/cancel?${V}`, { comment: "Withdrawn" });
    const run = (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body;
    assert.equal(run.status, "Canceled");
    assert.equal(run.cancelComment, "Withdrawn");
    const task = (await ok(emulator, "GET", `/workflow/workflowtasks/${taskId}?${V}`)).body;
    assert.equal(task.approvalDetail.status, "Canceled");
    assert.equal(
      (await call(emulator, "POST", `/workflow/workflowruns/${runId}/cancel?${V}`, {})).status,
      409,
    );
    assert.deepEqual(await terms(emulator, g), []);
    assert.ok(requestId);
  });
});

Deno.test("workflow: a simple task completed by its assignee lets the run make the change", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const definition = termApprovalWorkflow(g);
    definition.actionDag.actions = {
      Review: {
        type: "SimpleTask",
        inputs: { parameters: { title: "Review", assignedTo: [EMULATOR_USER_ID] } },
      },
    } as never;
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, definition);
    await ok(emulator, "POST", `/workflow/userrequests?${V}`, createTermRequest(g, "Revenue"));
    const task =
      (await ok(emulator, "GET", `/workflow/workflowtasks?${V}&taskTypes=simpleTask`)).body.value[0];
    assert.equal(task.taskDetail.status, "NotStarted");
    const approve = await call(
      emulator,
      "POST",
      `/workflow/workflowtasks/${task.id}/approve-approval?${V}`,
      {},
    );
    assert.equal(approve.status, 409, "a simple task is not approved");
    await ok(emulator, "POST", `/workflow/workflowtasks/${task.id}/change-task-status?${V}`, {
      newStatus: "InProgress",
    });
    assert.deepEqual(await terms(emulator, g), []);
    await ok(emulator, "POST", `/workflow/workflowtasks/${task.id}/change-task-status?${V}`, {
      newStatus: "Completed",
      comment: "Checked",
    });
    assert.deepEqual(await terms(emulator, g), ["Revenue"]);
    const bad = await call(emulator, "POST", `/workflow/workflowtasks/${task.id}/change-task-status?${V}`, {
      newStatus: "Done",
    });
    assert.equal(bad.status, 400);
  });
});
