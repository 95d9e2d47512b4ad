/**
 * The emulated workflow API over real HTTP on 127.0.0.1, beyond the approval flow: the checks of a workflow
 * definition, persistence on a data file, term updates and deletions applied on approval, a change the
 * glossary refuses, paged lists, and the roles of signed-in callers.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../../../lib/catalog/client.ts";
import { loadConfig } from "../../../../lib/config/config.ts";
import { call, DATAMAP, ok, withEmulator } from "../emulator_test_helpers.ts";
import {
  createTermRequest,
  EMULATOR_USER_ID,
  OTHER_USER_ID,
  termApprovalWorkflow,
} from "../../../support/workflow_fixtures.ts";
import { glossary, held, V, WF, WORKFLOW } from "./test_helpers.ts";
import { grantRole, signedInAs, userToken } from "../../../support/collection_roles.ts";

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
    // The emulator's own user holds every role on the root and grants the others theirs.
    const owner = userToken(EMULATOR_USER_ID);
    for (const [role, principal] of [["data-curator", OTHER_USER_ID], ["data-reader", READER_ID]]) {
      const granted = await grantRole(emulator.url, owner, { collection: "emulator", role, principal });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
    }
    const curator = signedInAs(OTHER_USER_ID);
    const reader = signedInAs(READER_ID);
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
