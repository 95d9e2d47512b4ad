/**
 * The CSV template of the service's bulk business metadata import (`POST
 * /atlas/v2/entity/businessmetadata/import`, the header `GET …/import/template` hands out): one business
 * metadata value per row, the entity named by type and qualified name (or guid). Its attributes are those
 * of the governance and privacy business metadata templates (`govcat templates`).
 *
 * The service reads the columns by position, not by header name: keep them in the template's order. Its
 * header line is skipped unread (apache/atlas repository/src/main/java/org/apache/atlas/util/FileUtils.java,
 * readCSV), so besides the template's own names the file may say them as Apache Atlas and Microsoft's SDK
 * tests write them, `TypeName,UniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,UniqueAttributeName[optional]`
 * (the service parsed that file: Azure/azure-sdk-for-js
 * sdk/purview/purview-datamap-rest/recordings/node/purview_datamap_entity_test/recording_import_entity_business_metadata_.json).
 * Those names are read as aliases; `entity import-business-metadata` says which form it read.
 *
 * @example
 * ```ts
 * import { businessMetadata } from "./business_metadata_templates.ts";
 * console.log(businessMetadata.columns.map((c) => c.name).join(","));
 * // EntityType,EntityUniqueAttributeValue,BusinessAttributeName,BusinessAttributeValue,EntityUniqueAttributeName[optional]
 * ```
 *
 * @module
 */
import { shown } from "../../csv/problems.ts";
import type { CsvTemplate } from "../../csv/types.ts";
import { cellText, type RowProblem } from "./rules.ts";
import { GUID_PATTERN } from "../../core/guid.ts";

/** Tables of the emulator's seed catalog (the quick start), so the sample sets values on real assets. */
const QN = "mssql://contoso-sql.database.windows.net/SalesDb/dbo";
const SEED_ORDERS = "ca7a1000-0000-4000-8000-000000000020";

export const businessMetadata: CsvTemplate = {
  name: "business-metadata",
  summary: "Business metadata values to set on entities, one attribute per row (the service's import file)",
  usage: "govcat entity import-business-metadata --bm-file <file>",
  // Uploaded to the service's import as it is, which reads commas only.
  delimiters: [","],
  columns: [
    {
      name: "EntityType",
      aliases: ["TypeName"],
      kind: "text",
      required: true,
      description: "Type of the entity, e.g. azure_sql_table (first column; also read as TypeName)",
      example: "azure_sql_table",
    },
    {
      name: "EntityUniqueAttributeValue",
      aliases: ["UniqueAttributeValue"],
      kind: "text",
      required: true,
      description: "The entity's qualifiedName, or the value of the unique attribute " +
        "EntityUniqueAttributeName names (second column; also read as UniqueAttributeValue)",
      example: `${QN}/Customers`,
    },
    {
      name: "BusinessAttributeName",
      kind: "text",
      required: true,
      description: "<group>.<attribute> of the business metadata, e.g. Governance.dataOwner (third column)",
      example: "Governance.dataOwner",
    },
    {
      name: "BusinessAttributeValue",
      kind: "text",
      required: true,
      description: "The value as text; numbers, true/false and dates (2025-01-31) are converted to the " +
        "attribute's type, and several values of a multi-valued attribute are separated by '|' (fourth column)",
      example: "Sales data team",
    },
    {
      name: "EntityUniqueAttributeName[optional]",
      aliases: ["EntityUniqueAttributeName", "UniqueAttributeName[optional]", "UniqueAttributeName"],
      // Any attribute name: the service looks it up in the entity's type and fails the row alone when it
      // is not a unique attribute there (Microsoft's SDK test sends `name`; the recording cited above).
      kind: "text",
      description: "The unique attribute EntityUniqueAttributeValue holds: qualifiedName (the default when " +
        "empty), guid, or another unique attribute of the type; the service fails the row when it is not one " +
        "(fifth column; also read as UniqueAttributeName[optional])",
      example: "qualifiedName",
    },
  ],
  unique: [["EntityType", "EntityUniqueAttributeValue", "BusinessAttributeName"]],
  checkRow: (row) => {
    const problems: RowProblem[] = [];
    const attribute = cellText(row, "BusinessAttributeName");
    if (attribute !== undefined) {
      const dot = attribute.indexOf(".");
      if (dot <= 0 || dot === attribute.length - 1 || attribute.indexOf(".", dot + 1) >= 0) {
        problems.push([
          "BusinessAttributeName",
          `${shown(attribute)} is not <group>.<attribute>, e.g. Governance.dataOwner`,
        ]);
      }
    }
    const value = cellText(row, "EntityUniqueAttributeValue");
    const by = cellText(row, "EntityUniqueAttributeName[optional]");
    if (by?.toLowerCase() === "guid" && value !== undefined && !GUID_PATTERN.test(value)) {
      problems.push([
        "EntityUniqueAttributeValue",
        `${shown(value)} is not a GUID, and EntityUniqueAttributeName says the entity is named by guid`,
      ]);
    }
    return problems;
  },
  sample: [
    // The sample catalog's own definitions (`--seed`), so the sample imports as it is.
    ["azure_sql_table", `${QN}/Customers`, "DataStewardship.steward", "Sales data team", "qualifiedName"],
    ["azure_sql_table", `${QN}/Customers`, "DataStewardship.retentionDays", "365", ""],
    ["azure_sql_table", SEED_ORDERS, "Compliance.gdprRelevant", "true", "guid"],
  ],
};

/** The business metadata templates, in the order `templates list` shows them. */
export const BUSINESS_METADATA_TEMPLATES: readonly CsvTemplate[] = [businessMetadata];
