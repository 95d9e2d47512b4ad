/**
 * Unified catalog tools (domains and terms).
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";

export const UC_TOOLS: ToolDefinition[] = [];
