/**
 * The Apache Atlas core model as a Purview account carries it: `Referenceable`, `Asset`, `DataSet`,
 * `Process` and lineage, the glossary types with their relationships and enums, generic schemas and columns,
 * and a couple of system structs.
 *
 * Atlas's own types say `serviceType: "atlas_core"` and the glossary types are `__internal` entities, as
 * Atlas's model defines them (apache/atlas addons/models/0000-Area0/0011-glossary_model.json) and the
 * service lists them (Azure/azure-sdk-for-js
 * sdk/purview/purview-catalog-rest/recordings/node/purview_catalog_tepedefs_test/recording_should_list_all_available_typedefs_sources.json:
 * AtlasGlossaryTermRelationshipStatus with serviceType atlas_core, AtlasGlossary under `__internal`).
 *
 * @example
 * ```ts
 * import { CORE_TYPES } from "./builtin_core.ts";
 * console.log(CORE_TYPES.some((t) => t.def.name === "DataSet")); // true
 * ```
 *
 * @module
 */
import {
  type BuiltinDef,
  entity,
  enumeration,
  optional,
  relationship,
  required,
  struct,
} from "./builtin_builders.ts";

const ATLAS_CORE = "atlas_core";

const GLOSSARY_RELATION_ATTRIBUTES = [
  optional("description", "string"),
  optional("expression", "string"),
  optional("status", "AtlasGlossaryTermRelationshipStatus"),
  optional("steward", "string"),
  optional("source", "string"),
];

/** Core Atlas and Purview types. */
export const CORE_TYPES: BuiltinDef[] = [
  enumeration("glossary_term_status_value", "Lifecycle status of a glossary term", [
    "Approved",
    "Alert",
    "Expired",
    "Draft",
  ]),
  enumeration("AtlasGlossaryTermRelationshipStatus", "How reliable a relationship between two terms is", [
    { value: "DRAFT", ordinal: 0, description: "Still being worked on." },
    { value: "ACTIVE", ordinal: 1, description: "Checked and in use." },
    { value: "DEPRECATED", ordinal: 2, description: "Being phased out." },
    { value: "OBSOLETE", ordinal: 3, description: "No longer to be used." },
    { value: "OTHER", ordinal: 99, description: "Any other status." },
  ], ATLAS_CORE),
  enumeration("AtlasGlossaryTermAssignmentStatus", "How a term came to be assigned to an asset", [
    "DISCOVERED",
    "PROPOSED",
    "IMPORTED",
    "VALIDATED",
    "DEPRECATED",
    "OBSOLETE",
    "OTHER",
  ], ATLAS_CORE),
  struct("blob_soft_deleted_state", "Soft-delete state of a blob or file", [
    optional("deleted", "boolean"),
    optional("deletedTime", "date"),
    optional("remainingRetentionDays", "long"),
  ], "Azure Blob Storage"),
  struct(
    "hive_order",
    "Sort order of one column",
    [required("order", "int"), required("col", "string")],
    "hive",
  ),

  // Atlas's base of the types it keeps for itself (the glossary's among them).
  entity("__internal", [], "__internal", [], ATLAS_CORE),
  entity("Referenceable", [], "Anything that can be found by a unique qualified name", [
    required("qualifiedName", "string", { isUnique: true, isIndexable: true }),
  ], ATLAS_CORE),
  entity("Asset", ["Referenceable"], "A named asset of the data estate", [
    required("name", "string", { isIndexable: true }),
    optional("description", "string"),
    optional("owner", "string", { isIndexable: true }),
    optional("displayName", "string"),
    optional("userDescription", "string"),
  ], ATLAS_CORE),
  entity("DataSet", ["Asset"], "Data at rest: a table, a file, a dataset", [], ATLAS_CORE),
  entity("Process", ["Asset"], "A transformation from input data sets to output data sets (lineage)", [
    optional("inputs", "array<DataSet>"),
    optional("outputs", "array<DataSet>"),
    // Purview's column-level lineage: a JSON string mapping source columns to sink columns.
    optional("columnMapping", "string"),
  ], ATLAS_CORE),
  entity("azure_resource", ["Asset"], "A resource of an Azure subscription", [], "Azure"),
  entity("tabular_schema", ["DataSet"], "The schema of a file or other tabular data"),
  entity("column", ["DataSet"], "A column of a tabular schema", [optional("type", "string")]),
  entity("AtlasGlossary", ["__internal"], "A business glossary", glossaryAttributes(), ATLAS_CORE),
  entity("AtlasGlossaryTerm", ["__internal"], "A term of a business glossary", [
    ...glossaryAttributes(),
    optional("abbreviation", "string"),
    optional("examples", "array<string>"),
    optional("status", "glossary_term_status_value"),
  ], ATLAS_CORE),
  entity(
    "AtlasGlossaryCategory",
    ["__internal"],
    "A category grouping glossary terms",
    glossaryAttributes(),
    ATLAS_CORE,
  ),

  relationship("dataset_process_inputs", "AGGREGATION", ["Process", "inputs", "SET", {
    container: true,
    legacy: true,
  }], ["DataSet", "inputToProcesses", "SET"]),
  relationship("process_dataset_outputs", "AGGREGATION", ["Process", "outputs", "SET", {
    container: true,
    legacy: true,
  }], ["DataSet", "outputFromProcesses", "SET"]),
  // A process that is one step of a larger one (a pipeline and its activities).
  relationship("process_parent", "AGGREGATION", ["Process", "subProcesses", "SET", { container: true }], [
    "Process",
    "parent",
    "SINGLE",
  ]),
  relationship("tabular_schema_columns", "COMPOSITION", ["tabular_schema", "columns", "SET", {
    container: true,
  }], ["column", "composeSchema", "SINGLE"]),
  relationship("tabular_schema_datasets", "ASSOCIATION", ["tabular_schema", "associatedDataSets", "SET"], [
    "DataSet",
    "tabular_schema",
    "SINGLE",
  ]),
  relationship("AtlasGlossarySemanticAssignment", "ASSOCIATION", [
    "AtlasGlossaryTerm",
    "assignedEntities",
    "SET",
  ], [
    "Referenceable",
    "meanings",
    "SET",
  ], {
    attributeDefs: [
      optional("description", "string"),
      optional("expression", "string"),
      optional("status", "AtlasGlossaryTermAssignmentStatus"),
      optional("confidence", "int"),
      optional("createdBy", "string"),
      optional("steward", "string"),
      optional("source", "string"),
    ],
    serviceType: ATLAS_CORE,
    // As Atlas defines it: a term's classifications flow to the assets it is assigned to.
    propagateTags: "ONE_TO_TWO",
  }),
  relationship("AtlasGlossarySynonym", "ASSOCIATION", ["AtlasGlossaryTerm", "synonyms", "SET"], [
    "AtlasGlossaryTerm",
    "synonyms",
    "SET",
  ], { attributeDefs: GLOSSARY_RELATION_ATTRIBUTES }),
  relationship("AtlasGlossaryRelatedTerm", "ASSOCIATION", ["AtlasGlossaryTerm", "seeAlso", "SET"], [
    "AtlasGlossaryTerm",
    "seeAlso",
    "SET",
  ], { attributeDefs: GLOSSARY_RELATION_ATTRIBUTES }),
  relationship("AtlasGlossaryTermAnchor", "COMPOSITION", ["AtlasGlossary", "terms", "SET", {
    container: true,
  }], [
    "AtlasGlossaryTerm",
    "anchor",
    "SINGLE",
  ]),
  relationship("AtlasGlossaryCategoryAnchor", "COMPOSITION", ["AtlasGlossary", "categories", "SET", {
    container: true,
  }], ["AtlasGlossaryCategory", "anchor", "SINGLE"]),
];

function glossaryAttributes(): Record<string, unknown>[] {
  return [
    optional("qualifiedName", "string", { isUnique: true, isIndexable: true }),
    required("name", "string", { isIndexable: true }),
    optional("shortDescription", "string"),
    optional("longDescription", "string"),
    optional("language", "string"),
    optional("usage", "string"),
  ];
}
