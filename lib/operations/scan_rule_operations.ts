/**
 * Operations on the account's classification rules, in the `scan` group: the rules scans apply to tag
 * columns with a classification. `putClassificationRule` creates or replaces one from a JSON payload file
 * (`govcat scan template --name=classification-rule` prints one), `getClassificationRule` reads one,
 * `listClassificationRules` lists them all (every page) and `deleteClassificationRule` deletes one.
 *
 * The payload is checked before anything is sent: a JSON object whose `kind` is Custom or System, with
 * `properties` an object and no `<placeholder>` left from a template.
 *
 * @module
 */
import { CLASSIFICATION_RULE_KINDS, type ClassificationRule } from "../catalog/scan_types.ts";
import { z } from "../deps/zod.ts";
import {
  checkClassificationRuleName,
  checkKind,
  classificationRuleName,
  collect,
  deletedOutput,
  hinted,
  NOT_FOUND_HINT,
  payloadFile,
  readPayload,
} from "./scan_inputs.ts";
import { defineOperation, DELETE, type Operation, READ, UPSERT } from "./types.ts";

const RULE_SHAPE = 'a classification rule object {"kind": "Custom", "properties": {…}}';

export const putClassificationRule = defineOperation({
  id: "scan.put-classification-rule",
  group: "scan",
  command: "putClassificationRule",
  aliases: ["put-classification-rule"],
  summary: "Create a classification rule, or replace the one with this name, from a JSON payload file",
  description: 'The payload is a rule: {"kind": "Custom", "properties": {"classificationName": …, ' +
    '"ruleStatus": "Enabled", "minimumPercentageMatch": 60, "columnPatterns": [{"kind": "Regex", ' +
    '"pattern": …}], "dataPatterns": […]}}; `govcat scan template --name=classification-rule` prints one. ' +
    "Each write of a rule raises its version.",
  input: z.object({ classificationRuleName, payloadFile: payloadFile("classification rule") }),
  annotations: UPSERT,
  run: async (ctx, input) => {
    checkClassificationRuleName("--classification-rule-name", input.classificationRuleName);
    const body = await readPayload(ctx, input.payloadFile, RULE_SHAPE) as ClassificationRule;
    checkKind(input.payloadFile, body, CLASSIFICATION_RULE_KINDS, "classification rule");
    const result = await ctx.catalog().scan.putClassificationRule(
      input.classificationRuleName,
      body,
      ctx.signal,
    );
    return { created: result.created, classificationRule: result.value };
  },
});

export const getClassificationRule = defineOperation({
  id: "scan.get-classification-rule",
  group: "scan",
  command: "getClassificationRule",
  aliases: ["get-classification-rule", "readClassificationRule"],
  summary: "Get a classification rule: its classification, patterns, status and version",
  input: z.object({ classificationRuleName }),
  annotations: READ,
  run: (ctx, input) => {
    checkClassificationRuleName("--classification-rule-name", input.classificationRuleName);
    return hinted(
      NOT_FOUND_HINT.rule,
      () => ctx.catalog().scan.getClassificationRule(input.classificationRuleName, ctx.signal),
    );
  },
});

export const listClassificationRules = defineOperation({
  id: "scan.list-classification-rules",
  group: "scan",
  command: "listClassificationRules",
  aliases: ["list-classification-rules", "readClassificationRules"],
  summary: "List every classification rule of the account (all pages)",
  input: z.object({}),
  annotations: READ,
  run: (ctx) => collect(ctx.catalog().scan.listClassificationRules({ signal: ctx.signal })),
});

export const deleteClassificationRule = defineOperation({
  id: "scan.delete-classification-rule",
  group: "scan",
  command: "deleteClassificationRule",
  aliases: ["delete-classification-rule"],
  summary: "Delete a classification rule; later scans no longer apply it",
  input: z.object({ classificationRuleName }),
  annotations: DELETE,
  run: async (ctx, input) => {
    checkClassificationRuleName("--classification-rule-name", input.classificationRuleName);
    const deleted = await hinted(
      NOT_FOUND_HINT.rule,
      () => ctx.catalog().scan.deleteClassificationRule(input.classificationRuleName, ctx.signal),
    );
    return deletedOutput(input.classificationRuleName, "classificationRule", deleted);
  },
});

/** The classification rule operations, in the order `scan --help` lists them. */
export const SCAN_RULE_OPERATIONS: Operation[] = [
  putClassificationRule,
  getClassificationRule,
  listClassificationRules,
  deleteClassificationRule,
];
