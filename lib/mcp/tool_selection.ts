/**
 * Which tools a server exposes: `CATALOG_MCP_TOOLSETS` keeps the tools of the named toolsets
 * (toolsets.ts), read-only mode drops every tool that is not read-only (and narrows invoke_operation to
 * read operations), and `CATALOG_MCP_TOOLS` allows or denies tools by name (`get_entity,search_entities`
 * allows only those; `-delete_entity` denies one). Each only narrows what the others leave.
 *
 * @module
 */
import { didYouMean } from "../core/suggest.ts";
import { ConfigError } from "../core/errors.ts";
import type { ToolDefinition } from "./tool.ts";
import { TOOLSET_NAMES, type ToolsetName, toolsetOf } from "./toolsets.ts";

export interface ToolSelection {
  /** Tools listed and callable. */
  enabled: ToolDefinition[];
  /** Tools that exist but are switched off, with the reason a call gets. */
  disabled: Map<string, string>;
  /** The toolsets served; undefined: every one. */
  toolsets?: readonly ToolsetName[];
}

/**
 * Applies the toolsets, read-only mode and the allow/deny list; unknown names in the list, and allowed
 * tools outside the toolsets, are configuration errors.
 */
export function selectTools(
  all: ToolDefinition[],
  options: { readOnly: boolean; toolsSpec?: string; toolsets?: readonly ToolsetName[] },
): ToolSelection {
  const names = all.map((t) => t.name);
  const allow = new Set<string>();
  const deny = new Set<string>();
  for (const raw of (options.toolsSpec ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const name = raw.replace(/^[-!]/, "");
    if (!names.includes(name)) {
      throw new ConfigError(
        `CATALOG_MCP_TOOLS names an unknown tool "${name}".${didYouMean(name, names)} ` +
          "Use tool names separated by commas; prefix a name with - to deny it.",
        "CATALOG_MCP_TOOLS",
      );
    }
    (raw.startsWith("-") || raw.startsWith("!") ? deny : allow).add(name);
  }
  const sets = options.toolsets;
  for (const name of allow) {
    const set = toolsetOf(name);
    if (sets && !(set && sets.includes(set))) {
      // Allowing a tool its toolset leaves out would silently allow nothing: say so at the start.
      throw new ConfigError(
        `CATALOG_MCP_TOOLS allows ${name}, which is in toolset "${set}", and CATALOG_MCP_TOOLSETS ` +
          `(or --toolsets) serves only ${sets.join(", ")}. Add ${set} to the toolsets or drop ${name} ` +
          "from CATALOG_MCP_TOOLS.",
        "CATALOG_MCP_TOOLS",
      );
    }
  }

  const enabled: ToolDefinition[] = [];
  const disabled = new Map<string, string>();
  for (const tool of all) {
    const set = toolsetOf(tool.name);
    if (sets && !(set && sets.includes(set))) {
      disabled.set(tool.name, outsideToolsetsReason(tool.name, sets, "CATALOG_MCP_TOOLSETS"));
    } else if (deny.has(tool.name) || (allow.size > 0 && !allow.has(tool.name))) {
      disabled.set(tool.name, `${tool.name} is switched off on this server (CATALOG_MCP_TOOLS).`);
    } else if (options.readOnly && !tool.annotations.readOnlyHint && tool.name !== "invoke_operation") {
      disabled.set(
        tool.name,
        `${tool.name} changes the catalog and this server is in read-only mode (CATALOG_MCP_READ_ONLY).`,
      );
    } else if (options.readOnly && tool.name === "invoke_operation") {
      // Still useful for reads; it refuses write operations itself, so it is honestly read-only here.
      enabled.push({
        ...tool,
        annotations: { ...tool.annotations, readOnlyHint: true, destructiveHint: false },
      });
    } else {
      enabled.push(tool);
    }
  }
  return { enabled, disabled, toolsets: sets };
}

/**
 * `selection` narrowed to `toolsets` (an HTTP request's `X-MCP-Toolsets` or `/x/<set>`): only what the
 * server already serves, never more. `source` says, in refusals, where the narrowing came from.
 */
export function narrowSelection(
  selection: ToolSelection,
  toolsets: readonly ToolsetName[],
  source: string,
): ToolSelection {
  const served = selection.toolsets ?? TOOLSET_NAMES;
  const kept = served.filter((set) => toolsets.includes(set));
  const disabled = new Map(selection.disabled);
  const enabled = selection.enabled.filter((tool) => {
    const set = toolsetOf(tool.name);
    if (set && kept.includes(set)) return true;
    disabled.set(tool.name, outsideToolsetsReason(tool.name, kept, source));
    return false;
  });
  return { enabled, disabled, toolsets: kept };
}

function outsideToolsetsReason(name: string, sets: readonly string[], source: string): string {
  const set = toolsetOf(name);
  return `${name} is in toolset "${set ?? "(none)"}", which this server does not serve here (${source}: ` +
    `${sets.join(", ") || "none"}).`;
}
