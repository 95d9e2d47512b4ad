/**
 * The CSV template of the service's bulk business metadata import (`POST
 * /atlas/v2/entity/businessmetadata/import`, the header `GET …/import/template` hands out): one business
 * metadata value per row, the entity named by type and qualified name (or guid). Its attributes are those
 * of the governance and privacy business metadata templates (`govcat templates`).
 *
 * The service reads the columns by position, not by header name: keep them in the template's order.
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
import { shown } from "../problems.ts";
import type { CsvTemplate } from "../types.ts";
import { cellText, GUID_PATTERN, type RowProblem } from "./rules.ts";

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
      kind: "text",
      required: true,
      description: "Type of the entity, e.g. azure_sql_table (first column)",
      example: "azure_sql_table",
    },
    {
      name: "EntityUniqueAttributeValue",
      kind: "text",
      required: true,
      description: "The entity's qualifiedName, or its guid when EntityUniqueAttributeName says guid " +
        "(second column)",
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
      aliases: ["EntityUniqueAttributeName"],
      kind: "enum",
      values: ["qualifiedName", "guid"],
      description: "qualifiedName (the default when empty) or guid: what EntityUniqueAttributeValue holds " +
        "(fifth column)",
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
    ["azure_sql_table", `${QN}/Customers`, "Governance.dataOwner", "Sales data team", "qualifiedName"],
    ["azure_sql_table", `${QN}/Customers`, "Governance.retentionPeriodDays", "365", ""],
    ["azure_sql_table", SEED_ORDERS, "Privacy.containsPII", "true", "guid"],
  ],
};

/** The business metadata templates, in the order `templates list` shows them. */
export const BUSINESS_METADATA_TEMPLATES: readonly CsvTemplate[] = [businessMetadata];
