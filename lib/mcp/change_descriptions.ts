/**
 * What a destructive call will change, in the words a person confirms it by (MCP elicitation,
 * `elicitation.ts`): a delete names the entity's type, name, qualified name and GUID, read first (one GET;
 * a 404 there is the call's own not-found error); an overwrite lists each field that changes, old → new;
 * the others say what they act on as specifically as their arguments allow. Keyed by tool name (and, for
 * invoke_operation, by operation id); a destructive tool without an entry is described by its arguments.
 *
 * @module
 */
import type { AtlasEntity, AtlasObjectId } from "../catalog/atlas_model.ts";
import { describeAction } from "../operations/confirmation.ts";
import type { Operation } from "../operations/types.ts";
import type { ToolServices } from "./tool.ts";

/** What a description may read: the call's services and its cancellation. */
export interface ChangeLookup {
  services: ToolServices;
  signal?: AbortSignal;
}

type Describer = (input: Record<string, unknown>, lookup: ChangeLookup) => Promise<string> | string;

/** Entities an overwrite of many lists one by one; the rest are counted. */
export const LISTED_ENTITIES = 10;
/** Characters of one value shown; a longer one is cut. */
const VALUE_CHARS = 80;

/** The description of a destructive tool call, for the person asked to confirm it. */
export function describeToolChange(
  toolName: string,
  input: Record<string, unknown>,
  lookup: ChangeLookup,
): Promise<string> {
  const describe = TOOL_CHANGES[toolName];
  return Promise.resolve(describe ? describe(input, lookup) : `${toolName} ${argumentsText(input)}`);
}

/** The description of a destructive operation run by invoke_operation (its input as parsed). */
export function describeOperationChange(
  operation: Operation,
  input: Record<string, unknown>,
  lookup: ChangeLookup,
): Promise<string> {
  const describe = OPERATION_CHANGES[operation.id];
  if (describe) return Promise.resolve(describe(input, lookup));
  const overwrite = operation.annotations.destructive ? "" : "; what exists already is overwritten";
  return Promise.resolve(`run "${describeAction(operation, input)}": ${operation.summary}${overwrite}.`);
}

/** True when `toolName` has a description of its own (a consistency test holds every destructive tool). */
export function describesTool(toolName: string): boolean {
  return toolName in TOOL_CHANGES;
}

const deleteEntity: Describer = async (input, { services, signal }) => {
  const guid = String(input.guid);
  const { entity } = await services.catalog().entity.get(guid, {
    minExtInfo: true,
    ignoreRelationships: true,
    signal,
  });
  return `delete ${entityText(entity, guid)}.`;
};

const updateEntity: Describer = async (input, { services, signal }) => {
  const guid = String(input.guid);
  const { entity } = await services.catalog().entity.get(guid, {
    minExtInfo: true,
    ignoreRelationships: true,
    signal,
  });
  const attributes = input.attributes as Record<string, unknown>;
  return `overwrite attributes of ${entityText(entity, guid)}:\n${
    changesText(entity.attributes, attributes)
  }`;
};

const updateManyEntities: Describer = async (input, lookup) => {
  const updates = input.updates as Array<{ guid: string; attributes: Record<string, unknown> }>;
  const listed = updates.slice(0, LISTED_ENTITIES);
  const current = await currentEntities(listed.map((update) => update.guid), lookup);
  const lines = listed.map((update) => {
    const entity = current.get(update.guid);
    const name = entity === undefined
      ? `GUID ${update.guid} (its current values could not be read)`
      : entity === NOT_FOUND || entity.status === "DELETED"
      ? `GUID ${update.guid} (no such entity: it will fail, changing nothing)`
      : entityText(entity, update.guid);
    const before = typeof entity === "object" ? entity.attributes : undefined;
    return `- ${name}:\n${changesText(before, update.attributes, "    ")}`;
  });
  const more = updates.length - listed.length;
  return `overwrite attributes of ${updates.length} entit${updates.length === 1 ? "y" : "ies"}:\n` +
    lines.join("\n") + (more > 0 ? `\n… and ${more} more` : "");
};

const NOT_FOUND = "not found";

/**
 * The entities with these GUIDs, {@link NOT_FOUND} for one the catalog does not know, absent for one that
 * could not be read. One bulk read; the catalog refuses all of it for one unknown GUID, and then each is
 * read alone (at most {@link LISTED_ENTITIES}).
 */
async function currentEntities(
  guids: string[],
  { services, signal }: ChangeLookup,
): Promise<Map<string, AtlasEntity | typeof NOT_FOUND>> {
  const found = new Map<string, AtlasEntity | typeof NOT_FOUND>();
  const entityApi = services.catalog().entity;
  try {
    const page = await entityApi.getMany(guids, { minExtInfo: true, signal });
    for (const entity of page.entities ?? []) if (entity.guid) found.set(entity.guid, entity);
    return found;
  } catch (error) {
    if (signal?.aborted) throw error;
  }
  for (const guid of guids) {
    try {
      found.set(
        guid,
        (await entityApi.get(guid, { minExtInfo: true, ignoreRelationships: true, signal })).entity,
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      if ((error as { status?: number }).status === 404) found.set(guid, NOT_FOUND);
    }
  }
  return found;
}

const createEntityOverwrite: Describer = async (input, { services, signal }) => {
  const typeName = String(input.type_name);
  const qualifiedName = String(input.qualified_name);
  const given: Record<string, unknown> = {
    name: input.name,
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.attributes as Record<string, unknown> | undefined),
  };
  let entity: AtlasEntity | undefined;
  try {
    entity = (await services.catalog().entity.getByUniqueAttribute(typeName, qualifiedName, {
      minExtInfo: true,
      ignoreRelationships: true,
      signal,
    })).entity;
  } catch (error) {
    if (signal?.aborted || (error as { status?: number }).status !== 404) throw error;
  }
  if (!entity) return `create ${typeName} "${qualifiedName}" (none exists yet: nothing is overwritten).`;
  return `overwrite ${entityText(entity, entity.guid ?? "")}:\n${changesText(entity.attributes, given)}`;
};

const createEntitiesOverwrite: Describer = (input) => {
  const entities = input.entities as Array<{ type_name: string; qualified_name: string }>;
  const listed = entities.slice(0, LISTED_ENTITIES).map((e) => `- ${e.type_name} ${e.qualified_name}`);
  const more = entities.length - listed.length;
  return `create ${entities.length} entities, overwriting the attributes given of any that exist already ` +
    `(same type and qualified name):\n${listed.join("\n")}${more > 0 ? `\n… and ${more} more` : ""}`;
};

const deleteRelationship: Describer = async (input, { services, signal }) => {
  const guid = String(input.guid);
  const relationship = (await services.catalog().relationships.get(guid, { signal })).relationship ?? {};
  const end = (id?: AtlasObjectId) =>
    `${id?.typeName ?? "entity"} ${String(id?.uniqueAttributes?.qualifiedName ?? id?.guid ?? "?")}`;
  return `delete relationship ${relationship.typeName ?? ""} (GUID ${guid}) between ${
    end(relationship.end1)
  } ` +
    `and ${end(relationship.end2)}.`;
};

const removeBusinessMetadata: Describer = async (input, { services, signal }) => {
  const guid = String(input.guid);
  const { entity } = await services.catalog().entity.get(guid, {
    minExtInfo: true,
    ignoreRelationships: true,
    signal,
  });
  return `remove business metadata "${input.bm_name}" and its values from ${entityText(entity, guid)}.`;
};

const deleteEntityByName: Describer = async (input, { services, signal }) => {
  const { entity } = await services.catalog().entity.getByUniqueAttribute(
    String(input.typeName),
    String(input.qualifiedName),
    { minExtInfo: true, ignoreRelationships: true, signal },
  );
  return `delete ${entityText(entity, entity.guid ?? "")}.`;
};

const deleteManyEntities: Describer = async (input, lookup) => {
  const guids = input.guid as string[];
  const listed = guids.slice(0, LISTED_ENTITIES);
  const current = await currentEntities(listed, lookup);
  const lines = listed.map((guid) => {
    const entity = current.get(guid);
    if (typeof entity === "object" && entity.status !== "DELETED") return `- ${entityText(entity, guid)}`;
    return `- GUID ${guid} (${entity === undefined ? "could not be read" : "no such entity"})`;
  });
  const more = guids.length - listed.length;
  return `delete ${guids.length} entit${guids.length === 1 ? "y" : "ies"}:\n${lines.join("\n")}` +
    (more > 0 ? `\n… and ${more} more` : "");
};

const deleteCollection: Describer = async (input, { services, signal }) => {
  const name = String(input.collection_name ?? input.collectionName);
  const collection = await services.catalog().collections.get(name, signal);
  const friendly = collection.friendlyName && collection.friendlyName !== name
    ? ` ("${collection.friendlyName}")`
    : "";
  const parent = collection.parentCollection?.referenceName;
  return `delete collection ${name}${friendly}${parent ? `, a child of ${parent}` : ""}.`;
};

const deleteGlossaryTerm: Describer = async (input, { services, signal }) => {
  const guid = String(input.termGuid);
  const term = await services.catalog().glossary.getTerm(guid, signal);
  return `delete glossary term "${term.name}" of glossary "${term.anchor?.displayText ?? "?"}" (qualified ` +
    `name ${term.qualifiedName ?? "?"}, GUID ${guid}).`;
};

const deleteGlossary: Describer = async (input, { services, signal }) => {
  const guid = String(input.glossaryGuid);
  const glossary = await services.catalog().glossary.get(guid, signal);
  const terms = glossary.terms?.length ?? 0;
  const categories = glossary.categories?.length ?? 0;
  return `delete glossary "${glossary.name}" (GUID ${guid}) with its ${terms} term${
    terms === 1 ? "" : "s"
  } ` +
    `and ${categories} categor${categories === 1 ? "y" : "ies"}.`;
};

const deleteGlossaryCategory: Describer = async (input, { services, signal }) => {
  const guid = String(input.categoryGuid);
  const category = await services.catalog().glossary.getCategory(guid, signal);
  return `delete glossary category "${category.name}" of glossary "${category.anchor?.displayText ?? "?"}" ` +
    `(GUID ${guid}); its terms stay.`;
};

const TOOL_CHANGES: Record<string, Describer> = {
  delete_entity: deleteEntity,
  update_entity: updateEntity,
  batch_update_entities: updateManyEntities,
  create_entity: createEntityOverwrite,
  batch_create_entities: createEntitiesOverwrite,
  delete_relationship: deleteRelationship,
  uc_delete_metadata_from_asset: removeBusinessMetadata,
  import_entities_from_csv: (input) =>
    `import ${input.entity_type} entities from ${input.file_path}, overwriting the mapped attributes of ` +
    "those that exist already (same qualified name).",
  uc_cleanup_metadata_definition: (input) =>
    `remove business metadata "${input.name}" and its values from every asset that carries it.`,
  uc_delete_metadata_definition: (input) =>
    `delete the business metadata definition "${input.name}"` +
    (input.force ? ", first removing it and its values from every asset that carries it." : "."),
  create_collection: (input) =>
    `overwrite collection "${input.collection_name}" with ${argumentsText(input, ["if_exists"])}.`,
  delete_collection: deleteCollection,
  set_collection_role: (input) =>
    `${input.action} role ${input.role} ${input.action === "revoke" ? "from" : "to"} principal ` +
    `${input.principal_id} on collection "${input.collection_name}".`,
  create_lineage: (input) =>
    `overwrite the lineage process "${input.process_name}" (sources ` +
    `${(input.source_guids as string[] | undefined)?.join(", ")} → targets ` +
    `${(input.target_guids as string[] | undefined)?.join(", ")}).`,
};

const OPERATION_CHANGES: Record<string, Describer> = {
  "entity.delete": deleteEntity,
  "entity.update": updateEntity,
  "entity.update-many": updateManyEntities,
  "entity.delete-relationship": deleteRelationship,
  "entity.delete-by-unique-attribute": deleteEntityByName,
  "entity.delete-many": deleteManyEntities,
  "collections.delete": deleteCollection,
  "glossary.delete": deleteGlossary,
  "glossary.delete-term": deleteGlossaryTerm,
  "glossary.delete-category": deleteGlossaryCategory,
};

/** `azure_sql_table "orders" (qualified name mssql://…, GUID 1f2e…)`. */
function entityText(entity: AtlasEntity, guid: string): string {
  const attributes = entity.attributes ?? {};
  const name = attributes.name ?? attributes.displayName ?? "(no name)";
  return `${entity.typeName ?? "entity"} "${valueText(name, false)}" (qualified name ` +
    `${valueText(attributes.qualifiedName ?? "(none)", false)}, GUID ${entity.guid ?? guid})`;
}

/** One line per field given: `name: old → new`, `(unchanged)` when it keeps its value. */
function changesText(
  current: Record<string, unknown> | undefined,
  given: Record<string, unknown>,
  indent = "  ",
): string {
  const lines = Object.entries(given).map(([field, value]) => {
    const before = current?.[field];
    const same = JSON.stringify(before) === JSON.stringify(value);
    return same
      ? `${indent}${field}: ${valueText(value)} (unchanged)`
      : `${indent}${field}: ${before === undefined ? "(not set)" : valueText(before)} → ${valueText(value)}`;
  });
  return lines.join("\n") || `${indent}(no attributes given)`;
}

/** A value as JSON (strings quoted unless `quoted` is false), cut to {@link VALUE_CHARS}. */
function valueText(value: unknown, quoted = true): string {
  const text = typeof value === "string" && !quoted ? value : JSON.stringify(value) ?? String(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

/** `guid=…, name=…`: the short values of a call, for a tool without a description of its own. */
function argumentsText(input: Record<string, unknown>, leaveOut: string[] = []): string {
  const values = Object.entries(input).flatMap(([key, value]) =>
    value === undefined || leaveOut.includes(key) ? [] : [`${key}=${valueText(value, false)}`]
  );
  return values.join(", ") || "no arguments";
}
