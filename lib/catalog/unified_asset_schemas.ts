/**
 * zod schemas of the unified catalog's 2026-03-20-preview data assets and data columns (contract notes:
 * ../shared/reference/unified-catalog-2026.md): what the service returns, loose so fields this version does
 * not know survive, and what govcat sends, checked before sending. Fields the notes call "not documented"
 * (the lineage object, the ingest answer's batch form) are accepted in any shape.
 *
 * @example
 * ```ts
 * import { dataAssetInputSchema } from "./unified_asset_schemas.ts";
 * import { validateInput } from "./unified_schemas.ts";
 * validateInput(dataAssetInputSchema, { source: { assetId: "ca7a1000-0000-4000-8000-000000000010" } });
 * ```
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import {
  caseInsensitiveEnum,
  type ContactsMap,
  contactsMapSchema,
  systemDataSchema,
} from "./unified_schemas.ts";
import { GUID_PATTERN } from "../core/guid.ts";

/** DataAssetType. */
export const DATA_ASSET_TYPES = ["AzureSqlTable", "ADLSGen2Path", "General"] as const;
/** DataAssetRelationshipType. */
export const DATA_ASSET_RELATIONSHIP_TYPES = ["Related", "Synonym"] as const;
/** DataColumnRelationshipType. */
export const DATA_COLUMN_RELATIONSHIP_TYPES = ["Related", "Synonym", "Parent"] as const;

const guid = (what: string) =>
  z.string({ error: `is required (${what}, a GUID)` }).trim().refine((id) => GUID_PATTERN.test(id), {
    error: `must be ${what} (a GUID)`,
  });

/** A data asset as the service returns it; `type` is AzureSqlTable, ADLSGen2Path or General. */
export interface DataAsset {
  /** Its id in the unified catalog. */
  id: string;
  /** Its name, taken from the Data Map asset. */
  name?: string;
  /** AzureSqlTable, ADLSGen2Path or General. */
  type?: string;
  /** What the asset holds. */
  description?: string;
  /** The Data Map asset it is made from: `assetId`, `assetType`, `fqn`, ... */
  source?: { assetId?: string; assetType?: string; fqn?: string; [key: string]: unknown };
  /** Contacts by role; ids are Entra ID object IDs. */
  contacts?: ContactsMap;
  /** Classification names of the asset. */
  classifications?: string[];
  /** Its columns: name, type, description, classifications. */
  schema?: Array<{ name?: string; type?: string; [key: string]: unknown }>;
  /** Link that opens the asset in its source. */
  openInUrl?: string;
  /** Per-type properties (server, database, container, ...). */
  typeProperties?: Record<string, unknown>;
  /** Only on a read with `includeLineage`; its shape is not documented. */
  lineage?: unknown;
  /** Fields the service adds, kept as read. */
  [key: string]: unknown;
}

/** What a data asset create or replace sends: the Data Map asset, contacts and a link. */
export interface DataAssetInput {
  /** The Data Map asset (its GUID) the data asset is made from. */
  source: { assetId: string };
  /** Contacts by role; ids are Entra ID object IDs. */
  contacts?: ContactsMap;
  /** Link that opens the asset in its source. */
  openInUrl?: string;
}

/** A data column as the service returns it. */
export interface DataColumn {
  /** Its id in the unified catalog. */
  id: string;
  /** The Data Map asset and column it was ingested from. */
  source?: { type?: string; assetId?: string; columnId?: string; [key: string]: unknown };
  /** Name, data type and qualified name, when asked for; null or partial when the service lacks them. */
  columnDetails?: Record<string, unknown> | null;
  /** The data asset's id, name and fqn, when asked for; null or partial when the service lacks them. */
  assetDetails?: Record<string, unknown> | null;
  /** Fields the service adds, kept as read. */
  [key: string]: unknown;
}

/** Checks a data asset the service returned; unknown fields pass through. */
export const dataAssetSchema: z.ZodType<DataAsset, DataAsset> = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  type: z.string().optional(),
  description: z.string().optional(),
  source: z.looseObject({
    assetId: z.string().optional(),
    assetType: z.string().optional(),
    fqn: z.string().optional(),
  }).optional(),
  contacts: z.record(z.string(), z.array(z.looseObject({ id: z.string() }))).optional(),
  classifications: z.array(z.string()).optional(),
  schema: z.array(z.looseObject({ name: z.string().optional(), type: z.string().optional() })).optional(),
  openInUrl: z.string().optional(),
  typeProperties: z.looseObject({}).optional(),
  lineage: z.unknown().optional(),
  systemData: systemDataSchema.optional(),
});

/** Checks a data column the service returned; the details may be null or partial. */
export const dataColumnSchema: z.ZodType<DataColumn, DataColumn> = z.looseObject({
  id: z.string(),
  source: z.looseObject({
    type: z.string().optional(),
    assetId: z.string().optional(),
    columnId: z.string().optional(),
  }).optional(),
  columnDetails: z.looseObject({}).nullable().optional(),
  assetDetails: z.looseObject({}).nullable().optional(),
});

/** Checks a data asset create or replace: the Data Map asset's GUID, Entra ID contacts, a link. */
export const dataAssetInputSchema: z.ZodType<DataAssetInput, DataAssetInput> = z.object({
  source: z.object({ assetId: guid("the Data Map asset's id") }, {
    error: 'is required: {"assetId": "<Data Map asset GUID>"}',
  }),
  contacts: contactsMapSchema.optional(),
  openInUrl: z.string().optional(),
});

/** One column of an ingest: a Data Map asset and one of its columns. */
export const ingestRequestSchema = z.object({
  dataMapAssetId: guid("the Data Map asset's id"),
  dataMapColumnId: guid("the Data Map column's id"),
});

/** A data asset relationship to create. */
export const dataAssetRelationshipInputSchema = z.object({
  entityId: guid("the related entity's id"),
  relationshipType: caseInsensitiveEnum(DATA_ASSET_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});

/** A data column relationship to create. */
export const dataColumnRelationshipInputSchema = z.object({
  entityId: guid("the related entity's id"),
  relationshipType: caseInsensitiveEnum(DATA_COLUMN_RELATIONSHIP_TYPES).optional(),
  description: z.string().optional(),
});

/** A `dataAssets/query` body (no skip or top: paging is by `nextLink` only). */
export const dataAssetQuerySchema = z.looseObject({
  ids: z.array(z.string()).optional(),
  nameKeyword: z.string().optional(),
  owners: z.array(z.string()).optional(),
  sourceAssetIds: z.array(z.string()).optional(),
  assetTypes: z.array(z.string()).optional(),
  includingOrphans: z.boolean().optional(),
});

/** A `dataColumns/query` body; `includingOrphans` is required by the API. */
export const dataColumnQuerySchema = z.looseObject({
  includingOrphans: z.boolean({ error: "is required (true or false)" }),
  filter: z.looseObject({}).optional(),
  skip: z.number().int().min(0).optional(),
  top: z.number().int().min(1).optional(),
  includeColumnDetails: z.boolean().optional(),
  includeAssetDetails: z.boolean().optional(),
});
