/**
 * `collections export --output-file`: every collection as a CSV row, in hierarchy order (each collection
 * after its parent, the root first), written with the CSV writer and guarded against CSV injection, through
 * a temporary file; an existing file is replaced only with `--overwrite`.
 *
 * @module
 */
import type { Collection } from "../catalog/collections_types.ts";
import { stringifyCsv } from "../deps/csv.ts";
import { guardCell } from "../csv/cell_guard.ts";
import { EXPORT_COLUMNS } from "../templates/csv/collections_templates.ts";
import { writeOutputFile } from "../files/output_files.ts";
import type { CatalogClient } from "../catalog/client.ts";
import type { FileAccess } from "../files/file_access.ts";

/** What an export needs of the operation that runs it. */
export interface ExportContext {
  catalog(): CatalogClient;
  signal?: AbortSignal;
  files?: FileAccess;
}

/** Which optional column groups to write, and whether an existing file may be replaced. */
export interface ExportOptions {
  hierarchy: boolean;
  metadata: boolean;
  /** Replace `file` when it exists; otherwise an existing file is refused and left as it is. */
  overwrite?: boolean;
}

/** What the export wrote. */
export interface ExportSummary {
  outputFile: string;
  rows: number;
  columns: string[];
}

/**
 * Reads every collection and writes them to `file`, whole or not at all (a temporary file renamed into
 * place). The path is checked (the MCP server's file root, an existing file without `overwrite`) before
 * anything is listed.
 */
export async function exportCollections(
  ctx: ExportContext,
  file: string,
  options: ExportOptions,
): Promise<ExportSummary> {
  const columns: string[] = [
    ...EXPORT_COLUMNS.base,
    ...(options.hierarchy ? EXPORT_COLUMNS.hierarchy : []),
    ...(options.metadata ? EXPORT_COLUMNS.metadata : []),
  ];
  let rows = 0;
  await writeOutputFile(ctx, file, "--output-file", async (write) => {
    const collections = await ctx.catalog().collections.listAll({ signal: ctx.signal });
    const ordered = hierarchyOrder(collections);
    const pathOf = pathsByName(collections);
    const records = ordered.map((collection) => {
      const name = collection.name ?? "";
      const system = collection.systemData ?? {};
      const cells: Record<string, string> = {
        collection_name: name,
        friendly_name: collection.friendlyName ?? "",
        parent_collection: collection.parentCollection?.referenceName ?? "",
        path: pathOf(name),
        description: collection.description ?? "",
        provisioning_state: String(collection.collectionProvisioningState ?? ""),
        created_at: text(system.createdAt),
        created_by: text(system.createdBy),
        last_modified_at: text(system.lastModifiedAt),
        last_modified_by: text(system.lastModifiedBy),
      };
      return columns.map((column) => guardCell(cells[column]));
    });
    rows = records.length;
    await write(stringifyCsv(records, { header: true, columns }));
  }, { overwrite: options.overwrite === true });
  return { outputFile: file, rows, columns };
}

function text(value: unknown): string {
  return value === undefined || value === null ? "" : String(value);
}

/**
 * Collections depth first from the roots, children in the order the service listed them. A collection
 * whose parent is not in the list (a narrow role sees part of the tree) starts a tree of its own.
 */
function hierarchyOrder(collections: Collection[]): Collection[] {
  const names = new Set(collections.map((c) => c.name?.toLowerCase()));
  const children = new Map<string, Collection[]>();
  const roots: Collection[] = [];
  for (const collection of collections) {
    const parent = collection.parentCollection?.referenceName?.toLowerCase();
    if (parent && names.has(parent)) {
      children.set(parent, [...children.get(parent) ?? [], collection]);
    } else roots.push(collection);
  }
  const ordered: Collection[] = [];
  const visited = new Set<string>();
  const visit = (collection: Collection) => {
    const key = collection.name?.toLowerCase() ?? "";
    if (visited.has(key)) return;
    visited.add(key);
    ordered.push(collection);
    for (const child of children.get(key) ?? []) visit(child);
  };
  roots.forEach(visit);
  // Collections in a parent cycle (a broken listing) are still written, after the rest.
  collections.forEach(visit);
  return ordered;
}

/** The path of names from the top of the listed tree to each collection, joined by `/`. */
function pathsByName(collections: Collection[]): (name: string) => string {
  const parentOf = new Map(
    collections.map((c) => [c.name?.toLowerCase() ?? "", c.parentCollection?.referenceName?.toLowerCase()]),
  );
  const displayName = new Map(collections.map((c) => [c.name?.toLowerCase() ?? "", c.name ?? ""]));
  return (name) => {
    const chain: string[] = [];
    const seen = new Set<string>();
    for (let key: string | undefined = name.toLowerCase(); key && !seen.has(key); key = parentOf.get(key)) {
      seen.add(key);
      chain.unshift(displayName.get(key) ?? key);
    }
    return chain.join("/");
  };
}
