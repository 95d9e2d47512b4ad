/**
 * The `uc keyresult` commands (key results live under their objective: every command takes
 * `--objective-id`) and the `uc policy` commands (list, get, update from a payload file, delete).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { keyResultInputSchema } from "../catalog/unified_okr_schemas.ts";
import { guidField } from "./guid_fields.ts";
import { listEntities } from "./unified_kind_operations.ts";
import {
  compact,
  deletedResult,
  idOption,
  pagingOptions,
  payloadObject,
  precheck,
  requireField,
  requireSomething,
  unifiedPayloadFile,
} from "./unified_inputs.ts";
import { CREATE, defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const objectiveId = idOption("Id of the objective the key result belongs to");
const keyResultId = idOption("Id of the key result");
const keyResultFields = {
  definition: z.string().optional().describe("What the key result measures"),
  domainId: guidField("Id of the objective's governance domain").optional(),
  status: z.string().optional().describe("NotTracked, OnTrack, Behind or AtRisk (any letter case)"),
  progress: z.number().optional().describe("Progress so far"),
  goal: z.number().optional().describe("Value to reach"),
  max: z.number().optional().describe("Highest value"),
};
const KEY_RESULT_FLAGS = "--definition, --domain-id, --status, --progress, --goal, --max";

function keyResultBody(input: Record<string, unknown>): Record<string, unknown> {
  return compact({
    definition: input.definition,
    domainId: input.domainId,
    status: input.status,
    progress: input.progress,
    goal: input.goal,
    max: input.max,
  });
}

export const KEY_RESULT_OPERATIONS: Operation[] = [
  defineOperation({
    id: "uc.keyresult-create",
    group: "uc",
    command: "keyresult create",
    summary: "Add a key result to an objective",
    description: `Give --objective-id, --domain-id and --status (options: ${KEY_RESULT_FLAGS}) and/or a ` +
      "--payload-file with the key result as JSON; options override the file.",
    input: z.object({ objectiveId, ...keyResultFields, payloadFile: unifiedPayloadFile }),
    annotations: CREATE,
    run: async (ctx, input) => {
      const payload = await payloadObject(ctx, input.payloadFile, "a key result as a JSON object");
      const body = { ...payload, ...keyResultBody(input) };
      requireField(body, "domainId", "--domain-id", "uc keyresult create");
      requireField(body, "status", "--status", "uc keyresult create");
      return await ctx.unified().keyResults.create(input.objectiveId, body as never, { signal: ctx.signal });
    },
  }),
  defineOperation({
    id: "uc.keyresult-get",
    group: "uc",
    command: "keyresult get",
    summary: "Read a key result of an objective",
    input: z.object({ objectiveId, keyResultId }),
    annotations: READ,
    run: async (ctx, input) =>
      await ctx.unified().keyResults.get(input.objectiveId, input.keyResultId, { signal: ctx.signal }),
  }),
  defineOperation({
    id: "uc.keyresult-update",
    group: "uc",
    command: "keyresult update",
    summary: "Update a key result (the options are laid over the key result as it is now)",
    input: z.object({ objectiveId, keyResultId, ...keyResultFields, payloadFile: unifiedPayloadFile }),
    annotations: { ...UPSERT, destructive: true },
    run: async (ctx, input) => {
      const payload = await payloadObject(ctx, input.payloadFile, "a key result as a JSON object");
      const body = { ...payload, ...keyResultBody(input) };
      requireSomething(body, "uc keyresult update", KEY_RESULT_FLAGS);
      precheck(keyResultInputSchema, body, "key result update");
      return await ctx.unified().keyResults.update(input.objectiveId, input.keyResultId, body, {
        merge: !input.payloadFile,
        signal: ctx.signal,
      });
    },
  }),
  defineOperation({
    id: "uc.keyresult-delete",
    group: "uc",
    command: "keyresult delete",
    summary: "Delete a key result",
    input: z.object({ objectiveId, keyResultId }),
    annotations: DELETE,
    run: async (ctx, input) => {
      await ctx.unified().keyResults.delete(input.objectiveId, input.keyResultId, { signal: ctx.signal });
      return deletedResult("key result", input.keyResultId, { objectiveId: input.objectiveId });
    },
  }),
  defineOperation({
    id: "uc.keyresult-list",
    group: "uc",
    command: "keyresult list",
    summary: "List the key results of an objective",
    input: z.object({ objectiveId, ...pagingOptions }),
    annotations: READ,
    run: async (ctx, { objectiveId, ...params }) => {
      const api = ctx.unified().keyResults;
      return await listEntities(
        {
          list: (p) => api.list(objectiveId, p),
          listPage: (p) => api.listPage(objectiveId, p),
        },
        params,
        ctx.signal,
      );
    },
  }),
];

const policyId = idOption("Id of the policy");

export const POLICY_OPERATIONS: Operation[] = [
  defineOperation({
    id: "uc.policy-list",
    group: "uc",
    command: "policy list",
    summary: "List the governance policies",
    input: z.object({ ...pagingOptions }),
    annotations: READ,
    run: async (ctx, input) => await listEntities(ctx.unified().policies, input, ctx.signal),
  }),
  defineOperation({
    id: "uc.policy-get",
    group: "uc",
    command: "policy get",
    summary: "Read a policy by id",
    input: z.object({ policyId }),
    annotations: READ,
    run: async (ctx, input) => await ctx.unified().policies.get(input.policyId, { signal: ctx.signal }),
  }),
  defineOperation({
    id: "uc.policy-update",
    group: "uc",
    command: "policy update",
    summary: "Replace a policy with the one in --payload-file",
    description:
      "The file holds the policy as JSON (as `uc policy get` prints it, edited); with --merge its " +
      "fields are laid over the policy as it is now instead of replacing it.",
    input: z.object({
      policyId,
      payloadFile: z.string().min(1).describe("JSON file holding the policy"),
      name: z.string().optional().describe("New name of the policy"),
      merge: z.boolean().optional().describe("Keep the fields the file leaves out"),
    }),
    annotations: { ...UPSERT, destructive: true },
    run: async (ctx, input) => {
      const payload = await payloadObject(ctx, input.payloadFile, "a policy as a JSON object");
      const body = { ...payload, ...compact({ name: input.name }) };
      if (Object.keys(body).length === 0) throw new UsageError(`${input.payloadFile} holds an empty policy.`);
      return await ctx.unified().policies.update(input.policyId, body, {
        merge: input.merge ?? false,
        signal: ctx.signal,
      });
    },
  }),
  defineOperation({
    id: "uc.policy-delete",
    group: "uc",
    command: "policy delete",
    summary: "Delete a policy",
    input: z.object({ policyId }),
    annotations: DELETE,
    run: async (ctx, input) => {
      await ctx.unified().policies.delete(input.policyId, { signal: ctx.signal });
      return deletedResult("policy", input.policyId);
    },
  }),
];
