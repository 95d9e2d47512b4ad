/**
 * How the lineage import writes a process: once. The catalog it is given writes each process as a bulk
 * write of one entity marked not idempotent, so the HTTP core never repeats it and an answer lost after
 * the service wrote the process reaches the engine, which asks whether the process is there (`applied`)
 * instead of writing it again. A refusal of the catalog (bad request, conflict, …) rejects that process
 * only, with the service's answer; anything else stops the import.
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import { createLineage } from "../catalog/lineage_builder.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import type { UnitOutcome } from "../csv/types.ts";
import {
  AuthenticationError,
  AuthorizationError,
  CatalogError,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UsageError,
} from "../core/errors.ts";
import { metadataWithoutMapping } from "../lineage/column_mapping_rows.ts";
import { entriesOf } from "./column_lineage_items.ts";
import type { LineageEndChecker } from "./lineage_end_checker.ts";
import type { LineageProcessItem } from "./lineage_csv_rows.ts";

/** Longest reason a rejected process carries into the reject file. */
export const MAX_REASON = 500;

/** A refusal of one process (bad request, conflict, …): only that unit is rejected. */
function refusesUnit(error: unknown): error is CatalogError | UsageError {
  if (error instanceof UsageError) return true;
  if (!(error instanceof CatalogError)) return false;
  if (
    error instanceof AuthenticationError || error instanceof AuthorizationError ||
    error instanceof RateLimitError || error instanceof NetworkError || error instanceof TimeoutError
  ) return false;
  return !(error instanceof ServerError && [502, 503, 504].includes(error.status));
}

function refusalReason(error: CatalogError | UsageError): string {
  const prefix = error instanceof CatalogError
    ? `${error.status}${error.code ? ` ${error.code}` : ""}: `
    : "";
  return `${prefix}${error.message}`.replace(/\s+/g, " ").slice(0, MAX_REASON);
}

/**
 * `catalog` whose process writes are never repeated by the HTTP core: the upsert goes as a bulk write of
 * one entity marked not idempotent, so an answer lost after the service wrote the process reaches the engine,
 * which asks whether the process is there (`applied`) instead of writing it again.
 */
export function writingOnce(catalog: CatalogClient): CatalogClient {
  // An import built only to group rows into units is given no client.
  if (catalog === undefined) return catalog;
  const bound = <T extends object>(target: T, override: Record<string | symbol, unknown>): T =>
    new Proxy(target, {
      get: (object, key) => {
        if (key in override) return override[key];
        const value = Reflect.get(object, key, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const entity = bound(catalog.entity, {
    createOrUpdate: (written: AtlasEntity, signal?: AbortSignal) =>
      catalog.entity.createOrUpdateMany([written], signal, { idempotent: false }),
  });
  return bound(catalog, { entity });
}

/**
 * Creates or updates the process of one row group whose ends resolved; a refusal of the catalog is the
 * group's rejection, anything else stops the import. Attributes the type did not store go to `notStored`.
 */
export async function writeProcess(
  catalog: CatalogClient,
  item: LineageProcessItem,
  options: { cache: LineageEndChecker["cache"]; signal?: AbortSignal; notStored: Set<string> },
): Promise<UnitOutcome> {
  const extraAttributes: Record<string, unknown> = { ...metadataWithoutMapping(item.metadata) };
  if (item.relationshipType !== undefined) extraAttributes.relationshipType = item.relationshipType;
  try {
    const result = await createLineage(catalog, {
      sources: [{ guid: item.sourceGuid }],
      targets: [{ guid: item.targetGuid }],
      processName: item.processName,
      processType: item.processType,
      description: item.description,
      owner: item.owner,
      confidenceScore: item.confidenceScore,
      extraAttributes,
      columnMappings: item.columnMappings,
      columnMappingEntries: entriesOf(item),
    }, { cache: options.cache, signal: options.signal });
    result.attributesNotStored.forEach((name) => options.notStored.add(name));
    return { status: result.created ? "created" : "updated" };
  } catch (error) {
    if (!refusesUnit(error)) throw error;
    return {
      status: "rejected",
      reason: refusalReason(error),
      httpStatus: error instanceof CatalogError ? error.status : undefined,
      code: error instanceof CatalogError ? error.code : undefined,
    };
  }
}
