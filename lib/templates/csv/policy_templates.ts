/**
 * The CSV template of role assignments (`policy import`): one row per role member to add to or remove from
 * a collection's metadata policy. The role and the principal are checked by the import, row by row: a row
 * naming an unknown role or a principal that is not an object id goes to the reject file with its reason
 * while the other rows are applied.
 *
 * @example
 * ```ts
 * import { roleAssignments } from "./policy_templates.ts";
 * console.log(roleAssignments.columns.map((c) => c.name).join(","));
 * // collection,role,principal_id,action
 * ```
 *
 * @module
 */
import { ROLE_ALIASES } from "../../catalog/policy_members.ts";
import type { CsvTemplate } from "../../csv/types.ts";

/** What a row does with its member: `add` (the default) or `remove`. */
export const ROLE_ACTIONS = ["add", "remove"] as const;

export const roleAssignments: CsvTemplate = {
  name: "role-assignments",
  summary: "Collection role members to add or remove, one policy write per collection",
  usage: "govcat policy import --csv-file <file> --confirm",
  columns: [
    {
      name: "collection",
      aliases: ["collection_name"],
      kind: "text",
      required: true,
      description: "The collection's name (not its friendly name)",
      example: "sales",
    },
    {
      name: "role",
      kind: "text",
      required: true,
      description: `The role: ${Object.keys(ROLE_ALIASES).join(", ")}, or a full role id ` +
        `(${ROLE_ALIASES["data-curator"]})`,
      example: "data-curator",
    },
    {
      name: "principal_id",
      aliases: ["principalId", "object_id"],
      kind: "text",
      required: true,
      description: "Object id (Entra ID) of the user, group or service principal",
      example: "3f10f245-d5c4-4541-98ce-01a4580a30e0",
    },
    {
      name: "action",
      kind: "enum",
      values: ROLE_ACTIONS,
      description: "add (the default when empty) or remove",
      example: "add",
    },
  ],
  unique: [["collection", "role", "principal_id"]],
  sample: [
    ["sales", "data-curator", "3f10f245-d5c4-4541-98ce-01a4580a30e0", "add"],
    ["sales", "data-reader", "8c2d7e41-5b3a-4f6e-9d10-2a4b6c8e0f12", ""],
    ["finance", "data-source-admin", "3f10f245-d5c4-4541-98ce-01a4580a30e0", "remove"],
  ],
};

/** The role assignment templates, in the order `templates list` shows them. */
export const POLICY_TEMPLATES: readonly CsvTemplate[] = [roleAssignments];
