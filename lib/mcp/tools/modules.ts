/**
 * The modules that define the curated tools, each loadable on its own. The stdio fast start runs a first
 * tool call with only its tool's module loaded (the rest of the server, every tool and the SDK take about
 * 150 ms); which module holds which tool is generated into `fast_start_data.json` from these loaders and
 * `ALL_TOOLS` (`tools/fast_start_data.ts`), so a tool moved to another module fails the data's test until
 * `deno task docs` is run. Each import is written out, so bundles and compiled binaries carry the modules.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";

/** A tool module's exports; the tool values among them are found by {@link toolsExportedBy}. */
type ToolModule = Record<string, unknown>;

/** Loaders of the modules that define tools, by file name. */
export const TOOL_MODULES: Readonly<Record<string, () => Promise<ToolModule>>> = {
  "business_metadata_tools.ts": () => import("./business_metadata_tools.ts"),
  "collection_role_tools.ts": () => import("./collection_role_tools.ts"),
  "collection_tools.ts": () => import("./collection_tools.ts"),
  "csv_import_tool.ts": () => import("./csv_import_tool.ts"),
  "entity_tools.ts": () => import("./entity_tools.ts"),
  "glossary_assign_tool.ts": () => import("./glossary_assign_tool.ts"),
  "glossary_tools.ts": () => import("./glossary_tools.ts"),
  "lineage_impact_tool.ts": () => import("./lineage_impact_tool.ts"),
  "lineage_tools.ts": () => import("./lineage_tools.ts"),
  "quality_tools.ts": () => import("./quality_tools.ts"),
  "registry_tools.ts": () => import("./registry_tools.ts"),
  "relationship_tools.ts": () => import("./relationship_tools.ts"),
  "search_tools.ts": () => import("./search_tools.ts"),
  "types_tools.ts": () => import("./types_tools.ts"),
  "unified_data_asset_tools.ts": () => import("./unified_data_asset_tools.ts"),
  "unified_domain_tools.ts": () => import("./unified_domain_tools.ts"),
  "unified_term_tools.ts": () => import("./unified_term_tools.ts"),
  "workflow_tools.ts": () => import("./workflow_tools.ts"),
};

/** The tool values a module exports by name (lists of tools, which only gather them, are not counted). */
export function toolsExportedBy(module: ToolModule): ToolDefinition[] {
  return Object.values(module).filter(isToolDefinition);
}

function isToolDefinition(value: unknown): value is ToolDefinition {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const tool = value as Partial<ToolDefinition>;
  return typeof tool.name === "string" && typeof tool.handler === "function" &&
    typeof tool.input === "object";
}

/** The tool named `name` from the module `file` of {@link TOOL_MODULES}; throws if it is not there. */
export async function loadTool(file: string, name: string): Promise<ToolDefinition> {
  const load = TOOL_MODULES[file];
  const tool = load && toolsExportedBy(await load()).find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`the tool ${name} is not defined in lib/mcp/tools/${file}`);
  return tool;
}
