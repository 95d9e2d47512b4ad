/**
 * The searchable view of an entity: the fields the discovery API filters, facets and returns
 * (`assetType`, `objectType`, `classification`, `label`, `term`, `contact`, business metadata, ...),
 * derived from the stored Atlas entity the way the service's search index derives them.
 *
 * @example
 * ```ts
 * import { assetTypeOf, objectTypeOf } from "./document.ts";
 * console.log(assetTypeOf("azure_sql_table"), objectTypeOf("azure_sql_table", "x")); // ["Azure SQL Database"] "Tables"
 * ```
 *
 * @module
 */
import { type AtlasEntity, isObject } from "../entity/model.ts";
import { classificationNames } from "../entity/views.ts";

/** A contact as search returns it. */
export interface SearchContact {
  id: string;
  info?: string;
  contactType: string;
}

/** A term assignment as search returns it. */
export interface SearchTerm {
  name: string;
  glossaryName?: string;
  guid?: string;
}

/** One entity as the search index sees it. */
export interface SearchDocument {
  id: string;
  name: string;
  qualifiedName: string;
  displayName?: string;
  description: string | null;
  owner: string | null;
  entityType: string;
  objectType: string;
  assetType: string[];
  classification: string[];
  label: string[];
  term: SearchTerm[];
  contact: SearchContact[];
  collectionId?: string;
  /** For glossaries, terms and categories stored as entities: their type name, as search reports it. */
  glossaryType?: string;
  /** A term's status (`Approved`, `Draft`, …). */
  termStatus?: string;
  /** The glossary a term or category belongs to (from its `name@glossary` qualified name). */
  glossary?: string;
  /** A glossary's or term's definition (`longDescription`). */
  longDescription?: string;
  /** The term templates a term uses. */
  termTemplate?: string[];
  /**
   * True for glossaries and terms of the glossary API (see `glossary.ts`), which are no entities:
   * browse leaves them out, and search returns them in the contract's glossary hit shape.
   */
  glossaryRecord?: boolean;
  createTime: number;
  updateTime: number;
  /** Business metadata values as `"<group>.<attribute>"` to value, for filters and keyword matching. */
  businessAttributes: Record<string, unknown>;
  /** The stored entity, for attribute filters. */
  entity: AtlasEntity;
}

// Prefixes of Purview's built-in type names and the asset type (data source kind) they belong to.
const ASSET_TYPES: Array<[string, string]> = [
  ["azure_sql_mi_", "Azure SQL Managed Instance"],
  ["azure_sql_dw_", "Azure SQL Data Warehouse"],
  ["azure_sql_", "Azure SQL Database"],
  ["mssql_", "SQL Server"],
  ["azure_datalake_gen2_", "Azure Data Lake Storage Gen2"],
  ["azure_datalake_gen1_", "Azure Data Lake Storage Gen1"],
  ["adls_gen2_", "Azure Data Lake Storage Gen2"],
  ["azure_blob_", "Azure Blob Storage"],
  ["azure_storage_account", "Azure Storage Account"],
  ["azure_file", "Azure Files"],
  ["azure_table_", "Azure Table Storage"],
  ["azure_cosmosdb_", "Azure Cosmos DB"],
  ["azure_data_explorer_", "Azure Data Explorer"],
  ["azure_synapse_", "Azure Synapse Analytics"],
  ["adf_", "Azure Data Factory"],
  ["azure_data_factory", "Azure Data Factory"],
  ["powerbi_", "Power BI"],
  ["aws_s3_", "Amazon S3"],
  ["azure_postgresql_", "Azure Database for PostgreSQL"],
  ["azure_mysql_", "Azure Database for MySQL"],
];

/** The asset types (data source kinds) of an entity type; empty for custom and generic types. */
export function assetTypeOf(entityType: string): string[] {
  const match = ASSET_TYPES.find(([prefix]) => entityType.startsWith(prefix));
  return match ? [match[1]] : [];
}

const GLOSSARY_TYPES = new Set(["AtlasGlossary", "AtlasGlossaryTerm", "AtlasGlossaryCategory"]);

/** The object type search reports for an entity, from its type name (and, for paths, its name). */
export function objectTypeOf(entityType: string, name: string): string {
  if (GLOSSARY_TYPES.has(entityType)) return "Glossary terms";
  const type = entityType.toLowerCase();
  if (/(_table|_view)$/.test(type)) return "Tables";
  if (/(_resource_set|_file)$/.test(type)) return "Files";
  if (/_path$/.test(type)) return /\.[a-z0-9]{1,10}$/i.test(name) ? "Files" : "Folders";
  if (/(_directory|_folder|_filesystem|_container)$/.test(type)) return "Folders";
  if (/stored_procedure$/.test(type)) return "Stored procedures";
  if (/(_pipeline|_process)$/.test(type) || type === "process") return "Data pipelines";
  if (/_report$/.test(type)) return "Reports";
  if (/_dashboard$/.test(type)) return "Dashboards";
  return "Other";
}

/** A reference from an entity to the entity that contains it, by guid or by qualified name. */
export interface ContainerReference {
  guid?: string;
  qualifiedName?: string;
}

// Reference attributes that point at an entity's container, most specific first.
const CONTAINER_REFERENCES = [
  "parent",
  "dbSchema",
  "schema",
  "table",
  "view",
  "db",
  "database",
  "folder",
  "directory",
  "container",
  "filesystem",
  "server",
  "cluster",
  "workspace",
  "account",
];

/**
 * The container references of an entity, in the order browse tries them: each reference attribute, most
 * specific first, in its relationship attributes, then in its attributes. Kept with the index, so browse
 * builds its tree without re-reading every entity.
 */
export function containerReferences(entity: AtlasEntity): ContainerReference[] {
  const relationships = isObject(entity.relationshipAttributes) ? entity.relationshipAttributes : {};
  const found: ContainerReference[] = [];
  for (const name of CONTAINER_REFERENCES) {
    for (const reference of [relationships[name], entity.attributes[name]]) {
      if (!isObject(reference)) continue;
      const item: ContainerReference = {};
      if (typeof reference.guid === "string") item.guid = reference.guid;
      const unique = reference.uniqueAttributes;
      if (isObject(unique) && typeof unique.qualifiedName === "string") {
        item.qualifiedName = unique.qualifiedName;
      }
      if (item.guid !== undefined || item.qualifiedName !== undefined) found.push(item);
    }
  }
  return found;
}

/** The search document of a stored entity. */
export function toSearchDocument(entity: AtlasEntity): SearchDocument {
  const attributes = entity.attributes;
  const name = stringOrUndefined(attributes.name) ?? attributes.qualifiedName;
  const document: SearchDocument = {
    id: entity.guid,
    name,
    qualifiedName: attributes.qualifiedName,
    displayName: stringOrUndefined(attributes.displayName) ?? stringOrUndefined(attributes.userFriendlyName),
    description: stringOrUndefined(attributes.userDescription) ?? stringOrUndefined(attributes.description) ??
      null,
    owner: stringOrUndefined(attributes.owner) ?? null,
    entityType: entity.typeName,
    objectType: objectTypeOf(entity.typeName, name),
    assetType: assetTypeOf(entity.typeName),
    classification: classificationNames(entity),
    label: Array.isArray(entity.labels) ? entity.labels.map(String) : [],
    term: termsOf(entity),
    contact: contactsOf(entity),
    collectionId: entity.collectionId,
    createTime: entity.createTime,
    updateTime: entity.updateTime,
    businessAttributes: flatBusinessAttributes(entity),
    entity,
  };
  if (GLOSSARY_TYPES.has(entity.typeName)) {
    document.glossaryType = entity.typeName;
    const status = stringOrUndefined(attributes.status);
    if (status) document.termStatus = status;
    const at = attributes.qualifiedName.lastIndexOf("@");
    if (at >= 0) document.glossary = attributes.qualifiedName.slice(at + 1);
  }
  return document;
}

// The discovery API addresses business metadata as "<group>.<attribute>" (Discovery_Query_BusinessMetadataAttribute).
function flatBusinessAttributes(entity: AtlasEntity): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  if (!isObject(entity.businessAttributes)) return flat;
  for (const [group, values] of Object.entries(entity.businessAttributes)) {
    if (!isObject(values)) continue;
    for (const [attribute, value] of Object.entries(values)) flat[`${group}.${attribute}`] = value;
  }
  return flat;
}

function termsOf(entity: AtlasEntity): SearchTerm[] {
  const meanings = Array.isArray(entity.meanings) ? entity.meanings : [];
  return meanings.filter(isObject).map((meaning) => {
    const text = String(meaning.displayText ?? "");
    // Assigned terms are displayed as "term@glossary" by the service.
    const [name, glossaryName] = text.includes("@") ? text.split("@", 2) : [text, undefined];
    const term: SearchTerm = { name };
    if (glossaryName) term.glossaryName = glossaryName;
    if (typeof meaning.termGuid === "string") term.guid = meaning.termGuid;
    return term;
  });
}

function contactsOf(entity: AtlasEntity): SearchContact[] {
  if (!isObject(entity.contacts)) return [];
  const contacts: SearchContact[] = [];
  for (const [contactType, list] of Object.entries(entity.contacts)) {
    if (!Array.isArray(list)) continue;
    for (const contact of list.filter(isObject)) {
      const item: SearchContact = { id: String(contact.id ?? ""), contactType };
      if (typeof contact.info === "string") item.info = contact.info;
      contacts.push(item);
    }
  }
  return contacts;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
