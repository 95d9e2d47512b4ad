/**
 * What a lineage CSV import would do to one process (`--plan`): create it, leave it (the stored process
 * already joins the same ends with the same description, owner and column mapping), update it (each
 * differing field, old → new; the row's other attributes where the stored process holds them), skip it (`--skip-existing`), or reject it with the reason the import would
 * give (a missing or deleted end, a column mapping that would not render). The plan records each field it
 * read, so `--apply-plan` refuses when the process (or an end's state) changed since.
 *
 * @module
 */
import { columnMappingJson, type LineageEnd } from "../catalog/lineage_builder.ts";
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import { sameValue } from "../csv/plan.ts";
import type { FieldChange, UnitDiff } from "../csv/types.ts";
import { entriesOf, hasColumnLineage, processTypeOf } from "./column_lineage_items.ts";
import { metadataWithoutMapping } from "../lineage/column_mapping_rows.ts";
import type { LineageProcessItem } from "./lineage_csv_rows.ts";

/** A row group's ends and process name resolved, or why it is rejected. */
export type Resolved = { source: LineageEnd; target: LineageEnd; qualifiedName: string } | { reason: string };

/** Ids of the entities a stored process holds under `inputs` or `outputs`. */
export function refGuids(process: AtlasEntity, attribute: "inputs" | "outputs"): string[] {
  const refs = process.attributes?.[attribute] ?? process.relationshipAttributes?.[attribute];
  if (!Array.isArray(refs)) return [];
  return refs.flatMap((ref) => typeof ref?.guid === "string" ? [ref.guid.toLowerCase()] : []);
}

/** Whether a stored JSON text is the same JSON as `expected`. */
export function sameJson(stored: unknown, expected: string): boolean {
  if (typeof stored !== "string") return false;
  try {
    return JSON.stringify(JSON.parse(stored)) === JSON.stringify(JSON.parse(expected));
  } catch {
    return false;
  }
}

/** The fields the import writes for `item`, as the plan shows them. */
function writtenFields(item: LineageProcessItem, source: LineageEnd, target: LineageEnd) {
  const fields: Record<string, { value: unknown; same: (stored: unknown) => boolean }> = {
    inputs: {
      value: [source.guid.toLowerCase()],
      same: (s) => JSON.stringify(s) === JSON.stringify([source.guid.toLowerCase()]),
    },
    outputs: {
      value: [target.guid.toLowerCase()],
      same: (s) => JSON.stringify(s) === JSON.stringify([target.guid.toLowerCase()]),
    },
  };
  if (item.description !== undefined) {
    fields.description = { value: item.description, same: (s) => (s ?? "") === item.description };
  }
  if (item.owner !== undefined) fields.owner = { value: item.owner, same: (s) => (s ?? "") === item.owner };
  if (hasColumnLineage(item)) {
    const mapping = columnMappingJson(item.columnMappings, [source], [target], entriesOf(item));
    fields.columnMapping = { value: mapping, same: (s) => sameJson(s, mapping) };
  }
  return fields;
}

/**
 * The row's other attributes (metadata keys, relationship_type, confidence_score), as the import sends them.
 * The import stores only those the process type defines; the plan compares those the stored process holds.
 */
function extraFields(item: LineageProcessItem): Record<string, unknown> {
  const extras: Record<string, unknown> = { ...metadataWithoutMapping(item.metadata) };
  if (item.relationshipType !== undefined) extras.relationshipType = item.relationshipType;
  if (item.confidenceScore !== undefined) extras.confidenceScore = item.confidenceScore;
  return extras;
}

/** The stored value of a field the import writes (`null`: none). */
function storedField(stored: AtlasEntity, field: string): unknown {
  if (field === "inputs" || field === "outputs") return refGuids(stored, field);
  return stored.attributes?.[field] ?? null;
}

/** The plan of one row group (a process); see the module documentation. */
export function lineageDiff(
  item: LineageProcessItem,
  resolved: Resolved,
  stored: AtlasEntity | undefined,
  skipExisting: boolean,
): UnitDiff {
  const ends = `${item.sourceGuid} → ${item.targetGuid}`;
  if ("reason" in resolved) {
    // Read: the reason, so an apply refuses when the ends or columns were fixed (or broken) since.
    return {
      action: "reject",
      target: `${processTypeOf(item)} ${item.processName ?? ""} ${ends}`.replace(/\s+/g, " "),
      changes: [],
      reason: resolved.reason,
      read: { guid: null, rejected: resolved.reason },
    };
  }
  const target = `${processTypeOf(item)} ${resolved.qualifiedName} (${ends})`;
  const fields = writtenFields(item, resolved.source, resolved.target);
  if (!stored) {
    const changes = Object.entries(fields).map(([field, { value }]) => ({ field, old: null, new: value }));
    return { action: "create", target, changes, read: { guid: null } };
  }
  const read: Record<string, unknown> = { guid: stored.guid ?? resolved.qualifiedName };
  if (skipExisting) {
    return { action: "skip", target, changes: [], reason: "exists already", read };
  }
  const changes: FieldChange[] = [];
  for (const [field, { value, same }] of Object.entries(fields)) {
    const now = storedField(stored, field);
    read[field] = now;
    if (!same(now)) changes.push({ field, old: now, new: value });
  }
  for (const [field, value] of Object.entries(extraFields(item))) {
    if (!(field in (stored.attributes ?? {}))) continue;
    const now = stored.attributes?.[field] ?? null;
    read[field] = now;
    if (!sameValue(now, value)) changes.push({ field, old: now, new: value });
  }
  return { action: changes.length > 0 ? "update" : "unchanged", target, changes, read };
}
