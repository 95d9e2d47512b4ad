/**
 * The dynamic mode (`--dynamic-toolsets`, CATALOG_MCP_DYNAMIC_TOOLSETS), as github/github-mcp-server has
 * it: a session starts with three small tools (list_available_toolsets, get_toolset_tools,
 * enable_toolset) and grows as the model enables toolsets, each enabling followed by
 * `notifications/tools/list_changed`. What can be enabled is what the session would serve without the
 * dynamic mode (its toolsets, read-only mode, CATALOG_MCP_TOOLS): enabling never widens that.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";
import { toolsetIcon, TOOLSETS_ICON } from "./icons.ts";

/** An MCP icon (2025-11-25) as a toolset's listing carries it. */
const iconSchema = z.object({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
});
import { defineTool, type ToolAnnotations, type ToolDefinition } from "./tool.ts";
import type { ToolSelection } from "./tool_selection.ts";
import { findToolset, TOOLSET_NAMES, type ToolsetName, toolsetOf } from "./toolsets.ts";

export const DYNAMIC_TOOL_NAMES: ReadonlySet<string> = new Set([
  "list_available_toolsets",
  "get_toolset_tools",
  "enable_toolset",
]);

/** They read and change the session's tool list, never the catalog. */
const SESSION_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const toolsetInput = z.object({
  toolset: z.string().describe("A toolset name from list_available_toolsets"),
});

export interface DynamicToolsets {
  /** The session's selection: the three tools and the enabled sets' tools; it changes as sets are enabled. */
  selection: ToolSelection;
}

/**
 * The dynamic mode of one session over `reachable`, what the session may serve. `onEnable` gets the tools
 * a newly enabled set adds, once they are in `selection`: it must make them callable, listed, and send
 * `notifications/tools/list_changed`.
 */
export function dynamicToolsets(
  reachable: ToolSelection,
  onEnable: (added: ToolDefinition[]) => void,
): DynamicToolsets {
  const sets = reachable.toolsets ?? TOOLSET_NAMES;
  const enabledSets = new Set<ToolsetName>();
  const toolsIn = (set: ToolsetName) => reachable.enabled.filter((tool) => toolsetOf(tool.name) === set);

  const disabled = new Map(reachable.disabled);
  for (const tool of reachable.enabled) {
    const set = toolsetOf(tool.name);
    disabled.set(
      tool.name,
      `${tool.name} is in toolset "${set}", which this session has not enabled: call enable_toolset ` +
        `with {"toolset": "${set}"}, then call ${tool.name} again.`,
    );
  }

  /** The set `name` names, if this session may enable it; a UsageError (an error result) otherwise. */
  const servedSet = (name: string): ToolsetName => {
    const set = (sets as readonly string[]).find((known) => known === name.trim().toLowerCase());
    if (set) return set as ToolsetName;
    const hint = "Call list_available_toolsets for the toolsets this session can enable.";
    if (findToolset(name.trim().toLowerCase())) {
      throw new UsageError(`Toolset "${name}" is not served by this server here.`, hint);
    }
    throw new UsageError(`There is no toolset "${name}".${didYouMean(name, sets)}`, hint);
  };

  const listTool = defineTool({
    name: "list_available_toolsets",
    title: "List toolsets",
    description: "The toolsets this session can enable, each with what it covers, how many tools it " +
      "adds and whether it is enabled. Enable one with enable_toolset.",
    input: z.object({}),
    output: z.object({
      toolsets: z.array(z.object({
        name: z.string(),
        description: z.string(),
        tools: z.number().int(),
        enabled: z.boolean(),
        icons: z.array(iconSchema),
      })),
    }),
    annotations: SESSION_ONLY,
    handler: () =>
      Promise.resolve({
        toolsets: sets.map((set) => ({
          name: set,
          description: findToolset(set)!.description,
          tools: toolsIn(set).length,
          enabled: enabledSets.has(set),
          icons: [toolsetIcon(set)],
        })),
      }),
  });

  const showTool = defineTool({
    name: "get_toolset_tools",
    title: "Show a toolset's tools",
    description: "The tools a toolset adds (name, title, whether it only reads), to decide whether to " +
      "enable it.",
    input: toolsetInput,
    output: z.object({
      toolset: z.string(),
      enabled: z.boolean(),
      icons: z.array(iconSchema),
      tools: z.array(z.object({ name: z.string(), title: z.string(), read_only: z.boolean() })),
    }),
    annotations: SESSION_ONLY,
    handler: (_context, { toolset }) => {
      const set = servedSet(toolset);
      return Promise.resolve({
        toolset: set,
        enabled: enabledSets.has(set),
        icons: [toolsetIcon(set)],
        tools: toolsIn(set).map((tool) => ({
          name: tool.name,
          title: tool.title,
          read_only: tool.annotations.readOnlyHint,
        })),
      });
    },
  });

  const selection: ToolSelection = { enabled: [], disabled, toolsets: reachable.toolsets };

  const enableTool = defineTool({
    name: "enable_toolset",
    title: "Enable a toolset",
    description: "Adds a toolset's tools to this session; the tool list changes " +
      "(notifications/tools/list_changed) and they can be called at once.",
    input: toolsetInput,
    output: z.object({ toolset: z.string(), added: z.array(z.string()), already_enabled: z.boolean() }),
    annotations: SESSION_ONLY,
    handler: (_context, { toolset }) => {
      const set = servedSet(toolset);
      if (enabledSets.has(set)) return Promise.resolve({ toolset: set, added: [], already_enabled: true });
      enabledSets.add(set);
      const added = toolsIn(set);
      for (const tool of added) disabled.delete(tool.name);
      selection.enabled.push(...added);
      // A set whose every tool the configuration switched off adds nothing: the list has not changed.
      if (added.length > 0) onEnable(added);
      return Promise.resolve({ toolset: set, added: added.map((tool) => tool.name), already_enabled: false });
    },
  });

  selection.enabled.push(
    ...[listTool, showTool, enableTool].map((tool) => ({ ...tool, icons: [TOOLSETS_ICON] })),
  );
  return { selection };
}
