/**
 * Every JSON payload template govcat ships, in one registry: unified catalog and classic
 * glossary terms, entities (one, many, a table with its columns), relationships (create and update), the
 * scanning payloads of `scan_templates.ts`, the workflow payloads of `workflow_templates.ts` and the five business metadata sets of
 * `business_metadata_sets.ts`. `govcat templates show|write <name>` reads them from here.
 *
 * Values in angle brackets (`<glossary-guid>`) are placeholders for ids only the user's catalog knows; the
 * other values are realistic examples that work as they are.
 *
 * @example
 * ```ts
 * import { jsonTemplate, JSON_TEMPLATE_NAMES } from "./json_templates.ts";
 * console.log(JSON_TEMPLATE_NAMES.includes("relationship-create")); // true
 * console.log(jsonTemplate("glossary-term")?.usage); // "govcat glossary create-term --payload-file <file>"
 * ```
 *
 * @module
 */
import { businessMetadataTemplates } from "./business_metadata_sets.ts";
import { scanTemplates } from "./scan_templates.ts";
import { workflowTemplates } from "./workflow_templates.ts";

export { findPlaceholder } from "./scan_templates.ts";

/** One JSON template: what it is for, the command that takes it, and the payload. */
export interface JsonTemplate {
  /** Stable kebab-case name, unique among CSV and JSON templates. */
  name: string;
  summary: string;
  /** The govcat command (or REST call) the payload is written for. */
  usage: string;
  payload: Record<string, unknown>;
}

const SERVER = "contoso-sql.database.windows.net";
const TABLE_QN = `mssql://${SERVER}/sales/dbo/customers`;

const column = (guid: string, name: string, dataType: string, description: string) => ({
  guid,
  typeName: "azure_sql_column",
  attributes: { qualifiedName: `${TABLE_QN}#${name}`, name, data_type: dataType, description },
  // The column names its table by the table's placeholder guid: both are created in the same call.
  relationshipAttributes: { table: { guid: "-1", typeName: "azure_sql_table" } },
});

const CATALOG_TEMPLATES: readonly JsonTemplate[] = [
  {
    name: "uc-term",
    summary: "A unified catalog term in a governance domain, with an acronym, an owner and a resource link",
    usage: "govcat uc term create --payload-file <file>",
    payload: {
      name: "Customer Lifetime Value",
      description: "Net revenue a customer is expected to bring over the whole relationship.",
      status: "DRAFT",
      domain: "<domain-id>",
      acronyms: ["CLV"],
      // Owners are Entra ID object IDs (GUIDs), never e-mail addresses.
      contacts: { owner: [{ id: "<owner-object-id>", description: "Term owner" }] },
      resources: [{ name: "Metric definition", url: "https://contoso.sharepoint.com/sites/finance/clv" }],
    },
  },
  {
    name: "glossary-term",
    summary: "A classic glossary term (AtlasGlossaryTerm) with definition, status, abbreviation and examples",
    usage: "govcat glossary create-term --payload-file <file>",
    payload: {
      name: "Customer",
      shortDescription: "A person or company that buys from us",
      longDescription: "A person or organisation with at least one order or an active contract.",
      status: "Draft",
      abbreviation: "CUST",
      examples: ["Contoso Ltd", "Jane Doe (retail)"],
      anchor: { glossaryGuid: "<glossary-guid>" },
    },
  },
  {
    name: "entity",
    summary: "One entity (AtlasEntityWithExtInfo): an Azure SQL table with a description and an owner",
    usage: "govcat entity create --payload-file <file>",
    payload: {
      entity: {
        typeName: "azure_sql_table",
        attributes: {
          qualifiedName: `mssql://${SERVER}/sales/dbo/orders`,
          name: "orders",
          description: "One row per customer order.",
          owner: "sales-data-team",
        },
      },
    },
  },
  {
    name: "entities",
    summary: "Several entities in one call (AtlasEntitiesWithExtInfo): two data sets and a process",
    usage: "POST /datamap/api/atlas/v2/entity/bulk (the body of the bulk create-or-update call)",
    payload: {
      entities: [
        {
          typeName: "DataSet",
          attributes: {
            qualifiedName: "https://contoso.example/datasets/raw-orders",
            name: "raw-orders",
            description: "Orders as exported from the shop system",
          },
        },
        {
          typeName: "DataSet",
          attributes: {
            qualifiedName: "https://contoso.example/datasets/clean-orders",
            name: "clean-orders",
            description: "Orders after de-duplication and currency conversion",
          },
        },
        {
          typeName: "Process",
          attributes: {
            qualifiedName: "https://contoso.example/pipelines/clean-orders",
            name: "clean-orders pipeline",
            // Lineage: references to the data sets above by type and qualified name.
            inputs: [{
              typeName: "DataSet",
              uniqueAttributes: { qualifiedName: "https://contoso.example/datasets/raw-orders" },
            }],
            outputs: [{
              typeName: "DataSet",
              uniqueAttributes: { qualifiedName: "https://contoso.example/datasets/clean-orders" },
            }],
          },
        },
      ],
    },
  },
  {
    name: "column-entities",
    summary: "A table with its columns, created together: columns are referred entities tied by " +
      "relationshipAttributes",
    usage: "govcat entity create --payload-file <file>",
    payload: {
      entity: {
        guid: "-1",
        typeName: "azure_sql_table",
        attributes: { qualifiedName: TABLE_QN, name: "customers", description: "One row per customer." },
        relationshipAttributes: {
          columns: [
            { guid: "-2", typeName: "azure_sql_column" },
            { guid: "-3", typeName: "azure_sql_column" },
          ],
        },
      },
      referredEntities: {
        "-2": column("-2", "customer_id", "int", "Key of the customer"),
        "-3": column("-3", "email", "nvarchar", "Contact e-mail address"),
      },
    },
  },
  {
    name: "relationship-create",
    summary: "A relationship between two entities: a process that reads a data set (dataset_process_inputs)",
    usage: "govcat entity create-relationship --payloadFile <file>",
    payload: {
      typeName: "dataset_process_inputs",
      // An end is a guid, or a type name and unique attributes.
      end1: { guid: "<process-guid>", typeName: "Process" },
      end2: { typeName: "DataSet", uniqueAttributes: { qualifiedName: "<data-set-qualified-name>" } },
      label: "reads",
    },
  },
  {
    name: "relationship-update",
    summary: "An update of a relationship found by its guid: its label and attributes (type and ends stay)",
    usage: "govcat entity update-relationship --payloadFile <file>",
    payload: {
      guid: "<relationship-guid>",
      typeName: "dataset_process_inputs",
      label: "reads nightly",
      // Only attributes the relationship type defines are accepted; dataset_process_inputs defines none.
      attributes: {},
    },
  },
];

function buildTemplates(): JsonTemplate[] {
  const scan = scanTemplates().map(({ name, summary, usage, payload }) => ({
    name,
    summary,
    usage,
    payload,
  }));
  const businessMetadata = businessMetadataTemplates().map((template) => ({
    name: `business-metadata-${template.name}`,
    summary: `Business metadata attribute set "${template.name}": ${template.summary}`,
    usage: "govcat types createTypeDefs --payload-file <file>",
    payload: template.payload as unknown as Record<string, unknown>,
  }));
  return [
    ...structuredClone(CATALOG_TEMPLATES) as JsonTemplate[],
    ...scan,
    ...workflowTemplates(),
    ...businessMetadata,
  ];
}

/** Every JSON template, in the order `templates list` shows them. Treat as read-only; use {@link jsonTemplate}. */
export const JSON_TEMPLATES: readonly JsonTemplate[] = Object.freeze(buildTemplates());

/** Names of every JSON template. */
export const JSON_TEMPLATE_NAMES: readonly string[] = JSON_TEMPLATES.map((t) => t.name);

/** One template by name (any letter case), with a fresh copy of its payload; undefined when unknown. */
export function jsonTemplate(name: string): JsonTemplate | undefined {
  const found = JSON_TEMPLATES.find((t) => t.name === name.trim().toLowerCase());
  return found ? { ...found, payload: structuredClone(found.payload) } : undefined;
}
