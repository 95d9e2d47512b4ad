/**
 * Type definition tools: get_typedef (one definition: `types get` with a category, `types get-any`
 * without) and list_typedefs (`types list` seen as a bounded list of names, or full definitions on
 * request).
 *
 * @module
 */
import type {
  AtlasTypeDef,
  AtlasTypesDef,
  TypeCategory,
  TypeDefCategory,
} from "../../catalog/types_definitions.ts";
import { z } from "../../deps/zod.ts";
import { UsageError } from "../../core/errors.ts";
import { getAnyTypeDef, getTypeDef, listTypeDefs } from "../../operations/types_operations.ts";
import { composedTool } from "../tool_operation.ts";
import { CATALOG_TEXT_IS_DATA } from "./catalog_text.ts";

const CATEGORIES = [
  "entity",
  "classification",
  "enum",
  "relationship",
  "struct",
  "business_metadata",
] as const;
type Category = typeof CATEGORIES[number];

/** Where each category sits in an AtlasTypesDef, and its name in the typedef paths. */
const LAYOUT: Record<Category, { key: keyof AtlasTypesDef; path: TypeDefCategory; filter?: TypeCategory }> = {
  entity: { key: "entityDefs", path: "entity", filter: "ENTITY" },
  classification: { key: "classificationDefs", path: "classification", filter: "CLASSIFICATION" },
  enum: { key: "enumDefs", path: "enum", filter: "ENUM" },
  relationship: { key: "relationshipDefs", path: "relationship", filter: "RELATIONSHIP" },
  struct: { key: "structDefs", path: "struct", filter: "STRUCT" },
  // The list API has no business-metadata filter: these come from the unfiltered list.
  business_metadata: { key: "businessMetadataDefs", path: "businessmetadata" },
};

const category = z.enum(CATEGORIES).describe("Kind of type definition");

export const getTypedefTool = composedTool({
  name: "get_typedef",
  title: "Get type definition",
  description:
    "One type definition by name (azure_sql_table) or guid: attributes (name, type, optional), super " +
    "types, relationship ends. Use before create_entity." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    name: z.string().min(1).optional().describe("Type name, e.g. azure_sql_table or DataSet"),
    guid: z.string().min(1).optional().describe("Type definition GUID"),
    category: category.optional(),
  }),
  output: z.object({ typedef: z.record(z.string(), z.unknown()) }),
  // One of two operations: a category narrows the lookup to its path.
  operations: [getTypeDef, getAnyTypeDef],
  compose: async (run, input) => {
    if ((input.name === undefined) === (input.guid === undefined)) {
      throw new UsageError("Give exactly one of name or guid.");
    }
    const ref = { name: input.name, guid: input.guid };
    const typedef = input.category
      ? await run(getTypeDef, { ...ref, category: LAYOUT[input.category].path })
      : await run(getAnyTypeDef, ref);
    return { typedef: typedef as Record<string, unknown> };
  },
});

const summary = z.object({
  name: z.string(),
  guid: z.string().optional(),
  category: z.string(),
  description: z.string().optional(),
  super_types: z.array(z.string()).optional(),
  attributes: z.array(z.string()).optional().describe("Attribute names; get_typedef gives their types"),
});

/**
 * list_typedefs is `types list` seen as a bounded, filtered list: its category is mapped to the list's
 * filter and its other arguments shape the answer, so it is written out, not derived.
 */
export const listTypedefsTool = composedTool({
  name: "list_typedefs",
  title: "List type definitions",
  description:
    "Type definitions (entity, classification, enum, relationship, struct, business metadata) with " +
    "attribute names; include_definitions gives them whole." + CATALOG_TEXT_IS_DATA,
  input: z.object({
    category: category.optional(),
    name_contains: z.string().optional().describe("Part of the type name"),
    limit: z.number().int().min(1).max(1000).default(200).describe("Most types to return"),
    include_definitions: z.boolean().default(false).describe("Full definitions, not summaries"),
  }),
  output: z.object({
    count: z.number().int().describe("Matching definitions"),
    typedefs: z.array(summary),
    definitions: z.array(z.record(z.string(), z.unknown())).optional(),
    truncated: z.boolean(),
  }),
  operations: [listTypeDefs],
  compose: async (run, input) => {
    const type = input.category ? LAYOUT[input.category].filter : undefined;
    const all = await run(listTypeDefs, { type }) as AtlasTypesDef;
    const categories = input.category ? [input.category] : CATEGORIES;
    const needle = input.name_contains?.toLowerCase();
    const matching = categories.flatMap((c) =>
      ((all[LAYOUT[c].key] ?? []) as AtlasTypeDef[]).map((def) => ({ def, category: c }))
    ).filter(({ def }) => !needle || String(def.name ?? "").toLowerCase().includes(needle));
    const page = matching.slice(0, input.limit);
    return {
      count: matching.length,
      typedefs: page.map(({ def, category }) => ({
        name: String(def.name),
        guid: typeof def.guid === "string" ? def.guid : undefined,
        category,
        description: typeof def.description === "string" ? def.description : undefined,
        super_types: Array.isArray(def.superTypes) ? def.superTypes.map(String) : undefined,
        attributes: Array.isArray(def.attributeDefs)
          ? def.attributeDefs.map((a: { name?: unknown }) => String(a.name))
          : undefined,
      })),
      definitions: input.include_definitions ? page.map(({ def }) => def) : undefined,
      truncated: matching.length > page.length,
    };
  },
});
