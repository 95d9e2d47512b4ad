/**
 * `if_exists`: what a create tool does when its target exists already. The default, `"fail"`, changes
 * nothing that exists (the call is refused, or the item fails, naming what exists); `"update"` overwrites
 * it, as the catalog's upsert does, and so needs `"confirm": true`.
 *
 * The hint decision: the MCP specification defines `destructiveHint` as "If true, the tool may perform
 * destructive updates to its environment. If false, the tool performs only additive updates." A create
 * tool that can be told to overwrite may perform destructive updates, so its `destructiveHint` is true
 * (the hint describes the worst call, not the default one). The hint comes from the tool's operation,
 * whose `ifExists` input offers "update" (`operationHints` in `tool_operation.ts`); the default call stays
 * additive, and only a call that says `"if_exists": "update"` must carry `"confirm": true`.
 *
 * @module
 */
import { z } from "../../deps/zod.ts";

/** `if_exists` of the create tools: fail (default) or update. */
export const ifExistsField = z.enum(["fail", "update"]).default("fail").describe(
  '"update" overwrites an existing one (needs "confirm": true)',
);
