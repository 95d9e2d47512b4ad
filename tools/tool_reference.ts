/**
 * The tool reference in `docs/tools.md`: the tools and the toolsets, rendered from the tool values so the
 * documentation cannot drift from what the server lists (see `tools/docs_pages.ts`).
 *
 * @module
 */
import type { ToolDefinition } from "../lib/mcp/tool.ts";
import { toolsetOf, TOOLSETS } from "../lib/mcp/toolsets.ts";
import { ALL_TOOLS } from "../lib/mcp/tools/mod.ts";
import { wrapText } from "./markdown.ts";

/** The kind of a tool as the reference states it: read-only, writes or destructive, and idempotent. */
export function toolKind(annotations: ToolDefinition["annotations"]): string {
  const kind = annotations.readOnlyHint
    ? "read-only"
    : annotations.destructiveHint
    ? "destructive"
    : "writes";
  return `${kind}${annotations.idempotentHint ? ", idempotent" : ""}`;
}

/** One list item per tool: its name, its kind and what it does (its description's first sentence). */
export function renderToolList(tools: ReadonlyArray<ToolDefinition> = ALL_TOOLS): string {
  return tools.map((tool) => {
    const summary = tool.description.split(/(?<=\.)\s/)[0];
    return wrapText(`- \`${tool.name}\` (${toolKind(tool.annotations)}): ${summary}`, undefined, "  ");
  }).join("\n");
}

/** One list item per toolset: its name, what it covers and its tools (lib/mcp/toolsets.ts). */
export function renderToolsetList(): string {
  return TOOLSETS.map((set) => {
    const tools = ALL_TOOLS.filter((tool) => toolsetOf(tool.name) === set.name).map((tool) => tool.name);
    return wrapText(`- \`${set.name}\`: ${set.description}. Tools: ${tools.join(", ")}.`, undefined, "  ");
  }).join("\n");
}
