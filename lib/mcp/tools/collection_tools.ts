/**
 * collection tools.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";

export const COLLECTION_TOOLS: ToolDefinition[] = [];
