/**
 * The unified catalog's data columns (2026-03-20-preview, see ../shared/reference/unified-catalog-2026.md):
 * a column is ingested from a Data Map column of a Data Map asset of the same emulator; ingesting the same
 * pair again answers the column already made. Its details are read from the Data Map when asked for, and
 * its asset details name the governance data asset made from the same Data Map asset, when there is one.
 *
 * Assumptions where the contract says nothing: an ingest answers one DataColumnIngestResponse for a batch
 * of one request and `{"value": [...]}` (one per request, in order) for a larger batch, all or nothing;
 * a column is an orphan when no governance data asset is made from its Data Map asset.
 *
 * @module
 */
import { invalidField } from "./errors.ts";
import type { DataAssets } from "./data_assets.ts";
import { isRecord, type Json, KINDS } from "./model.ts";
import { isGuid } from "../../core/guid.ts";

/** The most requests one ingest takes. */
export const MAX_INGEST_REQUESTS = 1000;

/** A field filter over GUID strings. */
interface FieldFilter {
  eq?: string;
  ne?: string;
  in?: string[];
  nin?: string[];
}

const FILTER_FIELDS = ["id", "sourceAssetId", "sourceColumnId"] as const;

/** The data column rules over the unified catalog's store and the emulator's Data Map. */
export class DataColumns {
  constructor(readonly assets: DataAssets) {}

  /** Ingests a batch of Data Map columns (`POST dataColumns/ingest`). */
  ingest(body: unknown): Json {
    if (!isRecord(body) || !Array.isArray(body.requests) || body.requests.length === 0) {
      throw invalidField(
        "requests",
        'The body must be {"requests": [{"dataMapAssetId": "<guid>", "dataMapColumnId": "<guid>"}]}.',
      );
    }
    if (body.requests.length > MAX_INGEST_REQUESTS) {
      throw invalidField("requests", `At most ${MAX_INGEST_REQUESTS} requests per ingest; split the batch.`);
    }
    // Every request is checked before anything is stored, so a bad one changes nothing.
    const pairs = body.requests.map((request, index) => this.#pair(request, index));
    const made = pairs.map(([assetId, columnId]) => this.#ingestOne(assetId, columnId));
    return made.length === 1 ? made[0] : { value: made };
  }

  /** One column, with its details as asked (`GET dataColumns/{id}`). */
  wire(column: Json, columnDetails: boolean, assetDetails: boolean): Json {
    const source = column.source as Json;
    const answer: Json = { id: column.id, source };
    if (columnDetails) {
      const entity = this.assets.dataMap.get(String(source.columnId));
      answer.columnDetails = entity
        ? {
          name: entity.attributes.name,
          ...(typeof entity.attributes.description === "string"
            ? { description: entity.attributes.description }
            : {}),
          dataType: entity.attributes.data_type ?? entity.attributes.dataType,
          qualifiedName: entity.attributes.qualifiedName,
        }
        : null;
    }
    if (assetDetails) {
      const asset = this.assets.bySource(String(source.assetId));
      const entity = this.assets.dataMap.get(String(source.assetId));
      answer.assetDetails = asset
        ? { assetId: asset.id, name: asset.name, fqn: (asset.source as Json).fqn }
        : entity
        ? { name: entity.attributes.name, fqn: entity.attributes.qualifiedName }
        : null;
    }
    return answer;
  }

  /** The columns a `dataColumns/query` body selects, oldest first. */
  select(body: Json): Json[] {
    if (typeof body.includingOrphans !== "boolean") {
      throw invalidField("includingOrphans", "includingOrphans (true or false) is required.");
    }
    const filter = body.filter === undefined || body.filter === null ? {} : body.filter;
    checkFilter(filter, "filter");
    return this.assets.catalog.store.list("dataColumn").filter((column) => {
      const source = column.source as Json;
      if (!body.includingOrphans && !this.assets.bySource(String(source.assetId))) return false;
      return passes(filter as Json, {
        id: String(column.id),
        sourceAssetId: String(source.assetId),
        sourceColumnId: String(source.columnId),
      });
    });
  }

  #pair(request: unknown, index: number): [string, string] {
    const where = `requests[${index}]`;
    if (!isRecord(request) || !isGuid(request.dataMapAssetId) || !isGuid(request.dataMapColumnId)) {
      throw invalidField(where, `${where} needs dataMapAssetId and dataMapColumnId, both GUIDs.`);
    }
    const assetId = request.dataMapAssetId.toLowerCase();
    const columnId = request.dataMapColumnId.toLowerCase();
    if (!this.assets.dataMap.get(assetId)) {
      throw invalidField(`${where}.dataMapAssetId`, `'${assetId}' does not name a Data Map asset.`);
    }
    const column = this.assets.dataMap.get(columnId);
    if (!column) {
      throw invalidField(`${where}.dataMapColumnId`, `'${columnId}' does not name a Data Map column.`);
    }
    const table = tableOf(column);
    if (table !== undefined && table !== assetId) {
      throw invalidField(
        `${where}.dataMapColumnId`,
        `The Data Map column '${columnId}' belongs to asset '${table}', not to '${assetId}'.`,
      );
    }
    return [assetId, columnId];
  }

  #ingestOne(assetId: string, columnId: string): Json {
    const store = this.assets.catalog.store;
    const existing = store.children("dataColumn", assetId)
      .find((column) => (column.source as Json).columnId === columnId);
    if (existing) return { id: existing.id, source: existing.source };
    const column: Json = { id: crypto.randomUUID(), source: { type: "DataMap", assetId, columnId } };
    store.put(KINDS.dataColumn.kind, column, undefined, assetId);
    return column;
  }
}

/** The table (asset) GUID a Data Map column names, when it names one. */
function tableOf(column: { attributes: Json; [field: string]: unknown }): string | undefined {
  for (const holder of [column.relationshipAttributes, column.attributes]) {
    if (!isRecord(holder)) continue;
    const table = holder.table ?? holder.parent;
    if (isRecord(table) && typeof table.guid === "string") return table.guid.toLowerCase();
  }
  return undefined;
}

function checkFilter(filter: unknown, target: string): void {
  if (!isRecord(filter)) throw invalidField(target, `${target} must be an object.`);
  for (const [key, value] of Object.entries(filter)) {
    if (key === "and" || key === "or") {
      if (!Array.isArray(value)) throw invalidField(`${target}.${key}`, `${target}.${key} must be an array.`);
      value.forEach((inner, index) => checkFilter(inner, `${target}.${key}[${index}]`));
    } else if ((FILTER_FIELDS as readonly string[]).includes(key)) {
      checkFieldFilter(value, `${target}.${key}`);
    } else {
      throw invalidField(
        `${target}.${key}`,
        `${target}.${key} is not a filter; use and, or, ${FILTER_FIELDS.join(", ")}.`,
      );
    }
  }
}

function checkFieldFilter(value: unknown, target: string): void {
  if (!isRecord(value)) throw invalidField(target, `${target} must be an object such as {"eq": "<guid>"}.`);
  for (const [operator, operand] of Object.entries(value)) {
    const ok = operator === "eq" || operator === "ne"
      ? typeof operand === "string"
      : (operator === "in" || operator === "nin") && Array.isArray(operand) &&
        operand.every((item) => typeof item === "string");
    if (!ok) {
      throw invalidField(
        `${target}.${operator}`,
        `${target}.${operator} is not valid: eq and ne take a GUID, in and nin an array of GUIDs.`,
      );
    }
  }
}

function passes(filter: Json, values: Record<(typeof FILTER_FIELDS)[number], string>): boolean {
  if (Array.isArray(filter.and) && !filter.and.every((inner) => passes(inner as Json, values))) return false;
  if (Array.isArray(filter.or) && filter.or.length > 0 && !filter.or.some((i) => passes(i as Json, values))) {
    return false;
  }
  return FILTER_FIELDS.every((field) => {
    const condition = filter[field] as FieldFilter | undefined;
    if (!condition) return true;
    const value = values[field];
    const lower = (list?: string[]) => list?.map((item) => item.toLowerCase());
    if (condition.eq !== undefined && value !== condition.eq.toLowerCase()) return false;
    if (condition.ne !== undefined && value === condition.ne.toLowerCase()) return false;
    if (condition.in && !lower(condition.in)!.includes(value)) return false;
    if (condition.nin && lower(condition.nin)!.includes(value)) return false;
    return true;
  });
}
