/**
 * Icons (MCP 2025-11-25 `icons` on Implementation and Tool): inline SVG data URIs, so they work over
 * stdio and behind any proxy, with nothing to fetch.
 *
 * Where they go is a matter of bytes: an icon is about 240 bytes of JSON, and one on each of the 46 tools
 * would add 11 KB to every `tools/list` (measured; the whole list is held under 40 KB). So the server
 * carries one (`serverInfo.icons`, sent once per session) and so do the three tools of the dynamic mode,
 * whose listing is small; each toolset has its own where toolsets are listed (list_available_toolsets,
 * get_toolset_tools); the catalog tools carry none.
 *
 * @module
 */
import type { Tool } from "../deps/mcp_sdk.ts";

type Icon = NonNullable<Tool["icons"]>[number];

const SVG_NS = 'xmlns="http://www.w3.org/2000/svg"';

function svgIcon(svg: string): Icon {
  return { src: `data:image/svg+xml;base64,${btoa(svg)}`, mimeType: "image/svg+xml", sizes: ["any"] };
}

/** The server's icon: three stacked catalog shelves. */
export const SERVER_ICON: Icon = svgIcon(
  `<svg ${SVG_NS} viewBox="0 0 16 16" fill="#0f766e"><rect y="1" width="16" height="4" rx="1"/>` +
    `<rect y="6" width="16" height="4" rx="1"/><rect y="11" width="16" height="4" rx="1"/></svg>`,
);

/** The icon of the dynamic-mode tools, which deal in toolsets rather than the catalog: four tiles. */
export const TOOLSETS_ICON: Icon = svgIcon(
  `<svg ${SVG_NS} viewBox="0 0 16 16" fill="#334155"><rect width="7" height="7" rx="1"/>` +
    `<rect x="9" width="7" height="7" rx="1"/><rect y="9" width="7" height="7" rx="1"/>` +
    `<rect x="9" y="9" width="7" height="7" rx="1"/></svg>`,
);

/** Each toolset's colour, so their tiles tell them apart at a glance. */
const TOOLSET_COLOURS: Readonly<Record<string, string>> = {
  entities: "#0f766e",
  search: "#1d4ed8",
  glossary: "#7c3aed",
  unified: "#b45309",
  collections: "#15803d",
  lineage: "#be123c",
  types: "#475569",
  relationships: "#0e7490",
  workflows: "#a21caf",
  account: "#334155",
  operations: "#525252",
};

const toolsetIcons = new Map<string, Icon>();

/**
 * A toolset's icon: a tile of its colour with its initial (about 300 bytes), listed where toolsets are
 * (list_available_toolsets, get_toolset_tools), not on every tool.
 */
export function toolsetIcon(name: string): Icon {
  let icon = toolsetIcons.get(name);
  if (!icon) {
    const colour = TOOLSET_COLOURS[name] ?? "#334155";
    icon = svgIcon(
      `<svg ${SVG_NS} viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="${colour}"/>` +
        `<text x="8" y="12" font-family="sans-serif" font-size="10" text-anchor="middle" fill="#fff">` +
        `${name.charAt(0).toUpperCase()}</text></svg>`,
    );
    toolsetIcons.set(name, icon);
  }
  return icon;
}
