/**
 * The term hierarchy of the unified catalog: a term with its ancestors and descendants, and the term trees
 * of a domain (draft terms left out unless asked for), each down to a maximum depth.
 *
 * @module
 */
import type { UnifiedCatalog } from "./catalog.ts";
import { type Json, KINDS } from "./model.ts";
import { domainOf } from "./query.ts";
import type { UnifiedStore } from "./store.ts";

/** A term with its ancestors (root first) and its descendants as a tree. */
export function termHierarchy(catalog: UnifiedCatalog, id: string, maxDepth: number): Json {
  const term = catalog.existing(KINDS.term, id);
  const ancestors: Json[] = [];
  const seen = new Set<string>([String(term.id)]);
  let parentId = term.parentId;
  while (typeof parentId === "string" && !seen.has(parentId.toLowerCase())) {
    seen.add(parentId.toLowerCase());
    const parent = catalog.store.get("term", parentId);
    if (!parent) break;
    ancestors.unshift(nodeOf(parent));
    parentId = parent.parentId;
  }
  return {
    ...nodeOf(term),
    domain: term.domain,
    ancestors,
    children: subtree(catalog.store, String(term.id), maxDepth, true, 1),
  };
}

/** The term trees of a domain: its root terms with their descendants. */
export function domainHierarchy(
  catalog: UnifiedCatalog,
  domainId: string,
  maxDepth: number,
  includeDraft: boolean,
): Json {
  const domain = catalog.existing(KINDS.domain, domainId);
  const terms = catalog.store.list("term").filter((t) => domainOf(KINDS.term, t) === String(domain.id));
  const roots = terms.filter((t) => !t.parentId).filter((t) => includeDraft || t.status !== "DRAFT");
  return {
    domainId: domain.id,
    value: roots.map((root) => ({
      ...nodeOf(root),
      children: subtree(catalog.store, String(root.id), maxDepth, includeDraft, 1),
    })),
  };
}

function subtree(
  store: UnifiedStore,
  id: string,
  maxDepth: number,
  includeDraft: boolean,
  depth: number,
): Json[] {
  if (depth > maxDepth) return [];
  return store.children("term", id)
    .filter((t) => includeDraft || t.status !== "DRAFT")
    .map((child) => ({
      ...nodeOf(child),
      isLeaf: store.children("term", String(child.id)).length === 0,
      children: subtree(store, String(child.id), maxDepth, includeDraft, depth + 1),
    }));
}

function nodeOf(term: Json): Json {
  return {
    id: term.id,
    name: term.name,
    status: term.status,
    ...(term.parentId ? { parentId: term.parentId } : {}),
  };
}
