/**
 * Filtering, ordering, paging and facets of the unified catalog's lists: the query parameters of the GET
 * lists (`skip`, `top`, `domainId`, `parentId`, `keyword`, `orderBy`, `status`) and the bodies of the
 * `query`, `facets` and `query/count` POSTs (`ids`, `domainIds`, `nameKeyword`, `owners`, `status`,
 * `multiStatus`, `acronyms`, `type`/`types`, `managedAttributes`, `orderby`, `skip`, `top`).
 *
 * @module
 */
import { invalidField } from "./errors.ts";
import { isRecord, type Json, type KindSpec, requireIdentity } from "./model.ts";

/** Items per page when the request names no `top`. */
export const DEFAULT_PAGE_SIZE = 100;
/** The largest `top` accepted. */
export const MAX_PAGE_SIZE = 1000;

/** One sort key. */
export interface OrderBy {
  field: string;
  direction: "asc" | "desc";
}

/** What a list, query, facets or count request selects. */
export interface Filter {
  ids?: string[];
  domainIds?: string[];
  parentId?: string;
  keyword?: string;
  nameKeyword?: string;
  /** Exact name (any case): the duplicate check of `query/count`. */
  exactName?: string;
  owners?: string[];
  statuses?: string[];
  acronyms?: string[];
  types?: string[];
  managedAttributes?: { field: string; operator: string; value: unknown }[];
}

/** A filter with paging and order. */
export interface ListRequest {
  filter: Filter;
  orderBy: OrderBy[];
  skip: number;
  top: number;
}

/** The status values a filter may name for this kind (SharedEntityStatus spellings, any case). */
function filterStatuses(spec: KindSpec): string[] {
  return (spec.statuses ?? []).map((status) =>
    status === status.toUpperCase() ? status.charAt(0) + status.slice(1).toLowerCase() : status
  );
}

function checkStatus(spec: KindSpec, target: string, value: unknown): string {
  const allowed = filterStatuses(spec);
  if (typeof value !== "string" || !allowed.some((s) => s.toLowerCase() === value.toLowerCase())) {
    throw invalidField(
      target,
      `${target} '${String(value)}' is not a valid value; allowed values: ${allowed.join(", ")}.`,
    );
  }
  return value.toLowerCase();
}

function integer(target: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  const number = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(number) || number < min || number > max) {
    throw invalidField(target, `${target} must be an integer from ${min} to ${max}; got '${String(value)}'.`);
  }
  return number;
}

/** Reads `orderBy` in the `name desc, createdAt` form of the GET lists. */
function parseOrderText(text: string | null): OrderBy[] {
  if (!text) return [];
  return text.split(",").map((part) => part.trim()).filter((part) => part !== "").map((part) => {
    const [field, direction = "asc"] = part.split(/\s+/);
    const dir = direction.toLowerCase();
    if (dir !== "asc" && dir !== "desc") {
      throw invalidField("orderBy", `orderBy direction '${direction}' must be asc or desc.`);
    }
    return { field, direction: dir };
  });
}

/** The paging, order and filter of a GET list. */
export function listRequestFromUrl(spec: KindSpec, url: URL): ListRequest {
  const q = url.searchParams;
  const filter: Filter = {};
  const domainId = q.get("domainId");
  if (domainId) filter.domainIds = [domainId.toLowerCase()];
  const parentId = q.get("parentId");
  if (parentId) filter.parentId = parentId.toLowerCase();
  const keyword = q.get("keyword");
  if (keyword) filter.keyword = keyword;
  const status = q.get("status");
  if (status) filter.statuses = [checkStatus(spec, "status", status)];
  return {
    filter,
    orderBy: parseOrderText(q.get("orderBy") ?? q.get("orderby")),
    ...pagingFromUrl(url),
  };
}

/** `skip` and `top` of the URL. */
export function pagingFromUrl(url: URL): { skip: number; top: number } {
  const q = url.searchParams;
  return {
    skip: integer("skip", q.get("skip") ?? q.get("$skip"), 0, 0, 1_000_000_000),
    top: integer("top", q.get("top") ?? q.get("$top"), DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

function stringList(target: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== "string")) {
    throw invalidField(target, `${target} must be an array of strings.`);
  }
  return list as string[];
}

/** The filter, order and paging of a `query`, `facets` or `query/count` body (URL `skip`/`top` win). */
export function listRequestFromBody(spec: KindSpec, body: unknown, url: URL): ListRequest {
  if (body !== undefined && !isRecord(body)) {
    throw invalidField("body", "The request body must be a JSON object.");
  }
  const b: Json = body ?? {};
  const filter: Filter = {};
  const ids = stringList("ids", b.ids);
  if (ids) filter.ids = ids.map((id) => id.toLowerCase());
  const domainIds = stringList("domainIds", b.domainIds ?? b.domainId);
  if (domainIds) filter.domainIds = domainIds.map((id) => id.toLowerCase());
  if (b.nameKeyword !== undefined && b.nameKeyword !== null) {
    if (typeof b.nameKeyword !== "string") throw invalidField("nameKeyword", "nameKeyword must be a string.");
    filter.nameKeyword = b.nameKeyword;
  }
  if (typeof b.keyword === "string") filter.keyword = b.keyword;
  const owners = stringList("owners", b.owners);
  if (owners) filter.owners = owners.map((owner, i) => requireIdentity(`owners[${i}]`, owner).toLowerCase());
  const owner = url.searchParams.get("dataProductOwner");
  if (owner) {
    filter.owners = [...(filter.owners ?? []), requireIdentity("dataProductOwner", owner).toLowerCase()];
  }
  const statuses: string[] = [];
  if (b.status !== undefined && b.status !== null) statuses.push(checkStatus(spec, "status", b.status));
  const multi = stringList("multiStatus", b.multiStatus);
  multi?.forEach((status, i) => statuses.push(checkStatus(spec, `multiStatus[${i}]`, status)));
  if (statuses.length > 0) filter.statuses = statuses;
  const acronyms = stringList("acronyms", b.acronyms);
  if (acronyms) filter.acronyms = acronyms.map((a) => a.toLowerCase());
  const types = stringList("types", b.types ?? b.type);
  if (types) filter.types = types.map((t) => t.toLowerCase());
  if (typeof b.parentId === "string") filter.parentId = b.parentId.toLowerCase();
  if (b.managedAttributes !== undefined && b.managedAttributes !== null) {
    if (!Array.isArray(b.managedAttributes)) {
      throw invalidField(
        "managedAttributes",
        "managedAttributes must be an array of {field, operator, value}.",
      );
    }
    filter.managedAttributes = b.managedAttributes.map((item, i) => {
      if (!isRecord(item) || typeof item.field !== "string") {
        throw invalidField(`managedAttributes[${i}].field`, `managedAttributes[${i}] needs a field name.`);
      }
      return { field: item.field, operator: String(item.operator ?? "eq"), value: item.value };
    });
  }
  let orderBy: OrderBy[] = [];
  if (b.orderby !== undefined || b.orderBy !== undefined) {
    const raw = b.orderby ?? b.orderBy;
    if (typeof raw === "string") orderBy = parseOrderText(raw);
    else if (Array.isArray(raw)) {
      orderBy = raw.map((item, i) => {
        if (!isRecord(item) || typeof item.field !== "string") {
          throw invalidField(
            `orderby[${i}].field`,
            `orderby[${i}] must be {"field": ..., "direction": "asc"|"desc"}.`,
          );
        }
        const direction = String(item.direction ?? "asc").toLowerCase();
        if (direction !== "asc" && direction !== "desc") {
          throw invalidField(`orderby[${i}].direction`, `orderby[${i}].direction must be asc or desc.`);
        }
        return { field: item.field, direction };
      });
    } else throw invalidField("orderby", "orderby must be an array of {field, direction}.");
  }
  const urlPaging = pagingFromUrl(url);
  const hasUrlSkip = url.searchParams.has("skip");
  const hasUrlTop = url.searchParams.has("top");
  return {
    filter,
    orderBy,
    skip: hasUrlSkip ? urlPaging.skip : integer("skip", b.skip, 0, 0, 1_000_000_000),
    top: hasUrlTop ? urlPaging.top : integer("top", b.top, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE),
  };
}

/** The display name of an entity (`name`, or `definition` for objectives and key results). */
export function nameOf(spec: KindSpec, entity: Json): string {
  return String(entity[spec.nameField] ?? "");
}

/** The domain id of an entity, lower case. */
export function domainOf(spec: KindSpec, entity: Json): string | undefined {
  const value = spec.domainField ? entity[spec.domainField] : undefined;
  return typeof value === "string" ? value.toLowerCase() : undefined;
}

/** The owner ids of an entity, lower case. */
export function ownersOf(entity: Json): string[] {
  const contacts = entity.contacts;
  if (!isRecord(contacts) || !Array.isArray(contacts.owner)) return [];
  return contacts.owner.filter(isRecord).map((person) => String(person.id).toLowerCase());
}

/** True when the entity passes the filter. */
export function matches(spec: KindSpec, entity: Json, filter: Filter): boolean {
  const id = String(entity.id).toLowerCase();
  const name = nameOf(spec, entity).toLowerCase();
  if (filter.ids && !filter.ids.includes(id)) return false;
  if (filter.domainIds && !filter.domainIds.includes(domainOf(spec, entity) ?? "")) return false;
  if (filter.parentId !== undefined && String(entity.parentId ?? "").toLowerCase() !== filter.parentId) {
    return false;
  }
  if (filter.keyword) {
    const keyword = filter.keyword.toLowerCase();
    const description = String(entity.description ?? "").toLowerCase();
    const acronyms = Array.isArray(entity.acronyms)
      ? entity.acronyms.map((a) => String(a).toLowerCase())
      : [];
    if (!name.includes(keyword) && !description.includes(keyword) && !acronyms.includes(keyword)) {
      return false;
    }
  }
  if (filter.nameKeyword && !name.includes(filter.nameKeyword.toLowerCase())) return false;
  if (filter.exactName !== undefined && name !== filter.exactName.toLowerCase()) return false;
  if (filter.owners && !ownersOf(entity).some((owner) => filter.owners!.includes(owner))) return false;
  if (filter.statuses && !filter.statuses.includes(String(entity.status ?? "").toLowerCase())) return false;
  if (filter.acronyms) {
    const acronyms = Array.isArray(entity.acronyms)
      ? entity.acronyms.map((a) => String(a).toLowerCase())
      : [];
    if (!acronyms.some((a) => filter.acronyms!.includes(a))) return false;
  }
  if (filter.types && !filter.types.includes(String(entity.type ?? "").toLowerCase())) return false;
  for (const condition of filter.managedAttributes ?? []) {
    const attributes = Array.isArray(entity.managedAttributes)
      ? entity.managedAttributes.filter(isRecord)
      : [];
    const found = attributes.find((a) => a.name === condition.field);
    const actual = found === undefined ? undefined : String(found.value ?? "");
    const wanted = String(condition.value ?? "");
    const op = condition.operator.toLowerCase();
    const ok = op === "ne" || op === "notequals"
      ? actual !== wanted
      : op === "contains"
      ? actual !== undefined && actual.toLowerCase().includes(wanted.toLowerCase())
      : op === "exists"
      ? actual !== undefined
      : actual === wanted;
    if (!ok) return false;
  }
  return true;
}

function sortValue(entity: Json, field: string): string {
  const systemData = isRecord(entity.systemData) ? entity.systemData : {};
  const value = entity[field] ?? systemData[field] ?? "";
  return String(value).toLowerCase();
}

/** Sorts in place by the order keys (stable: insertion order breaks ties). */
export function order(entities: Json[], orderBy: OrderBy[]): Json[] {
  if (orderBy.length === 0) return entities;
  return entities.sort((a, b) => {
    for (const key of orderBy) {
      const left = sortValue(a, key.field);
      const right = sortValue(b, key.field);
      if (left !== right) return (left < right ? -1 : 1) * (key.direction === "desc" ? -1 : 1);
    }
    return 0;
  });
}

/** A `{value, nextLink}` page; `nextLink` is the request URL with `skip` moved on, absent on the last page. */
export function page(items: Json[], request: { skip: number; top: number }, url: URL): Json {
  const value = items.slice(request.skip, request.skip + request.top);
  const body: Json = { value };
  if (request.skip + request.top < items.length) {
    const next = new URL(url.pathname, url.origin);
    for (const [key, v] of url.searchParams) {
      if (key !== "skip" && key !== "top") next.searchParams.append(key, v);
    }
    next.searchParams.set("skip", String(request.skip + request.top));
    next.searchParams.set("top", String(request.top));
    body.nextLink = next.toString();
  }
  return body;
}

/** A `{value, nextLink}` page driven by an opaque `$skipToken` (domains, policies). */
export function tokenPage(items: Json[], url: URL): Json {
  const q = url.searchParams;
  const token = q.get("$skipToken") ?? q.get("skipToken");
  let skip = 0;
  if (token) {
    let text = "";
    try {
      text = atob(token);
    } catch { /* reported below */ }
    const match = /^offset:(\d{1,9})$/.exec(text);
    if (!match) throw invalidField("$skipToken", `$skipToken '${token}' is not a token this API returned.`);
    skip = Number(match[1]);
  }
  const top = integer(
    "top",
    q.get("top") ?? q.get("$top") ?? q.get("maxpagesize"),
    DEFAULT_PAGE_SIZE,
    1,
    MAX_PAGE_SIZE,
  );
  const value = items.slice(skip, skip + top);
  const body: Json = { value };
  if (skip + top < items.length) {
    const next = new URL(url.pathname, url.origin);
    for (const [key, v] of q) {
      if (key !== "$skipToken" && key !== "skipToken") next.searchParams.append(key, v);
    }
    next.searchParams.set("$skipToken", btoa(`offset:${skip + top}`));
    body.nextLink = next.toString();
  }
  return body;
}

/** Default facet names of each kind when the request names none. */
const DEFAULT_FACETS: Record<string, string[]> = {
  term: ["status", "domainId", "owners", "acronyms"],
  dataProduct: ["status", "domainId", "type", "owners"],
  cde: ["status", "domainId", "dataType", "owners"],
  objective: ["status", "domainId", "owners"],
};

/** The facet names of a facets request: `facets: [{name}]` (or strings) in the body, `facets=` in the URL. */
export function facetNames(spec: KindSpec, body: unknown, url: URL): string[] {
  const names: string[] = [];
  if (isRecord(body) && body.facets !== undefined) {
    if (!Array.isArray(body.facets)) {
      throw invalidField("facets", 'facets must be an array such as [{"name": "status"}].');
    }
    body.facets.forEach((facet, i) => {
      const name = typeof facet === "string"
        ? facet
        : isRecord(facet)
        ? facet.name ?? facet.field
        : undefined;
      if (typeof name !== "string" || name === "") {
        throw invalidField(`facets[${i}].name`, `facets[${i}] needs a name such as "status".`);
      }
      names.push(name);
    });
  }
  for (const value of url.searchParams.getAll("facets")) {
    names.push(...value.split(",").map((n) => n.trim()).filter((n) => n !== ""));
  }
  return names.length > 0 ? names : DEFAULT_FACETS[spec.kind] ?? ["status", "domainId"];
}

function facetValues(spec: KindSpec, entity: Json, name: string): string[] {
  const lower = name.toLowerCase();
  if (lower === "domainid" || lower === "domain" || lower === "domainids") {
    const domain = spec.domainField ? entity[spec.domainField] : undefined;
    return typeof domain === "string" ? [domain] : [];
  }
  if (lower === "owners" || lower === "owner") return ownersOf(entity);
  if (lower === "types") return facetValues(spec, entity, "type");
  const value = entity[name] ?? entity[Object.keys(entity).find((k) => k.toLowerCase() === lower) ?? ""];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.filter((v) => typeof v !== "object").map(String);
  return typeof value === "object" ? [] : [String(value)];
}

/** `{"facets": {name: [{value, count}]}}` over the entities, most frequent value first. */
export function facets(spec: KindSpec, entities: Json[], names: string[]): Json {
  const result: Record<string, { value: string; count: number }[]> = {};
  for (const name of names) {
    const counts = new Map<string, number>();
    for (const entity of entities) {
      for (const value of new Set(facetValues(spec, entity, name))) {
        counts.set(value, (counts.get(value) ?? 0) + 1);
      }
    }
    result[name] = [...counts].map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
  return { facets: result };
}
