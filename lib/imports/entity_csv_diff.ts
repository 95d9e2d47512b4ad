/**
 * What an entity row would change, field by field, for `--plan`: each field the row writes, named as the
 * file names it (`displayName`, `description`, `owner`, `attr.<name>`, `bm.<group>.<attribute>`,
 * `classifications`, `labels`, `collection`), with its value in the catalog now and the value it would get.
 *
 * Values compare as the catalog keeps them: a scalar cell equals a stored scalar with the same text (the
 * catalog converts `"30"` to `30`), owners, classifications and labels compare as sets of what the row names
 * (the entity may carry more: a row only adds them).
 *
 * @module
 */
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import { sameValue } from "../csv/plan.ts";
import type { FieldChange, UnitDiff } from "../csv/types.ts";

/** What a row writes onto an entity, whatever the template. */
export interface EntityWrite {
  attributes: Record<string, unknown>;
  businessAttributes?: Record<string, Record<string, unknown>>;
  contacts?: Record<string, Array<{ id: string }>>;
  classifications?: string[];
  labels?: string[];
  collection?: string;
}

/** Attributes a column of their own names; any other is `attr.<name>`. */
const OWN_COLUMNS = new Set(["displayName", "description", "name", "qualifiedName"]);

const fieldOfAttribute = (name: string) => OWN_COLUMNS.has(name) ? name : `attr.${name}`;

/** Whether `stored` holds every one of `wanted`. */
const holdsAll = (stored: unknown, wanted: readonly string[]) => {
  const have = new Set(Array.isArray(stored) ? stored.map(String) : []);
  return wanted.every((value) => have.has(value));
};

/** The fields a write touches, with the value each has on `stored` (null when absent or no entity). */
function readFields(
  stored: AtlasEntity | undefined,
  write: EntityWrite,
): Array<[string, unknown, unknown, boolean]> {
  const fields: Array<[string, unknown, unknown, boolean]> = [];
  const attributes = stored?.attributes ?? {};
  for (const [name, value] of Object.entries(write.attributes)) {
    fields.push([
      fieldOfAttribute(name),
      attributes[name] ?? null,
      value,
      sameValue(attributes[name], value),
    ]);
  }
  const business = (stored?.businessAttributes ?? {}) as Record<string, Record<string, unknown>>;
  for (const [group, values] of Object.entries(write.businessAttributes ?? {})) {
    for (const [name, value] of Object.entries(values)) {
      const now = business[group]?.[name];
      fields.push([`bm.${group}.${name}`, now ?? null, value, sameValue(now, value)]);
    }
  }
  for (const [kind, wanted] of Object.entries(write.contacts ?? {})) {
    const field = kind === "Owner" ? "owner" : `contacts.${kind}`;
    const now = (stored?.contacts?.[kind] ?? []).map((contact) => contact.id).sort();
    const ids = wanted.map((contact) => contact.id).sort();
    fields.push([field, stored ? now : null, ids, stored !== undefined && sameValue(now, ids)]);
  }
  if (write.classifications?.length) {
    const now = (stored?.classifications ?? []).map((c) => c.typeName).sort();
    fields.push([
      "classifications",
      stored ? now : null,
      write.classifications,
      holdsAll(now, write.classifications),
    ]);
  }
  if (write.labels?.length) {
    const now = [...stored?.labels ?? []].sort();
    fields.push(["labels", stored ? now : null, write.labels, holdsAll(now, write.labels)]);
  }
  if (write.collection !== undefined) {
    const now = stored?.collectionId ?? null;
    fields.push(["collection", now, write.collection, sameValue(now, write.collection)]);
  }
  return fields;
}

/**
 * The diff of a row that writes `write` onto `stored` (undefined: the entity does not exist, and the row
 * creates it). `action` says what the import does with an entity that exists (update it, or skip it).
 */
export function entityDiff(
  target: string,
  stored: AtlasEntity | undefined,
  write: EntityWrite,
  whenExists: "update" | "skip" = "update",
): UnitDiff {
  const read: Record<string, unknown> = { guid: stored?.guid ?? null };
  const changes: FieldChange[] = [];
  for (const [field, old, value, same] of readFields(stored, write)) {
    if (stored) read[field] = old;
    if (!same) changes.push({ field, old, new: value });
  }
  if (!stored) return { action: "create", target, changes, read };
  if (whenExists === "skip") {
    return {
      action: "skip",
      target,
      changes: [],
      read: { guid: stored.guid ?? null },
      reason: "exists already",
    };
  }
  return { action: changes.length > 0 ? "update" : "unchanged", target, changes, read };
}
