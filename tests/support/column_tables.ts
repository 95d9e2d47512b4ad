/**
 * Two Azure SQL tables with their columns (related through `azure_sql_table.columns`, as a scan records
 * them), a hand-made process type without `columnMapping` and one derived from Process, for the column
 * lineage tests.
 *
 * @module
 */
import type { CatalogClient } from "../../lib/catalog/client.ts";

export const STAGING_QN = "mssql://contoso-sql.database.windows.net/SalesDb/stg/OrdersStaging";
export const FACT_QN = "mssql://contoso-sql.database.windows.net/SalesDb/dw/FactOrders";
/** Columns of each table. */
export const STAGING_COLUMNS = ["order_id", "amount"];
export const FACT_COLUMNS = ["OrderId", "Total"];
/** A process type that is not a Process and has no columnMapping, as a hand-made one often is. */
export const LEGACY_TYPE = "legacy_etl_job";
/** A process type derived from Process, so it inherits columnMapping. */
export const ETL_TYPE = "etl_job";

/** Writes the type, the tables and their columns; returns the tables' GUIDs. */
export async function addColumnTables(client: CatalogClient): Promise<{ staging: string; fact: string }> {
  await client.types.create({
    entityDefs: [
      { name: LEGACY_TYPE, superTypes: ["Asset"], attributeDefs: [] },
      { name: ETL_TYPE, superTypes: ["Process"], attributeDefs: [] },
    ],
  });
  let next = 3;
  const columns = (table: string, tableQn: string, names: string[]) =>
    names.map((name) => ({
      guid: `-${next++}`,
      typeName: "azure_sql_column",
      attributes: { qualifiedName: `${tableQn}#${name}`, name },
      relationshipAttributes: { table: { guid: table, typeName: "azure_sql_table" } },
    }));
  const result = await client.entity.createOrUpdateMany([
    {
      guid: "-1",
      typeName: "azure_sql_table",
      attributes: { qualifiedName: STAGING_QN, name: "OrdersStaging" },
    },
    { guid: "-2", typeName: "azure_sql_table", attributes: { qualifiedName: FACT_QN, name: "FactOrders" } },
    ...columns("-1", STAGING_QN, STAGING_COLUMNS),
    ...columns("-2", FACT_QN, FACT_COLUMNS),
  ]);
  return { staging: result.guidAssignments!["-1"], fact: result.guidAssignments!["-2"] };
}
