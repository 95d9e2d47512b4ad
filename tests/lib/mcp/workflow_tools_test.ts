/**
 * The approval tools through a real MCP client over streamable HTTP, against the emulator: a term creation
 * held by a workflow shows in list_my_approvals; decide_approval without "confirm" shows the request's
 * summary and decides nothing; confirmed, it approves (the term is created) or rejects (it is not).
 */
import assert from "node:assert/strict";
import { type Harness, resultJson, startHarness } from "../../support/mcp_harness.ts";
import { createTermRequest, OTHER_USER_ID, termApprovalWorkflow } from "../../support/workflow_fixtures.ts";

const WORKFLOW = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";

/** One approval as list_my_approvals answers it. */
interface Approval {
  task_id: string;
  request: { type: string; target: string };
}

async function call(h: Harness, name: string, args: Record<string, unknown>) {
  const result = await h.client.callTool({ name, arguments: args });
  return { result, data: result.structuredContent as Record<string, unknown>, json: resultJson(result) };
}

/** A glossary whose term creations wait for the emulator user's approval, and one such request. */
async function heldTerm(h: Harness, term: string): Promise<string> {
  const glossary = (await h.catalog.glossary.create({ name: `Glossary for ${term}` })).guid!;
  await h.catalog.workflow.putWorkflow(WORKFLOW, termApprovalWorkflow(glossary));
  await h.catalog.workflow.submitUserRequest(createTermRequest(glossary, term));
  return glossary;
}

async function termNames(h: Harness, glossary: string): Promise<string[]> {
  return (await h.catalog.glossary.listTerms(glossary)).map((t) => String(t.name));
}

Deno.test("list_my_approvals and decide_approval: the annotations say read-only and destructive", async () => {
  const h = await startHarness();
  try {
    const { tools } = await h.client.listTools();
    const list = tools.find((t) => t.name === "list_my_approvals")!;
    const decide = tools.find((t) => t.name === "decide_approval")!;
    assert.equal(list.annotations?.readOnlyHint, true);
    assert.equal(decide.annotations?.destructiveHint, true);
    assert.equal(decide.annotations?.readOnlyHint, false);
    assert.ok(decide.inputSchema.properties?.confirm, "decide_approval takes confirm");
    assert.equal(decide.outputSchema?.type, "object");
  } finally {
    await h.close();
  }
});

Deno.test("decide_approval approves a held term creation after showing its summary", async () => {
  const h = await startHarness();
  try {
    const glossary = await heldTerm(h, "Revenue");
    const listed = await call(h, "list_my_approvals", {});
    assert.ok(!listed.result.isError, JSON.stringify(listed.json));
    assert.equal(listed.data.count, 1);
    const [approval] = listed.data.approvals as Approval[];
    assert.equal(approval.request.type, "CreateTerm");
    assert.equal(approval.request.target, "Revenue");

    const unconfirmed = await call(h, "decide_approval", { task_id: approval.task_id, decision: "approve" });
    assert.equal(unconfirmed.result.isError, true);
    const text = String(unconfirmed.json.message);
    assert.match(text, /CreateTerm "Revenue"/);
    assert.match(text, /Nothing was decided/);
    assert.deepEqual(await termNames(h, glossary), []);
    assert.equal((await call(h, "list_my_approvals", {})).data.count, 1, "still pending");

    const approved = await call(h, "decide_approval", {
      task_id: approval.task_id,
      decision: "approve",
      comment: "Fine",
      confirm: true,
    });
    assert.ok(!approved.result.isError, JSON.stringify(approved.json));
    assert.equal(approved.data.decision, "Approved");
    assert.equal(approved.data.run_status, "Completed");
    assert.equal((approved.data.request as Record<string, unknown>).target, "Revenue");
    assert.deepEqual(await termNames(h, glossary), ["Revenue"]);
    assert.equal((await call(h, "list_my_approvals", {})).data.count, 0);
  } finally {
    await h.close();
  }
});

Deno.test("decide_approval rejects with a comment only, and the term is not created", async () => {
  const h = await startHarness();
  try {
    const glossary = await heldTerm(h, "Churn");
    const [approval] = (await call(h, "list_my_approvals", {})).data.approvals as Approval[];
    const noComment = await call(h, "decide_approval", {
      task_id: approval.task_id,
      decision: "reject",
      confirm: true,
    });
    assert.equal(noComment.result.isError, true);
    assert.match(JSON.stringify(noComment.json), /needs a comment/);

    const rejected = await call(h, "decide_approval", {
      task_id: approval.task_id,
      decision: "reject",
      comment: "Duplicate",
      confirm: true,
    });
    assert.ok(!rejected.result.isError, JSON.stringify(rejected.json));
    assert.equal(rejected.data.task_status, "Rejected");
    assert.equal(rejected.data.run_status, "Failed");
    assert.deepEqual(await termNames(h, glossary), []);
  } finally {
    await h.close();
  }
});

Deno.test("list_my_approvals leaves out approvals waiting on someone else", async () => {
  const h = await startHarness();
  try {
    const glossary = (await h.catalog.glossary.create({ name: "Others" })).guid!;
    await h.catalog.workflow.putWorkflow(WORKFLOW, termApprovalWorkflow(glossary, [OTHER_USER_ID]));
    await h.catalog.workflow.submitUserRequest(createTermRequest(glossary, "Margin"));
    const listed = await call(h, "list_my_approvals", {});
    assert.equal(listed.data.count, 0);
    const bad = await call(h, "decide_approval", { task_id: "nope", decision: "approve", confirm: true });
    assert.equal(bad.result.isError, true);
  } finally {
    await h.close();
  }
});
