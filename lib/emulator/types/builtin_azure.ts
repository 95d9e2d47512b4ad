/**
 * The Azure source types a Purview account defines for the sources the emulator's seed and tests use:
 * Azure SQL Database, ADLS Gen2 and Blob storage, Synapse dedicated SQL pools and Power BI, with the
 * relationships that tie servers to databases, schemas to tables, tables to columns and folders to files.
 *
 * @example
 * ```ts
 * import { AZURE_TYPES } from "./builtin_azure.ts";
 * console.log(AZURE_TYPES.some((t) => t.def.name === "azure_sql_table_columns")); // true
 * ```
 *
 * @module
 */
import {
  type BuiltinDef,
  columnOptions,
  type EndSpec,
  entity,
  optional,
  relationship,
  required,
} from "./builtin_builders.ts";

const SQL = "Azure SQL Database";
const STORAGE = "Azure Data Lake Storage Gen2";
const BLOB = "Azure Blob Storage";
const SYNAPSE = "Azure Synapse Analytics";
const POWER_BI = "Power BI";
const DATA_FACTORY = "Azure Data Factory";

const COLUMN_ATTRIBUTES = [
  optional("data_type", "string"),
  optional("length", "int"),
  optional("precision", "int"),
  optional("scale", "int"),
];

const PATH_ATTRIBUTES = [
  optional("isFile", "boolean"),
  optional("size", "long"),
  optional("modifiedTime", "date"),
  optional("contentType", "string"),
];

/** A parent-children composition: the parent holds a SET of children, each child one parent. */
function contains(
  name: string,
  parent: [type: string, attribute: string],
  child: [type: string, attribute: string],
  serviceType: string,
): BuiltinDef {
  const parentEnd: EndSpec = [parent[0], parent[1], "SET", { container: true, legacy: true }];
  const childEnd: EndSpec = [child[0], child[1], "SINGLE", { legacy: true }];
  return relationship(name, "COMPOSITION", parentEnd, childEnd, { serviceType });
}

/** Azure SQL, storage, Synapse, Power BI and Data Factory types. */
export const AZURE_TYPES: BuiltinDef[] = [
  // The server and database keep their legacy reference attributes, as the contract's Type_BulkUpdate
  // example shows them: a database must name its server (in attributes or relationshipAttributes).
  entity("azure_sql_server", ["azure_resource"], "Azure SQL server", [
    optional("databases", "array<azure_sql_db>"),
  ], SQL),
  entity("azure_sql_db", ["azure_resource"], "Azure SQL database", [
    required("server", "azure_sql_server", {
      constraints: [{ type: "inverseRef", params: { attribute: "databases" } }],
    }),
    optional("schemas", "array<azure_sql_schema>"),
    optional("collation", "string"),
    optional("compatibilityLevel", "int"),
  ], SQL),
  entity("azure_sql_schema", ["Asset"], "Schema of an Azure SQL database", [], SQL),
  entity("azure_sql_table", ["DataSet"], "Azure SQL table", [
    optional("objectType", "string"),
    optional("modifiedTime", "date"),
  ], SQL),
  entity("azure_sql_view", ["DataSet"], "Azure SQL view", [
    optional("objectType", "string"),
    optional("definition", "string"),
  ], SQL),
  entity(
    "azure_sql_column",
    ["DataSet"],
    "Column of an Azure SQL table or view",
    COLUMN_ATTRIBUTES,
    SQL,
    columnOptions("data_type"),
  ),
  contains("azure_sql_server_databases", ["azure_sql_server", "databases"], ["azure_sql_db", "server"], SQL),
  contains("azure_sql_db_schemas", ["azure_sql_db", "schemas"], ["azure_sql_schema", "db"], SQL),
  contains("azure_sql_schema_tables", ["azure_sql_schema", "tables"], ["azure_sql_table", "dbSchema"], SQL),
  contains("azure_sql_schema_views", ["azure_sql_schema", "views"], ["azure_sql_view", "dbSchema"], SQL),
  contains("azure_sql_table_columns", ["azure_sql_table", "columns"], ["azure_sql_column", "table"], SQL),
  contains("azure_sql_view_columns", ["azure_sql_view", "columns"], ["azure_sql_column", "view"], SQL),

  entity("azure_storage_account", ["azure_resource"], "Azure storage account", [
    optional("createTime", "date"),
    optional("modifiedTime", "date"),
    optional("publicAccessLevel", "string"),
    optional("accessTier", "string"),
    optional("kind", "string"),
  ], STORAGE),
  entity("azure_datalake_gen2_filesystem", ["DataSet"], "ADLS Gen2 file system (container)", [], STORAGE),
  entity("azure_datalake_gen2_path", ["DataSet"], "ADLS Gen2 folder or file", PATH_ATTRIBUTES, STORAGE),
  entity("azure_datalake_gen2_resource_set", ["DataSet"], "ADLS Gen2 resource set: partitioned files", [
    optional("partitionCount", "long"),
    optional("totalSizeBytes", "long"),
    optional("schemaCount", "int"),
  ], STORAGE),
  entity("azure_blob_container", ["DataSet"], "Azure Blob container", [], BLOB),
  entity("azure_blob_path", ["DataSet"], "Azure Blob folder or blob", [
    ...PATH_ATTRIBUTES,
    optional("softDeletedState", "blob_soft_deleted_state"),
  ], BLOB),
  contains(
    "azure_storage_account_filesystems",
    ["azure_storage_account", "filesystems"],
    ["azure_datalake_gen2_filesystem", "account"],
    STORAGE,
  ),
  contains(
    "azure_datalake_gen2_filesystem_paths",
    ["azure_datalake_gen2_filesystem", "paths"],
    ["azure_datalake_gen2_path", "parent"],
    STORAGE,
  ),
  contains(
    "azure_datalake_gen2_path_paths",
    ["azure_datalake_gen2_path", "paths"],
    ["azure_datalake_gen2_path", "parent"],
    STORAGE,
  ),
  contains(
    "azure_datalake_gen2_filesystem_resource_sets",
    ["azure_datalake_gen2_filesystem", "resourceSets"],
    ["azure_datalake_gen2_resource_set", "parent"],
    STORAGE,
  ),
  contains(
    "azure_storage_account_containers",
    ["azure_storage_account", "containers"],
    ["azure_blob_container", "account"],
    BLOB,
  ),
  contains(
    "azure_blob_container_paths",
    ["azure_blob_container", "paths"],
    ["azure_blob_path", "parent"],
    BLOB,
  ),

  entity("azure_synapse_workspace", ["azure_resource"], "Azure Synapse workspace", [], SYNAPSE),
  entity("azure_synapse_dedicated_sql_db", ["azure_resource"], "Synapse dedicated SQL pool", [], SYNAPSE),
  entity("azure_synapse_dedicated_sql_schema", ["Asset"], "Schema of a dedicated SQL pool", [], SYNAPSE),
  entity("azure_synapse_dedicated_sql_table", ["DataSet"], "Table of a dedicated SQL pool", [], SYNAPSE),
  entity(
    "azure_synapse_dedicated_sql_column",
    ["DataSet"],
    "Column of a dedicated SQL pool table",
    [
      optional("data_type", "string"),
    ],
    SYNAPSE,
    columnOptions("data_type"),
  ),
  contains(
    "azure_synapse_workspace_dedicated_sql_dbs",
    ["azure_synapse_workspace", "dedicatedSqlDbs"],
    ["azure_synapse_dedicated_sql_db", "workspace"],
    SYNAPSE,
  ),
  contains(
    "azure_synapse_dedicated_sql_db_schemas",
    ["azure_synapse_dedicated_sql_db", "schemas"],
    ["azure_synapse_dedicated_sql_schema", "db"],
    SYNAPSE,
  ),
  contains(
    "azure_synapse_dedicated_sql_schema_tables",
    ["azure_synapse_dedicated_sql_schema", "tables"],
    ["azure_synapse_dedicated_sql_table", "dbSchema"],
    SYNAPSE,
  ),
  contains(
    "azure_synapse_dedicated_sql_table_columns",
    ["azure_synapse_dedicated_sql_table", "columns"],
    ["azure_synapse_dedicated_sql_column", "table"],
    SYNAPSE,
  ),

  entity("powerbi_workspace", ["Asset"], "Power BI workspace", [], POWER_BI),
  entity("powerbi_dataset", ["DataSet"], "Power BI dataset", [
    optional("configuredBy", "string"),
    optional("isRefreshable", "boolean"),
  ], POWER_BI),
  entity("powerbi_report", ["DataSet"], "Power BI report", [optional("webUrl", "string")], POWER_BI),
  contains(
    "powerbi_workspace_datasets",
    ["powerbi_workspace", "datasets"],
    ["powerbi_dataset", "workspace"],
    POWER_BI,
  ),
  contains(
    "powerbi_workspace_reports",
    ["powerbi_workspace", "reports"],
    ["powerbi_report", "workspace"],
    POWER_BI,
  ),

  // Data Factory's lineage: a pipeline's copy and data flow activities are the processes between data sets.
  entity("azure_data_factory", ["azure_resource"], "Azure Data Factory", [], DATA_FACTORY),
  entity("adf_pipeline", ["Process"], "Data Factory pipeline", [], DATA_FACTORY),
  entity("adf_copy_activity", ["Process"], "Data Factory copy activity", [], DATA_FACTORY),
  entity("adf_executeDataFlow_activity", ["Process"], "Data Factory data flow activity", [], DATA_FACTORY),
  contains(
    "azure_data_factory_pipelines",
    ["azure_data_factory", "pipelines"],
    ["adf_pipeline", "dataFactory"],
    DATA_FACTORY,
  ),
];
