/**
 * The emulated workflow API over real HTTP on 127.0.0.1: a term creation a workflow watches becomes a run
 * with an approval task assigned to the workflow's approver; approving creates the term and completes the
 * run, rejecting drops it and fails the run; PendingOnAll waits for every approver; an operation no
 * workflow watches is applied at once; cancel, reassign, simple task status, the list filters, the caller
 * from the bearer token, the checks of a workflow definition, and persistence on a data file.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../lib/catalog/client.ts";
import { loadConfig } from "../../../lib/config.ts";
import type { RunningEmulator } from "../../../lib/emulator/mod.ts";
import { call, DATAMAP, ok, withEmulator } from "./emulator_test_helpers.ts";
import {
  createTermRequest,
  EMULATOR_USER_ID,
  OTHER_USER_ID,
  termApprovalWorkflow,
} from "../../support/workflow_fixtures.ts";

const V = "api-version=2023-10-01-preview";
const WF = "/workflow/workflows";
const WORKFLOW = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";

/** A bearer token (unsigned: the emulator reads claims only) naming `oid`. */
function tokenFor(oid: string): Record<string, string> {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return { authorization: `Bearer ${part({ alg: "none" })}.${part({ oid })}.sig` };
}

async function glossary(emulator: RunningEmulator, name = "Finance"): Promise<string> {
  return (await ok(emulator, "POST", `${DATAMAP}/atlas/v2/glossary`, { name })).body.guid;
}

async function terms(emulator: RunningEmulator, glossaryGuid: string): Promise<string[]> {
  const listed = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/glossary/${glossaryGuid}/terms`);
  return listed.body.map((term: { name: string }) => term.name);
}

/** A workflow on `glossaryGuid` and one held request; the run's and task's ids. */
async function held(emulator: RunningEmulator, glossaryGuid: string, approvers?: string[]) {
  await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, termApprovalWorkflow(glossaryGuid, approvers));
  const submitted = await ok(
    emulator,
    "POST",
    `/workflow/userrequests?${V}`,
    createTermRequest(glossaryGuid, "Revenue"),
  );
  assert.equal(submitted.body.status, "InProgress");
  assert.equal(submitted.body.requestor, EMULATOR_USER_ID);
  const runId = submitted.body.operations[0].workflowRunIds[0];
  const tasks = await ok(emulator, "GET", `/workflow/workflowtasks?${V}`);
  assert.equal(tasks.body.value.length, 1);
  return { runId, taskId: tasks.body.value[0].id, requestId: submitted.body.requestId };
}

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

Deno.test("workflow: definitions are checked; list omits the action DAG; delete answers 204", async () => {
  await withEmulator({}, async (emulator) => {
    const good = termApprovalWorkflow("00000000-0000-4000-8000-0000000000aa");
    const problems = [
      [{ ...good, triggers: [{ type: "when_pigs_fly" }] }, /when_pigs_fly/],
      [{ ...good, isEnabled: "yes" }, /isEnabled/],
      [
        { ...good, actionDag: { actions: { A: { type: "Approval", runAfter: { Ghost: ["Succeeded"] } } } } },
        /Ghost/,
      ],
      [termApprovalWorkflow("00000000-0000-4000-8000-0000000000aa", []), /assignedTo/],
    ] as const;
    for (const [body, message] of problems) {
      const refused = await call(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, body);
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.body.error.message, message);
      const validated = await ok(emulator, "POST", `${WF}/${WORKFLOW}/validate?${V}`, body);
      assert.ok(validated.body.value.length > 0);
    }
    assert.equal((await call(emulator, "GET", `${WF}/nope?${V}`)).status, 400);
    const created = await ok(emulator, "PUT", `${WF}/${WORKFLOW.toUpperCase()}?${V}`, good);
    assert.equal(created.body.id, WORKFLOW);
    assert.equal(created.body.createdBy, EMULATOR_USER_ID);
    const listed = await ok(emulator, "GET", `${WF}?${V}`);
    assert.equal(listed.body.value.length, 1);
    assert.equal(listed.body.value[0].actionDag, undefined);
    assert.equal((await call(emulator, "DELETE", `${WF}/${WORKFLOW}?${V}`)).status, 204);
    assert.equal((await call(emulator, "DELETE", `${WF}/${WORKFLOW}?${V}`)).status, 404);
  });
});

Deno.test("workflow: runs and tasks survive a restart on a data file", async () => {
  const dir = await Deno.makeTempDir({ prefix: "govcat-workflow-" });
  const dataFile = `${dir}/catalog.db`;
  try {
    let ids: { runId: string; taskId: string } | undefined;
    await withEmulator({ dataFile }, async (emulator) => {
      ids = await held(emulator, await glossary(emulator));
    });
    await withEmulator({ dataFile }, async (emulator) => {
      const run = await ok(emulator, "GET", `/workflow/workflowruns/${ids!.runId}?${V}`);
      assert.equal(run.body.status, "InProgress");
      await ok(emulator, "POST", `/workflow/workflowtasks/${ids!.taskId}/approve-approval?${V}`, {});
      assert.equal(
        (await ok(emulator, "GET", `/workflow/workflowruns/${ids!.runId}?${V}`)).body.status,
        "Completed",
      );
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("workflow: approved term updates and deletions change the glossary's term", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const term = (await ok(emulator, "POST", `${DATAMAP}/atlas/v2/glossary/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: g },
    })).body;
    const definition = termApprovalWorkflow(g);
    definition.triggers = [
      { type: "when_term_update_is_requested", underGlossaryHierarchy: `/glossaries/${g}` },
      { type: "when_term_deletion_is_requested", underGlossaryHierarchy: `/glossaries/${g}` },
    ];
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, definition);
    const change = (type: string, glossaryTerm: Record<string, unknown>) =>
      ok(emulator, "POST", `/workflow/userrequests?${V}`, {
        operations: [{ type, payload: { glossaryTerm } }],
      });
    const approveOpen = async () => {
      const [task] =
        (await ok(emulator, "GET", `/workflow/workflowtasks?${V}&taskStatuses=Pending`)).body.value;
      await ok(emulator, "POST", `/workflow/workflowtasks/${task.id}/approve-approval?${V}`, {});
    };
    const termPath = `${DATAMAP}/atlas/v2/glossary/term/${term.guid}`;

    await change("UpdateTerm", {
      guid: term.guid,
      name: "Revenue",
      anchor: { glossaryGuid: g },
      longDescription: "Money in",
    });
    assert.equal((await ok(emulator, "GET", termPath)).body.longDescription, undefined, "held");
    await approveOpen();
    assert.equal((await ok(emulator, "GET", termPath)).body.longDescription, "Money in");

    await change("DeleteTerm", { guid: term.guid, name: "Revenue", anchor: { glossaryGuid: g } });
    assert.equal((await call(emulator, "GET", termPath)).status, 200, "held");
    await approveOpen();
    assert.equal((await call(emulator, "GET", termPath)).status, 404);
  });
});

Deno.test("workflow: an approved change the glossary refuses fails the run with the glossary's error", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    const { runId, taskId } = await held(emulator, g);
    await ok(emulator, "POST", `${DATAMAP}/atlas/v2/glossary/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: g },
    });
    await ok(emulator, "POST", `/workflow/workflowtasks/${taskId}/approve-approval?${V}`, {});
    const run = (await ok(emulator, "GET", `/workflow/workflowruns/${runId}?${V}`)).body;
    assert.equal(run.status, "Failed");
    assert.equal(run.detail.actions.change.status, "Failed");
    assert.ok(run.detail.actions.change.error.message, "the glossary's refusal is kept");
  });
});

Deno.test("workflow: run and task lists page with maxpagesize and a nextLink the client follows", async () => {
  await withEmulator({}, async (emulator) => {
    const g = await glossary(emulator);
    await ok(emulator, "PUT", `${WF}/${WORKFLOW}?${V}`, termApprovalWorkflow(g));
    for (const name of ["A", "B", "C"]) {
      await ok(emulator, "POST", `/workflow/userrequests?${V}`, createTermRequest(g, name));
    }
    const first = await ok(emulator, "GET", `/workflow/workflowruns?${V}&maxpagesize=2`);
    assert.equal(first.body.value.length, 2);
    const next = new URL(first.body.nextLink);
    assert.equal(next.origin, emulator.url);
    const second = await ok(emulator, "GET", next.pathname + next.search);
    assert.equal(second.body.value.length, 1);
    assert.equal(second.body.nextLink, undefined);

    const client = CatalogClient.fromConfig(
      loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url }),
    );
    const runs = [];
    for await (const run of client.workflow.listRuns({ maxpagesize: 1 })) {
      runs.push(run.runPayload.targetValue);
    }
    assert.deepEqual(runs.sort(), ["A", "B", "C"]);
    const tasks = [];
    for await (const task of client.workflow.listTasks({ maxpagesize: 2, taskStatuses: ["Pending"] })) {
      tasks.push(task.id);
    }
    assert.equal(new Set(tasks).size, 3);
    assert.equal((await call(emulator, "GET", `/workflow/workflowruns?${V}&maxpagesize=0`)).status, 400);
  });
});

Deno.test("workflow with roles: a reader may ask for a term and its approver decide; only curators manage workflows", async () => {
  await withEmulator({ roles: true }, async (emulator) => {
    const curator = signedIn(OTHER_USER_ID, "DataCurator");
    const reader = signedIn(READER_ID, "DataReader");
    const g = (await call(emulator, "POST", `${DATAMAP}/atlas/v2/glossary`, { name: "Finance" }, {
      headers: curator,
    }))
      .body.guid;
    const refused = await call(
      emulator,
      "PUT",
      `${WF}/${WORKFLOW}?${V}`,
      termApprovalWorkflow(g, [READER_ID]),
      {
        headers: reader,
      },
    );
    assert.equal(refused.status, 403, "a reader does not manage workflows");
    const created = await call(
      emulator,
      "PUT",
      `${WF}/${WORKFLOW}?${V}`,
      termApprovalWorkflow(g, [READER_ID]),
      {
        headers: curator,
      },
    );
    assert.equal(created.status, 200);
    const direct = await call(emulator, "POST", `${DATAMAP}/atlas/v2/glossary/term`, {
      name: "Revenue",
      anchor: { glossaryGuid: g },
    }, { headers: reader });
    assert.equal(direct.status, 403, "the reader cannot write the glossary itself");

    const asked = await call(
      emulator,
      "POST",
      `/workflow/userrequests?${V}`,
      createTermRequest(g, "Revenue"),
      {
        headers: reader,
      },
    );
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.requestor, READER_ID);
    const tasks = await call(emulator, "GET", `/workflow/workflowtasks?${V}&viewMode=received`, undefined, {
      headers: reader,
    });
    const approved = await call(
      emulator,
      "POST",
      `/workflow/workflowtasks/${tasks.body.value[0].id}/approve-approval?${V}`,
      {},
      { headers: reader },
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const listed = await call(emulator, "GET", `${DATAMAP}/atlas/v2/glossary/${g}/terms`, undefined, {
      headers: reader,
    });
    assert.deepEqual(listed.body.map((t: { name: string }) => t.name), ["Revenue"]);
  });
});

const READER_ID = "00000000-0000-4000-8000-00000000e003";

/** An unsigned token naming `oid` and one role. */
function signedIn(oid: string, role: string): Record<string, string> {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return { authorization: `Bearer ${part({ alg: "none" })}.${part({ oid, roles: [role] })}.sig` };
}
