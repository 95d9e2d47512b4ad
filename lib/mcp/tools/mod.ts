/**
 * Every curated tool, registered from this one list. Each API area adds its tools here as it lands.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";
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
import { searchEntitiesTool } from "./search_tools.ts";

export const ALL_TOOLS: ReadonlyArray<ToolDefinition> = [
  getEntityTool,
  createEntityTool,
  updateEntityTool,
  deleteEntityTool,
  searchEntitiesTool,
  batchCreateEntitiesTool,
  batchUpdateEntitiesTool,
  getAccountPropertiesTool,
  listAvailableOperationsTool,
  invokeOperationTool,
];
