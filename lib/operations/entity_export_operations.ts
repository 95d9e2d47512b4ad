/**
 * `entity export`: the entities a search finds (keywords, type, classification, collection), written as
 * the CSV `entity bulk-update-csv` reads back (`lib/imports/entity_csv_export.ts`), so export → edit →
 * plan → apply needs no hand-made columns. Search pages give the GUIDs; the entities themselves are read
 * in chunks by GUID. Bounded by `--limit`; the summary says when more matched.
 *
 * @module
 */
import type { AtlasEntity, SearchFilter } from "../catalog/atlas_model.ts";
import { csvLine } from "../csv/reader.ts";
import { z } from "../deps/zod.ts";
import { exportColumns, exportRow } from "../imports/entity_csv_export.ts";
import { LOOKUP_CHUNK } from "../imports/entity_catalog_io.ts";
import { checkOutputFile, writeOutputFile } from "../files/output_files.ts";
import { defineOperation, type OperationContext, READ } from "./types.ts";

/** Entities one export writes at most: each is held in memory until the header is known. */
export const MAX_EXPORT_ENTITIES = 10_000;
const DEFAULT_EXPORT_LIMIT = 1000;
/** Search results that are glossary terms, not entities bulk-update-csv can write. */
const NOT_ENTITIES = new Set(["AtlasGlossaryTerm", "AtlasGlossary", "AtlasGlossaryCategory"]);

/** The attributes an exported row needs; the rest of an entity is dropped as soon as it is read. */
function slim(entity: AtlasEntity, attributes: readonly string[]): AtlasEntity {
  const kept: Record<string, unknown> = {};
  for (const name of ["qualifiedName", "displayName", "description", ...attributes]) {
    if (entity.attributes?.[name] !== undefined) kept[name] = entity.attributes[name];
  }
  return {
    guid: entity.guid,
    typeName: entity.typeName,
    attributes: kept,
    ...(entity.contacts ? { contacts: entity.contacts } : {}),
    ...(entity.businessAttributes ? { businessAttributes: entity.businessAttributes } : {}),
  };
}

interface ExportQuery {
  keywords: string;
  type?: string;
  classification?: string;
  collection?: string;
  attribute?: string[];
  limit: number;
}

/** The entities the query finds, at most `limit`, and whether more matched. */
async function exportedEntities(
  ctx: OperationContext,
  query: ExportQuery,
): Promise<{ entities: AtlasEntity[]; truncated: boolean }> {
  const catalog = ctx.catalog();
  const clauses: SearchFilter[] = [];
  if (query.type) clauses.push({ entityType: query.type });
  if (query.classification) clauses.push({ classification: query.classification });
  if (query.collection) clauses.push({ collectionId: query.collection });
  const filter = clauses.length === 0 ? undefined : clauses.length === 1 ? clauses[0] : { and: clauses };
  const guids: string[] = [];
  let truncated = false;
  for await (
    const item of catalog.search.queryAll({ keywords: query.keywords, filter }, {
      maxResults: query.limit + 1,
      signal: ctx.signal,
    })
  ) {
    if (typeof item.id !== "string" || NOT_ENTITIES.has(String(item.entityType))) continue;
    if (guids.length === query.limit) {
      truncated = true;
      break;
    }
    if (!guids.includes(item.id)) guids.push(item.id);
  }
  const entities: AtlasEntity[] = [];
  for (let i = 0; i < guids.length; i += LOOKUP_CHUNK) {
    const page = await catalog.entity.getMany(guids.slice(i, i + LOOKUP_CHUNK), {
      minExtInfo: true,
      ignoreRelationships: true,
      signal: ctx.signal,
    });
    for (const entity of page.entities ?? []) {
      if (entity.status !== "DELETED") entities.push(slim(entity, query.attribute ?? []));
    }
  }
  const order = new Map(guids.map((guid, i) => [guid, i]));
  entities.sort((a, b) => (order.get(a.guid ?? "") ?? 0) - (order.get(b.guid ?? "") ?? 0));
  return { entities, truncated };
}

export const exportEntities = defineOperation({
  id: "entity.export",
  group: "entity",
  command: "export",
  summary: "Write the entities a search finds as the CSV that bulk-update-csv reads back",
  description: "Columns: guid, typeName, qualifiedName, displayName, description, owner, attr.<name> for " +
    "each --attribute, and bm.<group>.<attribute> for every business attribute found. Edit cells, then " +
    "`entity bulk-update-csv --plan` shows what would change. Without --output-file the CSV is printed.",
  input: z.object({
    keywords: z.string().default("*").describe("Search keywords; * matches everything"),
    type: z.string().min(1).optional().describe("Only entities of this type, e.g. azure_sql_table"),
    classification: z.string().min(1).optional().describe("Only entities with this classification"),
    collection: z.string().min(1).optional().describe("Only entities in this collection (its short name)"),
    attribute: z.array(z.string().min(1)).optional().describe("Also export this attribute as attr.<name>"),
    limit: z.number().int().min(1).max(MAX_EXPORT_ENTITIES).default(DEFAULT_EXPORT_LIMIT).describe(
      `Most entities written (default ${DEFAULT_EXPORT_LIMIT}, at most ${MAX_EXPORT_ENTITIES})`,
    ),
    outputFile: z.string().min(1).optional().describe(
      "CSV file to write (an existing file only with overwrite)",
    ),
    overwrite: z.boolean().optional().describe("Replace the output file when it exists"),
  }),
  // It reads the catalog only, but may write a local file: not read-only (read-only mode refuses it).
  annotations: { ...READ, readOnly: false, writesLocalFile: ["outputFile"] },
  run: async (ctx, input) => {
    const overwrite = input.overwrite === true;
    // Refused before the catalog is read, not after minutes of paging.
    if (input.outputFile) await checkOutputFile(ctx, input.outputFile, "--output-file", { overwrite });
    const { entities, truncated } = await exportedEntities(ctx, input);
    const columns = exportColumns(entities, input.attribute ?? []);
    const records = entities.map((entity) => exportRow(entity, columns));
    // Through csvLine: cells a spreadsheet would run as formulas are guarded, and bulk-update-csv reads
    // them back as they were.
    const text = [columns, ...records].map((cells) => `${csvLine(cells)}\r\n`).join("");
    if (truncated) {
      ctx.logger.warn(
        `entity export: more than ${entities.length} entities matched; only the first ${input.limit} were ` +
          "written. Narrow the search or raise --limit.",
      );
    }
    if (!input.outputFile) return text;
    const written = await writeOutputFile(ctx, input.outputFile, "--output-file", (write) => write(text), {
      overwrite,
    });
    return {
      outputFile: input.outputFile,
      entities: entities.length,
      columns,
      truncated,
      bytes: written.bytes,
    };
  },
});
