/**
 * `resource_link` content items (MCP 2025-06-18 and later) that a search or list tool adds to its result
 * after the JSON text: one per entity or glossary term found, pointing at the resource the server already
 * serves for it (`govcat://entity/{guid}`, `govcat://glossary/term/{guid}`, see `resources.ts`), so a
 * client can show or read each without another tool call. `structuredContent` is unchanged.
 *
 * Free of the MCP SDK, like the rest of the tool-call path (the stdio fast start runs it without the SDK).
 *
 * @module
 */

/** Links one result carries at most: a page of 1000 hits must not add 1000 items to the answer. */
export const MAX_RESOURCE_LINKS = 50;

/**
 * The first revision with `resource_link` content. An older client validates a result's content against
 * the kinds it knows, and would refuse the whole result for one it does not.
 */
export const RESOURCE_LINKS_SINCE = "2025-06-18";

/** Whether a session of `version` (undefined: not known) takes `resource_link` items. */
export function takesResourceLinks(version: string | undefined): boolean {
  return version !== undefined && version >= RESOURCE_LINKS_SINCE;
}

const JSON_TYPE = "application/json";

/** A `resource_link` content item (MCP `ResourceLink`). */
export interface ResourceLink {
  type: "resource_link";
  uri: string;
  /** What the link is called (an entity's or term's name; its GUID when it has none). */
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/**
 * The link to `govcat://entity/{guid}`; undefined for an entity without a GUID. Its type is `entity_type`
 * in search results, `type_name` in lineage nodes.
 */
export function entityLink(entity: {
  guid?: string;
  name?: string;
  qualified_name?: string;
  entity_type?: string;
  type_name?: string;
}): ResourceLink | undefined {
  if (!entity.guid) return undefined;
  const name = entity.name || entity.guid;
  const type = entity.entity_type || entity.type_name;
  return {
    type: "resource_link",
    uri: `govcat://entity/${encodeURIComponent(entity.guid)}`,
    name,
    ...(type ? { title: `${name} (${type})` } : {}),
    ...(entity.qualified_name ? { description: entity.qualified_name } : {}),
    mimeType: JSON_TYPE,
  };
}

/** The link to `govcat://glossary/term/{guid}`. */
export function termLink(term: { guid: string; name?: string; glossary_name?: string }): ResourceLink {
  const name = term.name || term.guid;
  return {
    type: "resource_link",
    uri: `govcat://glossary/term/${encodeURIComponent(term.guid)}`,
    name,
    title: term.glossary_name ? `${name} (glossary ${term.glossary_name})` : name,
    mimeType: JSON_TYPE,
  };
}

/** The links of `items`, in order, leaving out those `link` has none for. */
export function linksOf<T>(items: readonly T[] | undefined, link: (item: T) => ResourceLink | undefined) {
  return (items ?? []).flatMap((item) => {
    const made = link(item);
    return made ? [made] : [];
  });
}
