/**
 * Toolsets: named groups of tools, as github/github-mcp-server has them, chosen with `--toolsets` /
 * `CATALOG_MCP_TOOLSETS` and narrowed per request on the HTTP transports (`X-MCP-Toolsets`, `/mcp/x/<set>`).
 * Every tool belongs to exactly one set, named in the one table below ({@link TOOLSET_OF}); a test holds
 * that every tool the server defines is in it. The keywords `all` and `default` name every set: unlike
 * GitHub's server, govcat serves every tool when no set is chosen, so its default is all of them.
 *
 * This module names tools by string only and imports nothing heavy: the configuration and the stdio fast
 * start read it before any tool module loads.
 *
 * @module
 */
import { ConfigError } from "../core/errors.ts";
import { didYouMean } from "../core/suggest.ts";

/** One toolset: its name (as configured) and what it covers. */
export interface Toolset {
  name: string;
  description: string;
}

/** Every toolset, in the order tools/list and list_available_toolsets show them. */
export const TOOLSETS = [
  { name: "entities", description: "Read, create, update and delete assets; batch and CSV import" },
  { name: "search", description: "Search assets, suggestions and browsing" },
  { name: "glossary", description: "Classic glossary terms and their assignment to assets" },
  {
    name: "unified",
    description: "Unified catalog: governance domains, terms, data assets, data quality, business metadata",
  },
  { name: "collections", description: "Collections, their hierarchy and role assignments" },
  { name: "lineage", description: "Lineage graphs and processes" },
  { name: "types", description: "Type definitions" },
  { name: "relationships", description: "Relationships between assets" },
  { name: "workflows", description: "Approvals waiting for you, and deciding them" },
  { name: "account", description: "The catalog account's properties" },
  {
    name: "operations",
    description: "Every command-line operation, listed and run by name",
  },
] as const satisfies ReadonlyArray<Toolset>;

/** The name of a toolset, as `--toolsets` and `CATALOG_MCP_TOOLSETS` take it. */
export type ToolsetName = (typeof TOOLSETS)[number]["name"];

export const TOOLSET_NAMES: ReadonlyArray<ToolsetName> = TOOLSETS.map((set) => set.name);

/** Keywords that name every toolset. */
const EVERY_SET = ["all", "default"];

/**
 * The toolset of every tool, by tool name. A new tool goes here; the toolset test fails, naming it,
 * until it does.
 */
export const TOOLSET_OF: Readonly<Record<string, ToolsetName>> = {
  get_entity: "entities",
  create_entity: "entities",
  update_entity: "entities",
  delete_entity: "entities",
  batch_create_entities: "entities",
  batch_update_entities: "entities",
  import_entities_from_csv: "entities",
  search_entities: "search",
  search_suggest: "search",
  search_browse: "search",
  get_glossary_terms: "glossary",
  create_glossary_term: "glossary",
  assign_term_to_entities: "glossary",
  uc_list_domains: "unified",
  uc_get_domain: "unified",
  uc_create_domain: "unified",
  uc_list_terms: "unified",
  uc_get_term: "unified",
  uc_create_term: "unified",
  uc_search_terms: "unified",
  uc_list_data_assets: "unified",
  uc_get_data_asset: "unified",
  uc_list_custom_metadata_defs: "unified",
  uc_cleanup_metadata_definition: "unified",
  uc_delete_metadata_definition: "unified",
  uc_delete_metadata_from_asset: "unified",
  // Data quality is a unified-catalog feature in Purview (health management of data products and assets).
  get_data_quality: "unified",
  list_collections: "collections",
  get_collection: "collections",
  create_collection: "collections",
  delete_collection: "collections",
  get_collection_path: "collections",
  list_collection_roles: "collections",
  set_collection_role: "collections",
  get_lineage: "lineage",
  analyze_lineage_impact: "lineage",
  create_lineage: "lineage",
  get_typedef: "types",
  list_typedefs: "types",
  create_relationship: "relationships",
  get_relationship: "relationships",
  delete_relationship: "relationships",
  list_my_approvals: "workflows",
  decide_approval: "workflows",
  get_account_properties: "account",
  list_available_operations: "operations",
  invoke_operation: "operations",
};

/** The toolset a tool belongs to; undefined for a tool missing from {@link TOOLSET_OF}. */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  return Object.hasOwn(TOOLSET_OF, toolName) ? TOOLSET_OF[toolName] : undefined;
}

/** The toolset called `name`, if there is one. */
export function findToolset(name: string): (typeof TOOLSETS)[number] | undefined {
  return TOOLSETS.find((set) => set.name === name);
}

/** Why a toolset name is not one (with a suggestion), or undefined for a known name or keyword. */
export function unknownToolsetProblem(name: string): string | undefined {
  if ((TOOLSET_NAMES as readonly string[]).includes(name) || EVERY_SET.includes(name)) return undefined;
  return `"${name}" is not a toolset.${didYouMean(name, [...TOOLSET_NAMES, ...EVERY_SET])} Toolsets: ${
    TOOLSET_NAMES.join(", ")
  } (or all).`;
}

/**
 * The sets a comma-separated list names, in table order, or undefined when it names every set (empty,
 * `all`, `default`). Throws `problem(message)` for an unknown name.
 */
export function parseToolsetList(
  spec: string | undefined,
  problem: (message: string) => Error,
): ToolsetName[] | undefined {
  const names = (spec ?? "").split(",").map((name) => name.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    const unknown = unknownToolsetProblem(name);
    if (unknown) throw problem(unknown);
  }
  if (names.length === 0 || names.some((name) => EVERY_SET.includes(name))) return undefined;
  return TOOLSET_NAMES.filter((set) => names.includes(set));
}

/** CATALOG_MCP_TOOLSETS (or `--toolsets`), checked: an unknown set is a configuration error. */
export function configuredToolsets(spec: string | undefined): ToolsetName[] | undefined {
  return parseToolsetList(
    spec,
    (message) =>
      new ConfigError(
        `CATALOG_MCP_TOOLSETS (or --toolsets): ${message} Separate several with commas.`,
        "CATALOG_MCP_TOOLSETS",
      ),
  );
}
