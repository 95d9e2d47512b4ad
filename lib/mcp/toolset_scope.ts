/**
 * The toolsets one HTTP request asks for, as github/github-mcp-server's remote server takes them: a URL
 * path naming one set (`/mcp/x/glossary`; `/mcp/x/all` for every one) and the `X-MCP-Toolsets` header
 * naming several (`search,glossary`). Both given: the sets in both. They only narrow what the server
 * serves: a set the server's configuration leaves out is refused, never served.
 *
 * Unlike GitHub's server, which ignores unknown names in the header, a name that is not a toolset is
 * refused with a suggestion: a typo would otherwise quietly serve fewer tools than meant.
 *
 * @module
 */
import { jsonError } from "./http_security.ts";
import { parseToolsetList, TOOLSET_NAMES, type ToolsetName, unknownToolsetProblem } from "./toolsets.ts";

export const TOOLSETS_HEADER = "x-mcp-toolsets";

/** What a request is scoped to. */
export interface RequestScope {
  /** The sets asked for (and served); undefined: whatever the server serves. */
  toolsets?: ToolsetName[];
  /** Canonical form, the same for requests asking for the same: a session keeps the one it started with. */
  key: string;
  /** Where the narrowing came from, for refusals of calls to tools outside it. */
  source: string;
}

/** Whether `pathname` is the MCP endpoint `base` or one of its toolset paths (`base/x/…`). */
export function isMcpPath(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/x/`);
}

/**
 * The scope of a request to an MCP path (see {@link isMcpPath}), or the refusal to answer with: an unknown
 * set (404 in the path, 400 in the header), a set the server does not serve, a path naming several.
 */
export function requestScope(
  pathname: string,
  base: string,
  headers: Headers,
  served: readonly ToolsetName[] | undefined,
): RequestScope | Response {
  const sources: string[] = [];
  let asked: ToolsetName[] | undefined;
  if (pathname !== base) {
    const segment = pathname.slice(`${base}/x/`.length);
    if (segment.includes(",") || segment.includes("/") || segment === "") {
      return jsonError(
        404,
        `Nothing is served at ${pathname}: a toolset path names one toolset, ${base}/x/<toolset> (or ` +
          `${base}/x/all). For several, use ${base} with the X-MCP-Toolsets header (search,glossary).`,
      );
    }
    const problem = unknownToolsetProblem(segment.toLowerCase());
    if (problem) return jsonError(404, `Nothing is served at ${pathname}: ${problem}`);
    asked = parseToolsetList(segment, (message) => new Error(message));
    if (asked) sources.push(`the URL path ${base}/x/${segment.toLowerCase()}`);
  }
  const header = headers.get(TOOLSETS_HEADER);
  if (header !== null && header.trim() !== "") {
    let named: ToolsetName[] | undefined;
    try {
      named = parseToolsetList(header, (message) => new Error(message));
    } catch (error) {
      return jsonError(400, `The X-MCP-Toolsets header is not valid: ${(error as Error).message}`);
    }
    if (named) {
      asked = asked ? asked.filter((set) => named.includes(set)) : named;
      sources.push("the X-MCP-Toolsets header");
      if (asked.length === 0) {
        return jsonError(
          400,
          `The URL path ${pathname} and the X-MCP-Toolsets header ask for no toolset in common: name the ` +
            "toolsets in one of them.",
        );
      }
    }
  }
  if (!asked) return { key: "*", source: "", toolsets: undefined };
  const outside = asked.filter((set) => !(served ?? TOOLSET_NAMES).includes(set));
  if (outside.length > 0) {
    return jsonError(
      pathname === base ? 400 : 404,
      `This server does not serve the toolset${outside.length > 1 ? "s" : ""} ${outside.join(", ")}, ` +
        `asked for by ${sources.join(" and ")}: it serves ${
          served!.join(", ")
        } (its CATALOG_MCP_TOOLSETS). ` +
        "A request can narrow the server's toolsets, never widen them.",
    );
  }
  return { toolsets: asked, key: asked.join(","), source: sources.join(" and ") };
}
