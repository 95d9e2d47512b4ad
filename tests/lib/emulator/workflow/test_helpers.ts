/**
 * What the workflow emulator tests share: the api-version, a workflow id, a bearer token naming a caller,
 * and the set-up most of them start from (a glossary, a workflow on it, a held request).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RunningEmulator } from "../../../../lib/emulator/mod.ts";
import { DATAMAP, ok } from "../emulator_test_helpers.ts";
import {
  createTermRequest,
  EMULATOR_USER_ID,
  termApprovalWorkflow,
} from "../../../support/workflow_fixtures.ts";

export const V = "api-version=2023-10-01-preview";
export const WF = "/workflow/workflows";
export const WORKFLOW = "4afb5752-e47f-43a1-8ba7-c696bf8d2745";

/** A bearer token (unsigned: the emulator reads claims only) naming `oid`. */
export function tokenFor(oid: string): Record<string, string> {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, "");
  return { authorization: `Bearer ${part({ alg: "none" })}.${part({ oid })}.sig` };
}

/** A new glossary's guid. */
export async function glossary(emulator: RunningEmulator, name = "Finance"): Promise<string> {
  return (await ok(emulator, "POST", `${DATAMAP}/atlas/v2/glossary`, { name })).body.guid;
}

/** The names of a glossary's terms. */
export async function terms(emulator: RunningEmulator, glossaryGuid: string): Promise<string[]> {
  const listed = await ok(emulator, "GET", `${DATAMAP}/atlas/v2/glossary/${glossaryGuid}/terms`);
  return listed.body.map((term: { name: string }) => term.name);
}

/** A workflow on `glossaryGuid` and one held request; the run's and task's ids. */
export async function held(emulator: RunningEmulator, glossaryGuid: string, approvers?: string[]) {
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
