/**
 * lineage tools.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";

export const LINEAGE_TOOLS: ToolDefinition[] = [];
