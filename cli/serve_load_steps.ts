/**
 * The full stdio server's modules, loaded in steps that each evaluate a part of them, with a turn of the
 * event loop between two steps. JavaScript runs on one thread and a module graph evaluates in one go: the
 * whole server at once (about 200 ms) would hold up every request that arrives meanwhile, while the fast
 * start (lib/mcp/fast_start.ts) could answer them between steps. The steps go from the leaves of the
 * module graph up (the operations one by one, then each tool module), so a step evaluates little more
 * than its own module. A module missing from the list still loads, in a later step (a longer one): the
 * list only shapes the pauses, and its test keeps it in step with lib/operations/mod.ts and the tool modules.
 *
 * Each import is written out, so bundles and compiled binaries carry the modules.
 *
 * @module
 */
import { TOOL_MODULES } from "../lib/mcp/tools/modules.ts";

/** One step of the load: a dynamic import. */
export type LoadStep = () => Promise<unknown>;

/** The operation modules lib/operations/mod.ts registers, each its own step. */
export const OPERATION_STEPS: Readonly<Record<string, LoadStep>> = {
  "account_contact_operations.ts": () => import("../lib/operations/account_contact_operations.ts"),
  "account_operations.ts": () => import("../lib/operations/account_operations.ts"),
  "business_metadata_assignments.ts": () => import("../lib/operations/business_metadata_assignments.ts"),
  "business_metadata_operations.ts": () => import("../lib/operations/business_metadata_operations.ts"),
  "classification_operations.ts": () => import("../lib/operations/classification_operations.ts"),
  "collections_entity_operations.ts": () => import("../lib/operations/collections_entity_operations.ts"),
  "collections_operations.ts": () => import("../lib/operations/collections_operations.ts"),
  "config_operations.ts": () => import("../lib/operations/config_operations.ts"),
  "confirmation.ts": () => import("../lib/operations/confirmation.ts"),
  "domain_operations.ts": () => import("../lib/operations/domain_operations.ts"),
  "entity_batch_operations.ts": () => import("../lib/operations/entity_batch_operations.ts"),
  "entity_bulk_operations.ts": () => import("../lib/operations/entity_bulk_operations.ts"),
  "entity_export_operations.ts": () => import("../lib/operations/entity_export_operations.ts"),
  "entity_label_operations.ts": () => import("../lib/operations/entity_label_operations.ts"),
  "entity_mapped_operations.ts": () => import("../lib/operations/entity_mapped_operations.ts"),
  "entity_operations.ts": () => import("../lib/operations/entity_operations.ts"),
  "fields.ts": () => import("../lib/operations/fields.ts"),
  "glossary_bulk_operations.ts": () => import("../lib/operations/glossary_bulk_operations.ts"),
  "glossary_operations.ts": () => import("../lib/operations/glossary_operations.ts"),
  "groups.ts": () => import("../lib/operations/groups.ts"),
  "lineage_csv_group_operations.ts": () => import("../lib/operations/lineage_csv_group_operations.ts"),
  "lineage_operations.ts": () => import("../lib/operations/lineage_operations.ts"),
  "policy_operations.ts": () => import("../lib/operations/policy_operations.ts"),
  "profile_operations.ts": () => import("../lib/operations/profile_operations.ts"),
  "quality_operations.ts": () => import("../lib/operations/quality_operations.ts"),
  "registry.ts": () => import("../lib/operations/registry.ts"),
  "relationship_operations.ts": () => import("../lib/operations/relationship_operations.ts"),
  "scan_operations.ts": () => import("../lib/operations/scan_operations.ts"),
  "search_operations.ts": () => import("../lib/operations/search_operations.ts"),
  "template_operations.ts": () => import("../lib/operations/template_operations.ts"),
  "types_operations.ts": () => import("../lib/operations/types_operations.ts"),
  "unified_operations.ts": () => import("../lib/operations/unified_operations.ts"),
  "validate_operations.ts": () => import("../lib/operations/validate_operations.ts"),
  "workflow_operations.ts": () => import("../lib/operations/workflow_operations.ts"),
};

/** The steps, in order; the last one is the serve command, which the hand-over calls. */
export function serverLoadSteps(): LoadStep[] {
  return [
    () => import("../lib/deps/zod.ts"),
    () => import("../lib/deps/mcp_sdk.ts"),
    () => import("./serve_services.ts"),
    ...Object.values(OPERATION_STEPS),
    () => import("../lib/operations/mod.ts"),
    ...Object.values(TOOL_MODULES),
    () => import("../lib/mcp/tools/mod.ts"),
    () => import("../lib/mcp/server.ts"),
    () => import("../lib/mcp/http_app.ts"),
  ];
}

/**
 * Runs `steps` one after the other, each after a turn of the event loop (a timer of 0 ms: the input's
 * reads, which answer requests, run in that turn) and once `calm` resolves (no request is being
 * answered), then returns `last()`.
 */
export async function loadInSteps<T>(
  steps: readonly LoadStep[],
  last: () => Promise<T>,
  calm: () => Promise<void> = () => Promise.resolve(),
): Promise<T> {
  const pause = async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    await calm();
  };
  for (const step of steps) {
    await pause();
    await step();
  }
  await pause();
  return await last();
}
