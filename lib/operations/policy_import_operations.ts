/**
 * `policy import --csv-file`: collection role members added or removed from a CSV file (template
 * `role-assignments`) through the bulk engine, one policy write per collection
 * (`lib/imports/policy_members_import.ts`). Destructive like `policy add-member`: each collection's policy
 * is replaced whole, and what its members may do changes.
 *
 * @module
 */
import { roleAssignments } from "../templates/csv/policy_templates.ts";
import { z } from "../deps/zod.ts";
import { policyMembersImport } from "../imports/policy_members_import.ts";
import { bulkImportFields, engineOptions } from "./bulk_options.ts";
import { checkPlanInput, planFields, runImportOrPlan } from "./plan_options.ts";
import { defineOperation, DELETE } from "./types.ts";

const { skipExisting: _unused, ...importFields } = bulkImportFields;

const importInput = z.object({
  csvFile: z.string().min(1).describe("CSV file of role members: collection, role, principal_id, action"),
  ...importFields,
  ...planFields,
});

export const importPolicyMembers = defineOperation({
  id: "policy.import",
  group: "policy",
  command: "import",
  aliases: ["import-members", "importMembers", "import-role-assignments"],
  summary: "Add or remove collection role members from a CSV file, one policy write per collection",
  description: "Columns: collection, role (collection-admin, data-source-admin, data-curator, data-reader " +
    "or a full role id), principal_id (object id), action (add, the default, or remove); `govcat templates " +
    "show role-assignments` writes a sample. Rows are grouped by collection: each collection's policy is " +
    "read once, changed for all its rows and written once with the version read; a collection whose rows " +
    "are all satisfied already is not written (its rows count as skipped). Rows with an unknown role, a " +
    "principal that is not an object id or an unknown collection go to the errors file with their reason " +
    "(exit code 1, as for every import with rejected rows); the other rows are applied. --dry-run reports each collection's changes and writes " +
    "nothing; --resume after an interruption never writes a finished collection again. --batch-size counts " +
    "collections (each one's rows go in one request).",
  input: importInput,
  annotations: DELETE,
  run: async (ctx, input) => {
    checkPlanInput("policy import", input);
    const options = await engineOptions(ctx, input, input.csvFile, "--csv-file");
    return await runImportOrPlan(ctx, policyMembersImport(ctx.catalog(), roleAssignments), options, input);
  },
});
