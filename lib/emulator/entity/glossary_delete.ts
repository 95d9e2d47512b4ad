/**
 * `DELETE /atlas/v2/entity/guid/{guid}` naming a glossary: the service deletes the glossary (a glossary is
 * an AtlasGlossary entity there) and answers 200 with its header under `mutatedEntities.DELETE` (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_glossary_test/recording_should_delete_a_glossary.json).
 * The emulator keeps glossaries in their own tables, so the entity route asks here first. The delete is the
 * glossary route's own (`DELETE /atlas/v2/glossary/{glossaryId}`): its terms and categories go with it, and
 * a term still assigned to an entity refuses the whole delete, exactly as that route does.
 *
 * @example
 * ```ts
 * import { EntityStore } from "../store.ts";
 * import { deleteGlossaryAsEntity } from "./glossary_delete.ts";
 * const store = EntityStore.open();
 * const types = { validateEntity: () => undefined, validateClassification: () => undefined,
 *   validateBusinessMetadata: () => undefined, isA: (a: string, b: string) => a === b };
 * console.log(deleteGlossaryAsEntity({ store, types, now: Date.now }, "no-such-guid")); // undefined
 * store.close();
 * ```
 *
 * @module
 */
import type { AreaDependencies } from "../area.ts";
import type { AtlasEntityHeader, EntityMutationResult, JsonObject } from "./model.ts";
import { hasGlossaryTables } from "../glossary/default.ts";
import type { StoredGlossary } from "../glossary/model.ts";
import { GlossaryStore } from "../glossary/store.ts";
import { GlossaryViews } from "../glossary/views.ts";
import { GlossaryWriter } from "../glossary/writes.ts";

/**
 * Deletes the glossary with this guid as the glossary delete route does and answers as the service's
 * entity delete does; undefined when no glossary has this guid (the caller goes on as for an entity).
 */
export function deleteGlossaryAsEntity(
  deps: AreaDependencies,
  guid: string,
): EntityMutationResult | undefined {
  // Without glossary tables there is no glossary, and asking must not create them.
  if (!hasGlossaryTables(deps.store.database)) return undefined;
  const glossaries = GlossaryStore.for(deps.store.database);
  const glossary = glossaries.glossary(guid);
  if (!glossary) return undefined;
  new GlossaryWriter(deps, new GlossaryViews(glossaries, deps.store)).deleteGlossary(guid);
  return { mutatedEntities: { DELETE: [glossaryHeader(glossary)] } };
}

/** The header the service answered for the deleted glossary (the recording cited above): status as before. */
function glossaryHeader(glossary: StoredGlossary): AtlasEntityHeader & JsonObject {
  return {
    typeName: "AtlasGlossary",
    attributes: { qualifiedName: glossary.name, name: glossary.name },
    lastModifiedTS: glossary.lastModifiedTS,
    guid: glossary.guid,
    status: "ACTIVE",
    displayText: glossary.name,
    classificationNames: [],
    meaningNames: [],
    meanings: [],
    isIncomplete: false,
    labels: [],
    isIndexed: true,
  };
}
