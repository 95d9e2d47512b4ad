/**
 * A small sales lineage for the impact and path tests, written through the catalog API (entities with
 * owners, then one process per hop with `createLineage`):
 *
 * ```
 * crm_export ─ingest─▶ raw_orders ─clean_orders─▶ stg_orders ─aggregate_sales─▶ sales_daily ─publish_sales─▶
 *   sales_model ─build_report─▶ sales_report
 *                                                         aggregate_sales also ─▶ sales_by_region
 * ```
 *
 * Downstream of raw_orders at depth 3: stg_orders (1 hop), sales_daily and sales_by_region (2),
 * sales_model (3); sales_report is 4 hops away and crm_export upstream. `unrelated` has no lineage.
 *
 * @module
 */
import type { CatalogClient } from "../../lib/catalog/client.ts";
import { createLineage } from "../../lib/catalog/lineage_builder.ts";

/** Entra object ids of the owners (contacts.Owner). */
export const OWNER_INGEST = "0e1a0000-0000-4000-8000-0000000000a1";
export const OWNER_FINANCE = "0e1a0000-0000-4000-8000-0000000000b2";
export const OWNER_BI = "0e1a0000-0000-4000-8000-0000000000c3";
/** The `owner` attribute of stg_orders (free text, beside its contact). */
export const OWNER_TEAM_MAIL = "data-eng@contoso.com";

const ASSETS = {
  crm_export: { typeName: "azure_blob_path", owners: [] as string[] },
  raw_orders: { typeName: "azure_datalake_gen2_path", owners: [OWNER_INGEST] },
  stg_orders: { typeName: "azure_sql_table", owners: [OWNER_FINANCE], owner: OWNER_TEAM_MAIL },
  sales_daily: { typeName: "azure_sql_table", owners: [OWNER_FINANCE] },
  sales_by_region: { typeName: "azure_sql_table", owners: [] as string[] },
  sales_model: { typeName: "powerbi_dataset", owners: [OWNER_BI] },
  sales_report: { typeName: "powerbi_report", owners: [OWNER_BI] },
  unrelated: { typeName: "azure_sql_table", owners: [] as string[] },
};

const PROCESSES: Array<[name: string, sources: AssetName[], targets: AssetName[]]> = [
  ["ingest", ["crm_export"], ["raw_orders"]],
  ["clean_orders", ["raw_orders"], ["stg_orders"]],
  ["aggregate_sales", ["stg_orders"], ["sales_daily", "sales_by_region"]],
  ["publish_sales", ["sales_daily"], ["sales_model"]],
  ["build_report", ["sales_model"], ["sales_report"]],
];

export type AssetName = keyof typeof ASSETS;
export type ProcessName = "ingest" | "clean_orders" | "aggregate_sales" | "publish_sales" | "build_report";

/** GUIDs of the graph's entities, by name. */
export interface ImpactGraph {
  assets: Record<AssetName, string>;
  processes: Record<ProcessName, string>;
  /** The name of an entity of the graph by GUID. */
  nameOf(guid: string): string;
}

/** Writes the graph into the catalog `client` talks to. */
export async function buildImpactGraph(client: CatalogClient): Promise<ImpactGraph> {
  const assets = {} as Record<AssetName, string>;
  for (const [name, spec] of Object.entries(ASSETS) as Array<[AssetName, (typeof ASSETS)[AssetName]]>) {
    const attributes: Record<string, unknown> = { qualifiedName: `impact://sales/${name}`, name };
    if ("owner" in spec) attributes.owner = spec.owner;
    const result = await client.entity.createOrUpdate({
      guid: "-1",
      typeName: spec.typeName,
      attributes,
      ...(spec.owners.length > 0 ? { contacts: { Owner: spec.owners.map((id) => ({ id })) } } : {}),
    });
    assets[name] = result.guidAssignments!["-1"];
  }
  const processes = {} as Record<ProcessName, string>;
  for (const [name, sources, targets] of PROCESSES) {
    const created = await createLineage(client, {
      sources: sources.map((source) => ({ guid: assets[source] })),
      targets: targets.map((target) => ({ guid: assets[target] })),
      processName: name,
    });
    processes[name as ProcessName] = created.processGuid;
  }
  const names = new Map([...Object.entries(assets), ...Object.entries(processes)].map(([n, g]) => [g, n]));
  return { assets, processes, nameOf: (guid) => names.get(guid) ?? guid };
}
