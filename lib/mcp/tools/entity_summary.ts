/**
 * get_entity's default answer: the curated view of an entity (a table's raw Atlas record is 1.8 KB,
 * most of it bookkeeping). What an assistant uses, each list and text capped so the answer stays
 * under {@link ENTITY_SUMMARY_BOUND_BYTES}; `truncated` says when a cap left something out (view "full"
 * has it all).
 *
 * The related entities (a table's columns, its schema) are paged rather than cut (a table may have
 * 800 columns): all of them, relation after relation in the record's order, form one sequence, of which an
 * answer holds {@link RELATED_PAGE_SIZE} from an offset, with the count of each relation and the offset of
 * the next page.
 *
 * @module
 */
import type { AtlasEntity } from "../../catalog/atlas_model.ts";

/** Bound of get_entity's default (summary) answer, in bytes of JSON; the caps below keep it. */
export const ENTITY_SUMMARY_BOUND_BYTES = 16_000;
const SUMMARY_LIST_ITEMS = 20;
/** Related entities in one summary: a page of the sequence of all of them. */
export const RELATED_PAGE_SIZE = SUMMARY_LIST_ITEMS;
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

/** Where a summary's page of related entities stands in the sequence of all of them. */
export interface RelatedPaging {
  /** Related entities per relationship attribute, in all (terms aside); the first 20 relations. */
  related_counts: Record<string, number>;
  /** More related entities follow this page. */
  has_more: boolean;
  /** The offset of the next page, when there is one. */
  next_related_offset?: number;
}

const text = (value: unknown) => typeof value === "string" && value.length > 0 ? value : undefined;
const time = (value: unknown) => typeof value === "number" ? new Date(value).toISOString() : undefined;

/**
 * The curated view of `entity`; `referred` holds the entities it refers to (for their names);
 * `relatedOffset`: how many related entities to skip (the page before, see the module note).
 */
export function entitySummary(
  entity: AtlasEntity,
  referred: Record<string, AtlasEntity> = {},
  relatedOffset = 0,
): { entity: Record<string, unknown>; truncated: boolean; paging: RelatedPaging } {
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
  const { related, paging } = relatedPage(relationships, header, caps, relatedOffset);
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
  return { entity: summary, truncated: caps.truncated, paging };
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

/**
 * The page of related entities from `offset` (terms aside), at most RELATED_PAGE_SIZE, by relation
 * (undefined when the page is empty), and where it stands.
 */
function relatedPage(
  relationships: Record<string, unknown>,
  header: (value: unknown) => RelatedHeader,
  caps: Caps,
  offset: number,
): { related?: Record<string, unknown[]>; paging: RelatedPaging } {
  const related: Record<string, unknown[]> = {};
  const counts: Record<string, number> = {};
  const end = offset + RELATED_PAGE_SIZE;
  let before = 0;
  let taken = 0;
  for (const [relation, value] of Object.entries(relationships)) {
    if (relation === "meanings" || value === null || value === undefined) continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => v && typeof v === "object");
    if (values.length === 0) continue;
    // A relation's name is the catalog's too: cut like any text, and counted for the first few only.
    const name = caps.cut(relation, 100);
    if (name in counts || Object.keys(counts).length < SUMMARY_LIST_ITEMS) {
      counts[name] = (counts[name] ?? 0) + values.length;
    } else caps.truncated = true;
    const page = values.slice(Math.max(0, offset - before), Math.max(0, end - before));
    before += values.length;
    if (page.length === 0) continue;
    related[name] = [...(related[name] ?? []), ...page.map(header)];
    taken += page.length;
  }
  const hasMore = offset + taken < before;
  if (hasMore) caps.truncated = true;
  return {
    related: taken > 0 ? related : undefined,
    paging: {
      related_counts: counts,
      has_more: hasMore,
      ...(hasMore ? { next_related_offset: offset + taken } : {}),
    },
  };
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
