/**
 * The workflow commands as a user runs them: govcat as a subprocess, over real HTTP, against the emulator.
 * A term creation that a workflow watches becomes a user request with a run and an approval task; approving
 * it creates the term, rejecting it drops it, and both show in `workflow runs` and `workflow tasks`.
 */
import assert from "node:assert/strict";
import { assertRefusedLocally, type CliSetup, withCliSetup } from "../support/cli_harness.ts";
import {
  createTermRequest,
  EMULATOR_USER_ID,
  OTHER_USER_ID,
  termApprovalWorkflow,
} from "../support/workflow_fixtures.ts";

const WORKFLOW = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";

/** A glossary, a workflow watching it (created with the CLI) and a submitted request; its task's id. */
async function heldRequest(
  setup: CliSetup,
  term: string,
): Promise<{ glossary: string; taskId: string; runId: string }> {
  const glossary = (await setup.client.glossary.create({ name: "Finance" })).guid!;
  const definition = await setup.file("workflow.json", termApprovalWorkflow(glossary));
  const created = await setup.govcat(
    "workflow",
    "create",
    `--payload-file=${definition}`,
    `--workflow-id=${WORKFLOW}`,
  );
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.json.id, WORKFLOW);

  const request = await setup.file("request.json", createTermRequest(glossary, term));
  const submitted = await setup.govcat("workflow", "submit", `--payload-file=${request}`);
  assert.equal(submitted.code, 0, submitted.stderr);
  assert.equal(submitted.json.status, "InProgress");
  const [runId] = submitted.json.operations[0].workflowRunIds;
  assert.ok(runId, "the request started a run");

  const mine = await setup.govcat("workflow", "tasks", "--view-mode=received", "--status=Pending");
  assert.equal(mine.code, 0, mine.stderr);
  assert.equal(mine.json.count, 1);
  assert.equal(mine.json.value[0].workflowRunId, runId);
  assert.equal(mine.json.value[0].payload.targetValue, term);
  return { glossary, taskId: mine.json.value[0].id, runId };
}

async function termNames(setup: CliSetup, glossary: string): Promise<string[]> {
  return (await setup.client.glossary.listTerms(glossary)).map((term) => String(term.name));
}

Deno.test("workflow: a held term creation is applied on approval, visible in runs and tasks", async () => {
  await withCliSetup({}, async (setup) => {
    const { glossary, taskId, runId } = await heldRequest(setup, "Revenue");
    assert.deepEqual(await termNames(setup, glossary), [], "nothing is created before the approval");
    const table = await setup.govcatText("workflow", "tasks", "--output=table");
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /status\s+requestType\s+target/);
    assert.match(table.stdout, /Pending\s+CreateTerm\s+Revenue/);

    const approved = await setup.govcat(
      "workflow",
      "approve",
      `--task-id=${taskId}`,
      "--comment=Looks right",
      "--confirm",
    );
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(approved.json.decision, "Approved");
    assert.equal(approved.json.taskStatus, "Approved");
    assert.equal(approved.json.runStatus, "Completed");
    assert.equal(approved.json.request.target, "Revenue");
    assert.deepEqual(await termNames(setup, glossary), ["Revenue"]);

    const run = await setup.govcat("workflow", "run", `--run-id=${runId}`);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.json.status, "Completed");
    const completed = await setup.govcat("workflow", "runs", "--status=Completed");
    assert.deepEqual(completed.json.value.map((r: { id: string }) => r.id), [runId]);
    const task = await setup.govcat("workflow", "task", `--task-id=${taskId}`);
    assert.equal(
      task.json.approvalDetail.approvers[Object.keys(task.json.approvalDetail.approvers)[0]].comment,
      "Looks right",
    );
    const pending = await setup.govcat("workflow", "tasks", "--view-mode=received", "--status=Pending");
    assert.equal(pending.json.count, 0);
  });
});

Deno.test("workflow: a rejected term creation is dropped; reject needs a comment and --confirm", async () => {
  await withCliSetup({}, async (setup) => {
    const { glossary, taskId, runId } = await heldRequest(setup, "Churn");
    await assertRefusedLocally(setup, /comment/, ["workflow", "reject", `--task-id=${taskId}`, "--confirm"]);
    await assertRefusedLocally(setup, /--confirm/, [
      "workflow",
      "reject",
      `--task-id=${taskId}`,
      "--comment=No",
    ]);

    const rejected = await setup.govcat(
      "workflow",
      "reject",
      `--task-id=${taskId}`,
      "--comment=Duplicate of Attrition",
      "--confirm",
    );
    assert.equal(rejected.code, 0, rejected.stderr);
    assert.equal(rejected.json.taskStatus, "Rejected");
    assert.equal(rejected.json.runStatus, "Failed");
    assert.deepEqual(await termNames(setup, glossary), [], "the rejected term is not created");

    const failed = await setup.govcat("workflow", "runs", "--status=Failed");
    assert.deepEqual(failed.json.value.map((r: { id: string }) => r.id), [runId]);
    const history = await setup.govcat("workflow", "tasks", "--status=Rejected");
    assert.deepEqual(history.json.value.map((t: { id: string }) => t.id), [taskId]);
    const again = await setup.govcat("workflow", "approve", `--task-id=${taskId}`, "--confirm");
    assert.equal(again.code, 1, "a decided task cannot be decided again");
    assert.match(again.stderr, /already Rejected/);
  });
});

Deno.test("workflow: reassign moves a task; cancel-run drops the change", async () => {
  await withCliSetup({}, async (setup) => {
    const { glossary, taskId, runId } = await heldRequest(setup, "Margin");
    const moved = await setup.govcat(
      "workflow",
      "reassign",
      `--task-id=${taskId}`,
      `--from=00000000-0000-4000-8000-00000000e001`,
      `--to=${OTHER_USER_ID}`,
    );
    assert.equal(moved.code, 0, moved.stderr);
    const mine = await setup.govcat("workflow", "tasks", "--view-mode=received");
    assert.equal(mine.json.count, 0, "the task is no longer mine");
    const theirs = await setup.govcat("workflow", "tasks", `--assignee=${OTHER_USER_ID}`);
    assert.equal(theirs.json.count, 1);
    const notMine = await setup.govcat("workflow", "approve", `--task-id=${taskId}`, "--confirm");
    assert.equal(notMine.code, 1);
    assert.match(notMine.stderr, /not an approver/);

    const canceled = await setup.govcat(
      "workflow",
      "cancel-run",
      `--run-id=${runId}`,
      "--comment=Withdrawn",
      "--confirm",
    );
    assert.equal(canceled.code, 0, canceled.stderr);
    assert.equal(canceled.json.status, "Canceled");
    const task = await setup.govcat("workflow", "task", `--task-id=${taskId}`);
    assert.equal(task.json.approvalDetail.status, "Canceled");
    assert.deepEqual(await termNames(setup, glossary), []);
  });
});

Deno.test("workflow: bad ids, files and missing options are refused before anything is sent", async () => {
  await withCliSetup({}, async (setup) => {
    await assertRefusedLocally(setup, /--workflow-id.*GUID/s, ["workflow", "show", "--workflow-id=nope"]);
    await assertRefusedLocally(setup, /--to.*GUID/s, [
      "workflow",
      "reassign",
      "--task-id=00000000-0000-4000-8000-000000000001",
      "--from=00000000-0000-4000-8000-000000000002",
      "--to=bob",
    ]);
    const empty = await setup.file("empty.json", { name: "x", triggers: [], actionDag: {} });
    await assertRefusedLocally(setup, /no triggers/, ["workflow", "create", `--payload-file=${empty}`]);
    const noOps = await setup.file("request.json", { operations: [] });
    await assertRefusedLocally(setup, /no operations/, ["workflow", "submit", `--payload-file=${noOps}`]);
    await assertRefusedLocally(setup, /--confirm/, ["workflow", "delete", `--workflow-id=${WORKFLOW}`]);
    const unknown = await setup.govcat("workflow", "show", `--workflow-id=${WORKFLOW}`);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /workflow list/);
  });
});

Deno.test("workflow: the templates, filled in, hold a term for approval; unfilled ones are refused", async () => {
  await withCliSetup({}, async (setup) => {
    const glossary = (await setup.client.glossary.create({ name: "Finance" })).guid!;
    const shown = await setup.govcat("templates", "show", "workflow");
    assert.equal(shown.code, 0, shown.stderr);
    const unfilled = await setup.file("unfilled.json", shown.json);
    await assertRefusedLocally(setup, /placeholder <glossary-guid>/, [
      "workflow",
      "create",
      `--payload-file=${unfilled}`,
    ]);

    const fill = (text: string) =>
      text.replaceAll("<glossary-guid>", glossary).replaceAll("<approver-object-id>", EMULATOR_USER_ID);
    const definition = await setup.file("workflow.json", fill(JSON.stringify(shown.json)));
    assert.equal((await setup.govcat("workflow", "create", `--payload-file=${definition}`)).code, 0);
    const request = (await setup.govcat("templates", "show", "user-request")).json;
    const requestFile = await setup.file("request.json", fill(JSON.stringify(request)));
    const submitted = await setup.govcat("workflow", "submit", `--payload-file=${requestFile}`);
    assert.equal(submitted.code, 0, submitted.stderr);
    assert.equal(submitted.json.status, "InProgress");
    const mine = await setup.govcat("workflow", "tasks", "--view-mode=received", "--status=Pending");
    assert.equal(mine.json.value[0].target, "Customer Lifetime Value");
  });
});

Deno.test("workflow: validate lists a definition's problems without storing it", async () => {
  await withCliSetup({}, async (setup) => {
    const definition = termApprovalWorkflow("00000000-0000-4000-8000-0000000000aa", ["not-a-guid"]);
    const file = await setup.file("workflow.json", definition);
    const checked = await setup.govcat("workflow", "validate", `--payload-file=${file}`);
    assert.equal(checked.code, 0, checked.stderr);
    assert.equal(checked.json.valid, false);
    assert.equal(checked.json.value[0].location.parameterKey, "assignedTo");
    const listed = await setup.govcat("workflow", "list");
    assert.equal(listed.json.count, 0, "validate stores nothing");
    const refused = await setup.govcat("workflow", "create", `--payload-file=${file}`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /assignedTo/);
  });
});
