/**
 * The README's tool table, rendered from the tool values so the documentation cannot drift from what
 * the server lists (see `tools/readme_sections.ts`).
 *
 * @module
 */
import { markdownTable } from "./readme_sections.ts";
import type { ToolDefinition } from "../lib/mcp/tool.ts";
import { ALL_TOOLS } from "../lib/mcp/tools/mod.ts";

/** A markdown table of the tools: name, what it does (first sentence), and how it behaves. */
export function renderToolTable(tools: ReadonlyArray<ToolDefinition> = ALL_TOOLS): string {
  return markdownTable(
    ["Tool", "What it does", "Kind"],
    tools.map((tool) => {
      const a = tool.annotations;
      const kind = a.readOnlyHint ? "read-only" : a.destructiveHint ? "destructive" : "writes";
      const summary = tool.description.split(/(?<=\.)\s/)[0];
      return [`\`${tool.name}\``, summary, `${kind}${a.idempotentHint ? ", idempotent" : ""}`];
    }),
  );
}
