/**
 * get_entity's default answer: the curated view of an entity (issue 18: a table's raw Atlas record is
 * 1.8 KB, most of it bookkeeping). What an assistant uses, each list and text capped so the answer stays
 * under {@link ENTITY_SUMMARY_BOUND_BYTES}; `truncated` says when a cap left something out (view "full"
 * has it all).
 *
 * @module
 */
import type { AtlasEntity } from "../../catalog/types.ts";

/** Bound of get_entity's default (summary) answer, in bytes of JSON; the caps below keep it. */
export const ENTITY_SUMMARY_BOUND_BYTES = 16_000;
const SUMMARY_LIST_ITEMS = 20;
const SUMMARY_ATTRIBUTES = 15;
const SUMMARY_TEXT_CHARS = 200;
const SUMMARY_DESCRIPTION_CHARS = 1000;
/** Attributes the summary shows under their own names, or leaves out as noise. */
const SUMMARY_OWN = new Set(["name", "qualifiedName", "description", "owner", "userDescription"]);

/** The caps of one summary, and whether any of them left something out. */
class Caps {
  truncated = false;

  /** `text`, cut to `max` characters. */
  cut(text: string, max = SUMMARY_TEXT_CHARS): string {
    if (text.length <= max) return text;
    this.truncated = true;
    return `${text.slice(0, max - 1)}…`;
  }

  /** The first `max` of `items`. */
  few<T>(items: T[], max = SUMMARY_LIST_ITEMS): T[] {
    if (items.length > max) this.truncated = true;
    return items.slice(0, max);
  }
}

type RelatedHeader = { guid?: string; typeName?: string; name?: string };

const text = (value: unknown) => typeof value === "string" && value.length > 0 ? value : undefined;
const time = (value: unknown) => typeof value === "number" ? new Date(value).toISOString() : undefined;

/** The curated view of `entity`; `referred` holds the entities it refers to (for their names). */
export function entitySummary(
  entity: AtlasEntity,
  referred: Record<string, AtlasEntity> = {},
): { entity: Record<string, unknown>; truncated: boolean } {
  const caps = new Caps();
  const attributes = (entity.attributes ?? {}) as Record<string, unknown>;
  const extra = entity as {
    contacts?: Record<string, Array<{ id?: string; info?: string }>>;
    relationshipAttributes?: Record<string, unknown>;
    meanings?: unknown;
    labels?: string[];
    collectionId?: string;
    status?: string;
    createTime?: unknown;
    updateTime?: unknown;
  };
  const people = (kind: string) => {
    const list = (extra.contacts?.[kind] ?? []).map((c) => caps.cut(String(c.info || c.id || ""))).filter(
      Boolean,
    );
    return list.length > 0 ? caps.few(list) : undefined;
  };
  const relationships = extra.relationshipAttributes ?? {};
  const header = headerOf(referred, caps);
  const meanings = (relationships.meanings ?? extra.meanings ?? []) as unknown[];
  const related = relatedHeaders(relationships, header, caps);
  const description = text(attributes.userDescription) ?? text(attributes.description);
  const owner = text(attributes.owner);
  const summary: Record<string, unknown> = {
    guid: entity.guid,
    typeName: entity.typeName,
    name: text(attributes.name) === undefined ? undefined : caps.cut(String(attributes.name)),
    qualifiedName: text(attributes.qualifiedName) === undefined
      ? undefined
      : caps.cut(String(attributes.qualifiedName), 400),
    description: description === undefined ? undefined : caps.cut(description, SUMMARY_DESCRIPTION_CHARS),
    owner: owner === undefined ? undefined : caps.cut(owner),
    owners: people("Owner"),
    experts: people("Expert"),
    classifications: caps.few((entity.classifications ?? []).map((c) => caps.cut(String(c.typeName), 100))),
    labels: caps.few((extra.labels ?? []).map((l) => caps.cut(String(l), 100))),
    terms: caps.few(meanings.map(header).map(({ guid, name }) => ({ guid, ...(name ? { name } : {}) }))),
    collection: extra.collectionId,
    status: extra.status,
    createTime: time(extra.createTime),
    updateTime: time(extra.updateTime),
    attributes: otherAttributes(attributes, caps),
    ...(related ? { related } : {}),
  };
  for (const key of Object.keys(summary)) if (summary[key] === undefined) delete summary[key];
  return { entity: summary, truncated: caps.truncated };
}

/** A related entity's header, named by the entity itself when it was referred, else by its header. */
function headerOf(referred: Record<string, AtlasEntity>, caps: Caps): (value: unknown) => RelatedHeader {
  return (value) => {
    const h = value as {
      guid?: string;
      typeName?: string;
      displayText?: string;
      uniqueAttributes?: { qualifiedName?: string };
    };
    const name = text(referred[h.guid ?? ""]?.attributes?.name) ?? text(h.displayText) ??
      text(h.uniqueAttributes?.qualifiedName);
    return { guid: h.guid, typeName: h.typeName, ...(name ? { name: caps.cut(name, 100) } : {}) };
  };
}

/** The related entities by relation (terms aside), at most SUMMARY_LIST_ITEMS in all; undefined if none. */
function relatedHeaders(
  relationships: Record<string, unknown>,
  header: (value: unknown) => RelatedHeader,
  caps: Caps,
): Record<string, unknown[]> | undefined {
  const related: Record<string, unknown[]> = {};
  let count = 0;
  for (const [relation, value] of Object.entries(relationships)) {
    if (relation === "meanings" || value === null || value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => v && typeof v === "object");
    if (values.length === 0) continue;
    const room = SUMMARY_LIST_ITEMS - count;
    if (values.length > room) caps.truncated = true;
    if (room <= 0) continue;
    related[relation] = values.slice(0, room).map(header);
    count += related[relation].length;
  }
  return count > 0 ? related : undefined;
}

/** The plain attributes the summary does not show under their own names, the first SUMMARY_ATTRIBUTES. */
function otherAttributes(attributes: Record<string, unknown>, caps: Caps): Record<string, unknown> {
  const others = Object.entries(attributes).filter(([key, value]) =>
    !SUMMARY_OWN.has(key) && (typeof value === "number" || typeof value === "boolean" ||
      (typeof value === "string" && value.length > 0))
  );
  return Object.fromEntries(
    caps.few(others, SUMMARY_ATTRIBUTES).map((
      [key, value],
    ) => [key, typeof value === "string" ? caps.cut(value) : value]),
  );
}
