/**
 * Every curated tool, registered from this one list, in the order tools/list shows them (entities first,
 * the registry tools last; the snapshot test holds it). Each API area adds its tools here.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";
import {
  cleanupMetadataDefinitionTool,
  deleteMetadataDefinitionTool,
  deleteMetadataFromAssetTool,
  listCustomMetadataDefsTool,
} from "./business_metadata_tools.ts";
import {
  batchCreateEntitiesTool,
  batchUpdateEntitiesTool,
  createEntityTool,
  deleteEntityTool,
  getEntityTool,
  updateEntityTool,
} from "./entity_tools.ts";
import {
  getAccountPropertiesTool,
  invokeOperationTool,
  listAvailableOperationsTool,
} from "./registry_tools.ts";
import { createRelationshipTool, deleteRelationshipTool, getRelationshipTool } from "./relationship_tools.ts";
import { SEARCH_TOOLS, searchEntitiesTool } from "./search_tools.ts";
import { COLLECTION_TOOLS } from "./collection_tools.ts";
import { COLLECTION_ROLE_TOOLS } from "./collection_role_tools.ts";
import { GLOSSARY_TOOLS } from "./glossary_tools.ts";
import { UC_TOOLS } from "./unified_tools.ts";
import { LINEAGE_TOOLS } from "./lineage_tools.ts";
import { analyzeLineageImpactTool } from "./lineage_impact_tool.ts";
import { QUALITY_TOOLS } from "./quality_tools.ts";
import { getTypedefTool, listTypedefsTool } from "./types_tools.ts";
import { importEntitiesFromCsvTool } from "./csv_import_tool.ts";
import { WORKFLOW_TOOLS } from "./workflow_tools.ts";

export const ALL_TOOLS: ReadonlyArray<ToolDefinition> = [
  // Entity operations
  getEntityTool,
  createEntityTool,
  updateEntityTool,
  deleteEntityTool,
  searchEntitiesTool,
  batchCreateEntitiesTool,
  batchUpdateEntitiesTool,
  importEntitiesFromCsvTool,
  // Glossary operations
  ...GLOSSARY_TOOLS,
  // Unified catalog: domains and terms
  ...UC_TOOLS,
  // Unified catalog: business metadata definitions
  listCustomMetadataDefsTool,
  cleanupMetadataDefinitionTool,
  deleteMetadataDefinitionTool,
  deleteMetadataFromAssetTool,
  // Collections, lineage and search
  ...COLLECTION_TOOLS,
  ...COLLECTION_ROLE_TOOLS,
  ...LINEAGE_TOOLS,
  analyzeLineageImpactTool,
  ...SEARCH_TOOLS,
  // Data quality
  ...QUALITY_TOOLS,
  // Type definitions
  getTypedefTool,
  listTypedefsTool,
  // Relationships
  createRelationshipTool,
  getRelationshipTool,
  deleteRelationshipTool,
  // Workflows: approvals
  ...WORKFLOW_TOOLS,
  // Account and registry
  getAccountPropertiesTool,
  listAvailableOperationsTool,
  invokeOperationTool,
];
