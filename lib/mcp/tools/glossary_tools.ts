/**
 * glossary tools.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";

export const GLOSSARY_TOOLS: ToolDefinition[] = [];
