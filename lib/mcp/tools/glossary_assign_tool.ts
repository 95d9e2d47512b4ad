/**
 * `assign_term_to_entities`: tag entities with a classic glossary term (its assigned entities are read, the
 * others assigned in batches, a refused batch again entity by entity), or with a unified catalog term ID
 * (uc_create_term), relating the term to each asset through the unified catalog's term relationships
 * (`uc term relate --entity-type=DATAASSET`), so a model can create a domain, create a term in it and
 * tag assets with the term (uc_create_domain, uc_create_term, assign_term_to_entities).
 *
 * @module
 */
import type { AtlasEntityHeader } from "../../catalog/atlas_model.ts";
import { z } from "../../deps/zod.ts";
import { CatalogError, NotFoundError, UsageError } from "../../core/errors.ts";
import { getEntityHeader } from "../../operations/entity_operations.ts";
import {
  assignTerm,
  MAX_ASSIGNED_ENTITIES,
  readTermsAssignedEntities,
} from "../../operations/glossary_term_operations.ts";
import {
  termGet as getUcTerm,
  termRelate,
  termRelationships,
} from "../../operations/unified_term_operations.ts";
import type { Relationship } from "../../catalog/unified_query_schemas.ts";
import { composedTool, type OperationRunner } from "../tool_operation.ts";

export { MAX_ASSIGNED_ENTITIES };

const assignResult = z.object({
  entity_guid: z.string(),
  status: z.enum(["assigned", "already_assigned", "failed"]),
  error: z.string().optional().describe("Why the entity could not be given the term"),
});

export const assignTermToEntitiesTool = composedTool({
  name: "assign_term_to_entities",
  title: "Assign term to entities",
  description:
    `Tag up to ${MAX_ASSIGNED_ENTITIES} entities with a glossary term or unified catalog term. Each ` +
    "gets its result: assigned, already_assigned or failed with the reason. Safe to repeat.",
  input: z.object({
    term_guid: z.string().min(1).describe(
      "Glossary term GUID or unified catalog term ID",
    ),
    entity_guids: z.array(z.string().min(1)).min(1).max(MAX_ASSIGNED_ENTITIES).describe(
      "GUIDs of the entities to tag",
    ),
  }),
  output: z.object({
    term_guid: z.string(),
    term_kind: z.enum(["glossary", "unified_catalog"]).describe(
      "glossary: a classic glossary term (the entities' meanings); unified_catalog: a unified catalog " +
        "term, related to each asset (see uc_get_term)",
    ),
    assigned: z.number().int(),
    already_assigned: z.number().int(),
    failed: z.number().int(),
    results: z.array(assignResult),
  }),
  // A classic glossary term: its assigned entities, then batches (a refused one again entity by entity).
  // A unified catalog term: its asset relationships, then each asset read and related.
  operations: [
    readTermsAssignedEntities,
    assignTerm,
    getUcTerm,
    termRelationships,
    getEntityHeader,
    termRelate,
  ],
  compose: async (run, input, ctx) => {
    let current: Array<{ guid?: string }>;
    try {
      current = await run(readTermsAssignedEntities, { termGuid: input.term_guid }) as Array<
        { guid?: string }
      >;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // Not a classic glossary term: a unified catalog term (uc_create_term) is assigned its own way.
      const foundUnifiedTerm = await unifiedTerm(run, input.term_guid);
      if (!foundUnifiedTerm) {
        throw new UsageError(
          `term_guid ${input.term_guid} is neither a glossary term nor a unified catalog term; nothing ` +
            "was assigned.",
          "Find the term's GUID with get_glossary_terms (classic glossary) or its ID with uc_list_terms " +
            "or uc_search_terms (unified catalog).",
        );
      }
      return await assignUnifiedTerm(run, input.term_guid, input.entity_guids);
    }
    const already = new Set(current.map((entity) => entity.guid));
    const results = new Map<string, z.input<typeof assignResult>>();
    const pending: string[] = [];
    for (const guid of new Set(input.entity_guids)) {
      if (already.has(guid)) results.set(guid, { entity_guid: guid, status: "already_assigned" });
      else pending.push(guid);
    }
    const batchSize = Math.min(100, ctx.services.config().batchSize);
    for (let start = 0; start < pending.length; start += batchSize) {
      for (const result of await assignBatch(run, input.term_guid, pending.slice(start, start + batchSize))) {
        results.set(result.entity_guid, result);
      }
    }
    const ordered = [...new Set(input.entity_guids)].map((guid) => results.get(guid)!);
    const count = (status: string) => ordered.filter((r) => r.status === status).length;
    return {
      term_guid: input.term_guid,
      term_kind: "glossary" as const,
      assigned: count("assigned"),
      already_assigned: count("already_assigned"),
      failed: count("failed"),
      results: ordered,
    };
  },
});

/** The unified catalog term with this ID, or undefined when the unified catalog has none. */
async function unifiedTerm(run: OperationRunner, id: string): Promise<{ id: string } | undefined> {
  try {
    return await run(getUcTerm, { termId: id }) as { id: string };
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof UsageError) {
      return undefined;
    }
    throw error;
  }
}

/**
 * Relates a unified catalog term to data assets (`terms/{id}/relationships`, entityType DATAASSET), one
 * call per asset. Each asset is read from the catalog first, so an unknown GUID fails alone with a 404,
 * and an asset the term is related to already is reported as such, not related twice.
 */
async function assignUnifiedTerm(run: OperationRunner, termId: string, entityGuids: string[]) {
  const related = await run(termRelationships, { termId, entityType: "DATAASSET" }) as Relationship[];
  const already = new Set(related.map((link) => link.entityId.toLowerCase()));
  const results: z.input<typeof assignResult>[] = [];
  for (const guid of new Set(entityGuids)) {
    if (already.has(guid.toLowerCase())) {
      results.push({ entity_guid: guid, status: "already_assigned" });
      continue;
    }
    try {
      const header = await run(getEntityHeader, { guid }) as AtlasEntityHeader;
      if (header.status === "DELETED") {
        results.push({
          entity_guid: guid,
          status: "failed",
          error: "the entity is deleted (status DELETED)",
        });
        continue;
      }
      await run(termRelate, {
        termId,
        entityId: guid,
        entityType: "DATAASSET",
        relationshipType: "Related",
      });
      results.push({ entity_guid: guid, status: "assigned" });
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      results.push({ entity_guid: guid, status: "failed", error: describe(error) });
    }
  }
  const count = (status: string) => results.filter((r) => r.status === status).length;
  return {
    term_guid: termId,
    term_kind: "unified_catalog" as const,
    assigned: count("assigned"),
    already_assigned: count("already_assigned"),
    failed: count("failed"),
    results,
  };
}

/**
 * Assigns a batch in one call. The service refuses a whole call for one bad entity, so a refused batch
 * is sent again entity by entity to tell which ones fail.
 */
async function assignBatch(
  run: OperationRunner,
  termGuid: string,
  guids: string[],
): Promise<z.input<typeof assignResult>[]> {
  try {
    await run(assignTerm, { termGuid, entityGuids: guids });
    return guids.map((guid) => ({ entity_guid: guid, status: "assigned" }));
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    if (guids.length === 1) return [{ entity_guid: guids[0], status: "failed", error: describe(error) }];
  }
  const results: z.input<typeof assignResult>[] = [];
  for (const guid of guids) {
    try {
      await run(assignTerm, { termGuid, entityGuids: [guid] });
      results.push({ entity_guid: guid, status: "assigned" });
    } catch (error) {
      if (!(error instanceof CatalogError)) throw error;
      results.push({ entity_guid: guid, status: "failed", error: describe(error) });
    }
  }
  return results;
}

function describe(error: CatalogError): string {
  return [error.status || "", error.code, error.message].filter(Boolean).join(" ");
}
