/**
 * Icons (MCP 2025-11-25 `icons` on Implementation and Tool): inline SVG data URIs, so they work over
 * stdio and behind any proxy, with nothing to fetch.
 *
 * Where they go is a matter of bytes: an icon is about 240 bytes of JSON, and one on each of the 46 tools
 * would add 11 KB to every `tools/list` (measured; the whole list is held under 40 KB). So the server
 * carries one (`serverInfo.icons`, sent once per session) and so do the three tools of the dynamic mode,
 * whose listing is small; the catalog tools carry none.
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
