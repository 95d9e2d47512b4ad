/**
 * Unified catalog tools (domains and terms), in the order tools/list shows them: uc_list_domains, uc_get_domain,
 * uc_create_domain, uc_list_terms, uc_get_term, uc_create_term, uc_search_terms; then the 2026-03-20-preview
 * data assets: uc_list_data_assets, uc_get_data_asset.
 *
 * @module
 */
import type { ToolDefinition } from "../tool.ts";
import { ucGetDataAssetTool, ucListDataAssetsTool } from "./unified_data_asset_tools.ts";
import { ucCreateDomainTool, ucGetDomainTool, ucListDomainsTool } from "./unified_domain_tools.ts";
import { ucCreateTermTool, ucGetTermTool, ucListTermsTool, ucSearchTermsTool } from "./unified_term_tools.ts";

export const UC_TOOLS: ToolDefinition[] = [
  ucListDomainsTool,
  ucGetDomainTool,
  ucCreateDomainTool,
  ucListTermsTool,
  ucGetTermTool,
  ucCreateTermTool,
  ucSearchTermsTool,
  ucListDataAssetsTool,
  ucGetDataAssetTool,
];
