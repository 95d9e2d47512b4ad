/**
 * `uc data-column …`: the unified catalog's data columns (api-version 2026-03-20-preview, set by
 * CATALOG_UNIFIED_ASSETS_API_VERSION; contract notes ../shared/reference/unified-catalog-2026.md): ingest
 * Data Map columns, read one, query them (the columns of a Data Map asset, ...) and relate them.
 *
 * @module
 */
import { z } from "../deps/zod.ts";
import { UsageError } from "../core/errors.ts";
import { guidListField } from "./guid_fields.ts";
import { compact, idOption, payloadObject, unifiedPayloadFile } from "./unified_inputs.ts";
import { relationshipOperations } from "./unified_data_asset_operations.ts";
import { CREATE, defineOperation, type Operation, READ } from "./types.ts";

const details = {
  includeColumnDetails: z.boolean().optional().describe("Add the column's name, data type, qualified name"),
  includeAssetDetails: z.boolean().optional().describe("Add the name and id of the column's data asset"),
};

const dataColumnGet = defineOperation({
  id: "uc.data-column-get",
  group: "uc",
  command: "data-column get",
  summary: "Read a data column by id",
  input: z.object({ dataColumnId: idOption("Id of the data column"), ...details }),
  annotations: READ,
  run: async (ctx, input) =>
    await ctx.unified().dataColumns.get(input.dataColumnId, {
      includeColumnDetails: input.includeColumnDetails,
      includeAssetDetails: input.includeAssetDetails,
      signal: ctx.signal,
    }),
});

const dataColumnIngest = defineOperation({
  id: "uc.data-column-ingest",
  group: "uc",
  command: "data-column ingest",
  summary: "Ingest Data Map columns",
  description: "Give the Data Map asset (--asset-id) and its columns (--column-id, repeatable), and/or a " +
    '--payload-file with {"requests": [{"dataMapAssetId", "dataMapColumnId"}]}. Ingesting a column again ' +
    "answers the column already made. Prints one data column per request.",
  input: z.object({
    assetId: idOption("GUID of the Data Map asset the columns belong to").optional(),
    columnId: guidListField("GUID of a Data Map column to ingest").optional(),
    payloadFile: unifiedPayloadFile.describe('JSON file with {"requests": [...]}'),
  }),
  annotations: CREATE,
  run: async (ctx, input) => {
    const payload = await payloadObject(ctx, input.payloadFile, "an ingest body");
    const requests = Array.isArray(payload.requests) ? [...payload.requests] : [];
    if (input.columnId?.length && !input.assetId) {
      throw new UsageError("--column-id needs --asset-id, the Data Map asset the columns belong to.");
    }
    for (const columnId of input.columnId ?? []) {
      requests.push({ dataMapAssetId: input.assetId, dataMapColumnId: columnId });
    }
    if (requests.length === 0) {
      throw new UsageError(
        "uc data-column ingest needs --asset-id with --column-id, or --payload-file with requests.",
      );
    }
    return await ctx.unified().dataColumns.ingest(requests, { signal: ctx.signal });
  },
});

const dataColumnQuery = defineOperation({
  id: "uc.data-column-query",
  group: "uc",
  command: "data-column query",
  summary: "Find data columns",
  description: "Options and/or a --payload-file with the JSON query body ({includingOrphans, filter, " +
    "includeColumnDetails, includeAssetDetails}); options are combined with the file's filter. Every page " +
    "is read. Without --including-orphans, only columns whose Data Map asset has a data asset.",
  input: z.object({
    assetId: guidListField("Only columns of this Data Map asset").optional(),
    columnId: guidListField("Only the data column of this Data Map column").optional(),
    id: guidListField("Only this data column").optional(),
    includingOrphans: z.boolean().optional().describe("Include columns whose asset has no data asset"),
    ...details,
    payloadFile: unifiedPayloadFile.describe("JSON file with a query body"),
  }),
  annotations: READ,
  run: async (ctx, input) => {
    const payload = await payloadObject(ctx, input.payloadFile, "a data column query body");
    const conditions: Record<string, unknown>[] = [];
    if (payload.filter && typeof payload.filter === "object") conditions.push(payload.filter as never);
    if (input.assetId?.length) conditions.push({ sourceAssetId: { in: input.assetId } });
    if (input.columnId?.length) conditions.push({ sourceColumnId: { in: input.columnId } });
    if (input.id?.length) conditions.push({ id: { in: input.id } });
    const body = {
      ...payload,
      includingOrphans: input.includingOrphans ?? payload.includingOrphans ?? false,
      ...compact({
        filter: conditions.length === 0
          ? undefined
          : conditions.length === 1
          ? conditions[0]
          : { and: conditions },
        includeColumnDetails: input.includeColumnDetails,
        includeAssetDetails: input.includeAssetDetails,
      }),
    };
    const all = [];
    for await (const column of ctx.unified().dataColumns.query(body, { signal: ctx.signal })) {
      all.push(column);
    }
    return all;
  },
});

/** Every `uc data-column` command. */
export const DATA_COLUMN_OPERATIONS: Operation[] = [
  dataColumnGet,
  dataColumnIngest,
  dataColumnQuery,
  ...relationshipOperations({
    word: "data-column",
    label: "data column",
    idField: "dataColumnId",
    relationshipTypes: "Related (default), Synonym or Parent",
    api: (ctx) => ctx.unified().dataColumns,
  }),
];
