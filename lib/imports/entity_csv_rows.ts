/**
 * How rows of the entity CSV templates become Atlas entities: the bulk import (typeName, qualifiedName,
 * displayName, description, owner, source, collection, `attr.*`, `bm.<group>.<attribute>`), the dataset
 * import (name, description, owner_email, source_system, tags, location, format), the classified create
 * (name, typeName, qualifiedName, classifications) and the table import (name, typeName, qualifiedName,
 * description), plus the changes of a bulk update row.
 *
 * @example
 * ```ts
 * import { entityFromRow } from "./entity_csv_rows.ts";
 * const item = entityFromRow("entity-table", {
 *   line: 2, cells: [], extras: {},
 *   values: { name: "orders", typeName: "DataSet", qualifiedName: "sql://db/orders" },
 * });
 * console.log(item.entity.attributes.name); // "orders"
 * ```
 *
 * @module
 */
import type { AtlasEntity } from "../catalog/atlas_model.ts";
import type { CheckedRow } from "../csv/types.ts";

/** One entity to write, and the collection it goes to (when the row names one). */
export interface EntityItem {
  entity: AtlasEntity & { typeName: string; attributes: Record<string, unknown> };
  collection?: string;
}

/** What an update row changes, and how it names its entity. */
export interface EntityChange {
  guid?: string;
  typeName?: string;
  qualifiedName?: string;
  attributes: Record<string, unknown>;
  businessAttributes?: Record<string, Record<string, unknown>>;
  contacts?: Record<string, Array<{ id: string }>>;
  collection?: string;
}

const text = (row: CheckedRow, column: string): string | undefined => {
  const value = row.values[column];
  return value === undefined || value === "" ? undefined : String(value);
};
const list = (row: CheckedRow, column: string): string[] => {
  const value = row.values[column];
  return Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];
};

/** An `attr.*` cell: JSON when it is an object or array, text otherwise (Atlas converts scalars). */
function attributeValue(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return value;
    }
  }
  return value;
}

/** Where a pattern column's values go: an attribute, a business attribute of a group, or nowhere. */
type ExtraTarget = { attribute: string; group?: string } | undefined;

/** Targets by header, as every row of a file has the same few (bounded: a server reads many files). */
const extraTargets = new Map<string, ExtraTarget>();

function extraTarget(header: string): ExtraTarget {
  if (extraTargets.has(header)) return extraTargets.get(header);
  const [prefix, ...rest] = header.trim().split(".");
  let target: ExtraTarget;
  if (prefix.toLowerCase() === "attr" && rest.length > 0) target = { attribute: rest.join(".") };
  else if (prefix.toLowerCase() === "bm" && rest.length >= 2) {
    const [group, ...attribute] = rest;
    target = { group, attribute: attribute.join(".") };
  }
  if (extraTargets.size >= 1000) extraTargets.clear();
  extraTargets.set(header, target);
  return target;
}

/**
 * The group `name` of `groups`, added when absent. Looked up as an own property: a group named like a
 * property every object has (`toString`) would otherwise find that function and write onto it.
 */
export function ownGroup(
  groups: Record<string, Record<string, unknown>>,
  name: string,
): Record<string, unknown> {
  return Object.hasOwn(groups, name) ? groups[name] : (groups[name] = {});
}

/** The `attr.*` and `bm.<group>.<attribute>` cells of a row. */
export function extraValues(row: CheckedRow): {
  attributes: Record<string, unknown>;
  businessAttributes?: Record<string, Record<string, unknown>>;
} {
  const attributes: Record<string, unknown> = {};
  let businessAttributes: Record<string, Record<string, unknown>> | undefined;
  for (const header in row.extras) {
    const value = row.extras[header];
    if (!Object.hasOwn(row.extras, header) || value === undefined || value === "") continue;
    const target = extraTarget(header);
    if (target?.group === undefined) {
      if (target) attributes[target.attribute] = attributeValue(value);
    } else {
      ownGroup(businessAttributes ??= {}, target.group)[target.attribute] = attributeValue(value);
    }
  }
  return businessAttributes ? { attributes, businessAttributes } : { attributes };
}

/** The common attribute columns of the bulk import and update templates, added to `attributes`. */
function commonAttributes(
  row: CheckedRow,
  attributes: Record<string, unknown> = {},
): Record<string, unknown> {
  const displayName = text(row, "displayName");
  if (displayName !== undefined) attributes.displayName = displayName;
  const description = text(row, "description");
  if (description !== undefined) attributes.description = description;
  // Asset types define no attribute for the source system; the user description keeps it visible.
  const source = text(row, "source");
  if (source !== undefined) attributes.userDescription = `Source: ${source}`;
  return attributes;
}

/** The last segment of a qualified name, as a default asset name (`mssql://srv/db/orders` → `orders`). */
export function nameFromQualifiedName(qualifiedName: string): string {
  const segments = qualifiedName.replace(/[/#]+$/, "").split(/[/#]/).filter((s) => s !== "");
  return segments.at(-1) ?? qualifiedName;
}

/** A stable qualified name for a dataset row without a location. */
export function datasetQualifiedName(sourceSystem: string | undefined, name: string): string {
  const system = (sourceSystem ?? "dataset").trim().toLowerCase().replace(/[^a-z0-9+.-]+/g, "-");
  return `${system || "dataset"}://${encodeURIComponent(name)}`;
}

/** `{ id }`, from an empty literal (see {@link entityFromRow}). */
function contact(id: string): { id: string } {
  const value = {} as { id: string };
  value.id = id;
  return value;
}

/** `{ typeName }`, from an empty literal (see {@link entityFromRow}). */
function classification(typeName: string): { typeName: string } {
  const value = {} as { typeName: string };
  value.typeName = typeName;
  return value;
}

/**
 * The entity a row of one of the creating templates describes.
 *
 * Its objects are built from empty literals and filled in (same keys, same order): V8 may allocate the
 * objects of a literal with properties straight into the old generation when many of them outlive a
 * young collection, as those of the batches in flight at the start of an import can. Dead there until a
 * full collection, they then keep every string they point to alive through each young collection, and a
 * million-row import grew by some 40 MB. Empty literals are never allocated that way.
 */
export function entityFromRow(template: string, row: CheckedRow): EntityItem {
  const extras = extraValues(row);
  const entity = {} as EntityItem["entity"];
  if (template === "entity-dataset") {
    const name = text(row, "name")!;
    const attributes: Record<string, unknown> = {};
    attributes.qualifiedName = text(row, "location") ??
      datasetQualifiedName(text(row, "source_system"), name);
    attributes.name = name;
    if (text(row, "description")) attributes.description = text(row, "description");
    if (text(row, "owner_email")) attributes.owner = text(row, "owner_email");
    // DataSet has no attributes of its own for these; the user description keeps them visible and searchable.
    const facts = [["source system", text(row, "source_system")], ["format", text(row, "format")]]
      .filter(([, value]) => value !== undefined).map(([label, value]) => `${label}: ${value}`);
    if (facts.length > 0) attributes.userDescription = facts.join("; ");
    entity.typeName = "DataSet";
    entity.attributes = attributes;
    const tags = list(row, "tags");
    if (tags.length > 0) entity.labels = tags;
  } else {
    const qualifiedName = text(row, "qualifiedName")!;
    const attributes: Record<string, unknown> = {};
    attributes.qualifiedName = qualifiedName;
    attributes.name = text(row, "name") ?? text(row, "displayName") ?? nameFromQualifiedName(qualifiedName);
    commonAttributes(row, attributes);
    // Assigned rather than spread: one object a row instead of three, same keys in the same order.
    for (const attribute in extras.attributes) {
      if (Object.hasOwn(extras.attributes, attribute)) attributes[attribute] = extras.attributes[attribute];
    }
    entity.typeName = text(row, "typeName")!;
    entity.attributes = attributes;
    const owners = list(row, "owner");
    // Purview keeps owners as contacts naming Entra ID objects.
    if (owners.length > 0) {
      const contacts = {} as NonNullable<AtlasEntity["contacts"]>;
      contacts.Owner = owners.map(contact);
      entity.contacts = contacts;
    }
    const classifications = list(row, "classifications");
    if (classifications.length > 0) entity.classifications = classifications.map(classification);
    if (extras.businessAttributes) entity.businessAttributes = extras.businessAttributes;
  }
  const item = {} as EntityItem;
  item.entity = entity;
  const collection = text(row, "collection");
  if (collection) item.collection = collection;
  return item;
}

/** The change a bulk update row asks for. */
export function changeFromRow(row: CheckedRow): EntityChange {
  const extras = extraValues(row);
  const change: EntityChange = {
    attributes: { ...commonAttributes(row), ...extras.attributes },
  };
  const owners = list(row, "owner");
  if (owners.length > 0) change.contacts = { Owner: owners.map((id) => ({ id })) };
  const guid = text(row, "guid");
  if (guid) change.guid = guid;
  else {
    change.typeName = text(row, "typeName");
    change.qualifiedName = text(row, "qualifiedName");
  }
  if (extras.businessAttributes) change.businessAttributes = extras.businessAttributes;
  const collection = text(row, "collection");
  if (collection) change.collection = collection;
  return change;
}
