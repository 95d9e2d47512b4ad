/**
 * `uc data-asset …`: the unified catalog's data assets (api-version 2026-03-20-preview, set by
 * CATALOG_UNIFIED_ASSETS_API_VERSION; contract notes ../shared/reference/unified-catalog-2026.md). A data
 * asset is made from a Data Map asset and related to data products; its relationship commands are shared
 * with `uc data-column` ({@link relationshipOperations}).
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { canonicalEnumValue, describeEnum, ENTITY_CATEGORIES } from "../catalog/unified_enums.ts";
import type { DataAssetInput } from "../catalog/unified_asset_schemas.ts";
import { guidListField } from "./guid_fields.ts";
import {
  compact,
  deletedResult,
  idOption,
  ownerIdOption,
  pagingOptions,
  payloadObject,
  unifiedPayloadFile,
  withOwners,
} from "./unified_inputs.ts";
import {
  CREATE,
  defineOperation,
  DELETE,
  type Operation,
  type OperationContext,
  READ,
  UPSERT,
} from "./types.ts";

type Input = Record<string, unknown>;

const dataAssetId = idOption("Id of the data asset (from uc data-asset list or query)");
const assetFields = {
  sourceAssetId: idOption("GUID of the Data Map asset the data asset is made from").optional(),
  openInUrl: z.string().optional().describe("Link that opens the asset in its source"),
  ownerId: ownerIdOption,
  payloadFile: unifiedPayloadFile.describe(
    'JSON file with the request body ({"source": {"assetId"}, contacts, openInUrl})',
  ),
};

/** The category an `--entity-type` names, in the API's spelling, or a usage error listing them. */
export function entityCategory(value: string | undefined, option = "--entity-type"): string {
  const found = value === undefined ? undefined : canonicalEnumValue(ENTITY_CATEGORIES, value);
  if (!found) {
    throw new UsageError(
      `${option} is required and must be ${describeEnum(ENTITY_CATEGORIES)}${
        value ? `, not "${value}"` : ""
      }.`,
    );
  }
  return found;
}

/** The request body: the payload file, with the options over it. */
async function assetBody(ctx: OperationContext, input: Input, base: Input = {}): Promise<DataAssetInput> {
  const payload = await payloadObject(ctx, input.payloadFile as string | undefined, "a data asset request");
  const body: Input = { ...base, ...payload };
  if (input.sourceAssetId) body.source = { assetId: input.sourceAssetId };
  if (input.openInUrl !== undefined) body.openInUrl = input.openInUrl;
  const contacts = withOwners(body.contacts as Input | undefined, input.ownerId as string[] | undefined);
  if (contacts) body.contacts = contacts;
  return body as unknown as DataAssetInput;
}

const dataAssetList = defineOperation({
  id: "uc.data-asset-list",
  group: "uc",
  command: "data-asset list",
  summary: "List data assets",
  description: "Every page is read unless --top or --skip is given (then only that page, with its nextLink).",
  input: z.object({
    includeExtendedProperties: z.boolean().optional().describe("Ask for the extended properties too"),
    orderBy: z.string().optional().describe('Order, such as "name desc"'),
    ...pagingOptions,
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const api = ctx.unified().dataAssets;
    const options = { ...compact(input), signal: ctx.signal };
    if (input.top !== undefined || input.skip !== undefined) return await api.listPage(options);
    const all = [];
    for await (const asset of api.list(options)) all.push(asset);
    return all;
  },
});

const dataAssetGet = defineOperation({
  id: "uc.data-asset-get",
  group: "uc",
  command: "data-asset get",
  summary: "Read a data asset by id",
  input: z.object({
    dataAssetId,
    includeExtendedProperties: z.boolean().optional().describe("Ask for the extended properties too"),
    includeLineage: z.boolean().optional().describe("Ask for the asset's lineage too"),
  }),
  annotations: READ,
  run: async (ctx, input) =>
    await ctx.unified().dataAssets.get(input.dataAssetId, {
      includeExtendedProperties: input.includeExtendedProperties,
      includeLineage: input.includeLineage,
      signal: ctx.signal,
    }),
});

const dataAssetCreate = defineOperation({
  id: "uc.data-asset-create",
  group: "uc",
  command: "data-asset create",
  summary: "Make a data asset of a Data Map asset",
  description: "The service names and types the data asset after its Data Map asset. Owners are Entra ID " +
    "object IDs, never e-mail addresses.",
  input: z.object(assetFields),
  annotations: CREATE,
  run: async (ctx, input) => {
    const body = await assetBody(ctx, input);
    if (!body.source) {
      throw new UsageError(
        'uc data-asset create needs --source-asset-id (or "source": {"assetId"} in --payload-file).',
        'Find the Data Map asset with "govcat search query" or "govcat entity get".',
      );
    }
    return await ctx.unified().dataAssets.create(body, { signal: ctx.signal });
  },
});

const dataAssetUpdate = defineOperation({
  id: "uc.data-asset-update",
  group: "uc",
  command: "data-asset update",
  summary: "Replace a data asset",
  description: "The API replaces the whole request (source, contacts, openInUrl): without --payload-file " +
    "the data asset is read first and the options given are laid over what it has.",
  input: z.object({ dataAssetId, ...assetFields }),
  annotations: { ...UPSERT, destructive: true },
  run: async (ctx, input) => {
    const api = ctx.unified().dataAssets;
    let base: Input = {};
    if (!input.payloadFile) {
      const current = await api.get(input.dataAssetId, { signal: ctx.signal });
      base = compact({
        source: current.source?.assetId ? { assetId: current.source.assetId } : undefined,
        contacts: current.contacts,
        openInUrl: current.openInUrl,
      });
    }
    return await api.update(input.dataAssetId, await assetBody(ctx, input, base), { signal: ctx.signal });
  },
});

const dataAssetDelete = defineOperation({
  id: "uc.data-asset-delete",
  group: "uc",
  command: "data-asset delete",
  summary: "Delete a data asset",
  input: z.object({ dataAssetId }),
  annotations: DELETE,
  run: async (ctx, input) => {
    await ctx.unified().dataAssets.delete(input.dataAssetId, { signal: ctx.signal });
    return deletedResult("data asset", input.dataAssetId);
  },
});

const dataAssetQuery = defineOperation({
  id: "uc.data-asset-query",
  group: "uc",
  command: "data-asset query",
  summary: "Find data assets",
  description: "Filters as options and/or a --payload-file with the JSON query body ({ids, nameKeyword, " +
    "owners, sourceAssetIds, assetTypes, includingOrphans}); options win. Every page is read.",
  input: z.object({
    keyword: z.string().optional().describe("Only those whose name contains this"),
    id: guidListField("Only this data asset").optional(),
    ownerId: ownerIdOption.describe("Only those owned by this Entra object ID"),
    sourceAssetId: guidListField("Only the data asset of this Data Map asset").optional(),
    assetType: z.array(z.string()).optional().describe(
      "Only those of this Data Map type (azure_sql_table, ...)",
    ),
    includingOrphans: z.boolean().optional().describe("Include data assets related to no data product"),
    payloadFile: unifiedPayloadFile.describe("JSON file with a query body"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const payload = await payloadObject(ctx, input.payloadFile, "a data asset query body");
    const list = (value?: string[]) => (value?.length ? value : undefined);
    const body = {
      ...payload,
      ...compact({
        nameKeyword: input.keyword,
        ids: list(input.id),
        owners: list(input.ownerId),
        sourceAssetIds: list(input.sourceAssetId),
        assetTypes: list(input.assetType),
        includingOrphans: input.includingOrphans,
      }),
    };
    const all = [];
    for await (const asset of ctx.unified().dataAssets.query(body, { signal: ctx.signal })) all.push(asset);
    return all;
  },
});

/** What the relationship commands of a kind need. */
interface RelatedKind {
  /** `data-asset` or `data-column`. */
  word: string;
  label: string;
  idField: string;
  relationshipTypes: string;
  api(ctx: OperationContext): {
    listRelationships(id: string, filter: { entityType: string; signal?: AbortSignal }): Promise<unknown>;
    createRelationship(
      id: string,
      input: { entityId: string; relationshipType?: string; description?: string },
      options: { entityType: string; signal?: AbortSignal },
    ): Promise<unknown>;
    deleteRelationship(
      id: string,
      target: { entityId: string; entityType: string; signal?: AbortSignal },
    ): Promise<void>;
  };
}

/** `relationships`, `relate` and `delete-relationship` of a data asset or data column. */
export function relationshipOperations(kind: RelatedKind): Operation[] {
  const id = { [kind.idField]: idOption(`Id of the ${kind.label}`) };
  const entityType = z.string().describe(
    "Category of the related entities: DATAPRODUCT, TERM, ... (required)",
  );
  const entityId = idOption("Id of the related entity");
  const idOf = (input: Input) => String(input[kind.idField]);
  return [
    defineOperation({
      id: `uc.${kind.word}-relationships`,
      group: "uc",
      command: `${kind.word} relationships`,
      aliases: [`${kind.word} list-relationships`],
      summary: `Entities a ${kind.label} is related to`,
      input: z.object({ ...id, entityType }),
      annotations: READ,
      run: async (ctx, input: Input) =>
        await kind.api(ctx).listRelationships(idOf(input), {
          entityType: entityCategory(input.entityType as string),
          signal: ctx.signal,
        }),
    }),
    defineOperation({
      id: `uc.${kind.word}-relate`,
      group: "uc",
      command: `${kind.word} relate`,
      aliases: [`${kind.word} create-relationship`],
      summary: `Relate a ${kind.label} to an entity`,
      description: `--relationship-type is ${kind.relationshipTypes}; the related entity must exist.`,
      input: z.object({
        ...id,
        entityType,
        entityId,
        relationshipType: z.string().optional().describe(`${kind.relationshipTypes} (any case)`),
        description: z.string().optional().describe("Why they are related"),
      }),
      annotations: UPSERT,
      run: async (ctx, input: Input) =>
        await kind.api(ctx).createRelationship(
          idOf(input),
          compact({
            entityId: String(input.entityId),
            relationshipType: input.relationshipType as string | undefined,
            description: input.description as string | undefined,
          }) as { entityId: string },
          { entityType: entityCategory(input.entityType as string), signal: ctx.signal },
        ),
    }),
    defineOperation({
      id: `uc.${kind.word}-delete-relationship`,
      group: "uc",
      command: `${kind.word} delete-relationship`,
      summary: `Remove a ${kind.label}'s relationship`,
      input: z.object({ ...id, entityType, entityId }),
      annotations: DELETE,
      run: async (ctx, input: Input) => {
        const target = {
          entityId: String(input.entityId),
          entityType: entityCategory(input.entityType as string),
          signal: ctx.signal,
        };
        await kind.api(ctx).deleteRelationship(idOf(input), target);
        return deletedResult("relationship", target.entityId, { [kind.idField]: idOf(input) });
      },
    }),
  ];
}

/** The data assets (and other entities) a data product is related to, seen from the product. */
export const dataProductRelationships = defineOperation({
  id: "uc.dataproduct-relationships",
  group: "uc",
  command: "dataproduct relationships",
  summary: "Entities a data product is related to",
  input: z.object({
    dataProductId: idOption("Id of the data product"),
    entityType: z.string().describe("Category of the related entities: DATAASSET, TERM, ... (required)"),
  }),
  annotations: READ,
  run: async (ctx, input) =>
    await ctx.unified().dataProducts.listRelationships(input.dataProductId, {
      entityType: entityCategory(input.entityType),
      signal: ctx.signal,
    }),
});

/** Every `uc data-asset` command. */
export const DATA_ASSET_OPERATIONS: Operation[] = [
  dataAssetList,
  dataAssetGet,
  dataAssetCreate,
  dataAssetUpdate,
  dataAssetDelete,
  dataAssetQuery,
  ...relationshipOperations({
    word: "data-asset",
    label: "data asset",
    idField: "dataAssetId",
    relationshipTypes: "Related (default) or Synonym",
    api: (ctx) => ctx.unified().dataAssets,
  }),
  dataProductRelationships,
];
