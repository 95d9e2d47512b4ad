/**
 * Which tools a server exposes: read-only mode drops every tool that is not read-only (and narrows
 * invoke_operation to read operations), and `CATALOG_MCP_TOOLS` allows or denies tools by name
 * (`get_entity,search_entities` allows only those; `-delete_entity` denies one).
 *
 * @module
 */
import { didYouMean } from "../suggest.ts";
import { ConfigError } from "../errors.ts";
import type { ToolDefinition } from "./tool.ts";

export interface ToolSelection {
  /** Tools listed and callable. */
  enabled: ToolDefinition[];
  /** Tools that exist but are switched off, with the reason a call gets. */
  disabled: Map<string, string>;
}

/** Applies read-only mode and the allow/deny list; unknown names in the list are a configuration error. */
export function selectTools(
  all: ToolDefinition[],
  options: { readOnly: boolean; toolsSpec?: string },
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

  const enabled: ToolDefinition[] = [];
  const disabled = new Map<string, string>();
  for (const tool of all) {
    if (deny.has(tool.name) || (allow.size > 0 && !allow.has(tool.name))) {
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
  return { enabled, disabled };
}
