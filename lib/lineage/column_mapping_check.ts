/**
 * Checks column lineage the way Purview needs it to draw it, before anything is sent: the process type
 * has a `columnMapping` attribute (its own or inherited; a type without one leaves the mapping unkept),
 * each column named exists in the schema of its end, and a mapping given whole names the process's own
 * ends as its `DatasetMapping` (its shape is checked offline by `column_mapping_shape.ts`). `lineage
 * validate`, the lineage imports and `lineage create` / `create_lineage` all run this one check.
 *
 * "The schema" of an end is the columns the catalog relates to it: a table's `columns` (azure_sql_table,
 * Synapse tables), or the `columns` of the `tabular_schema` a file or data set is tied to. An end with no
 * related columns has no schema to compare with (a data set the catalog knows only by name): its column
 * names are not checked, and the check says which ends those were.
 *
 * Reads are bounded: ends are read in bulk (`GET /entity/bulk`, {@link LOOKUP_CHUNK} at a time), schemas
 * likewise, and each end, schema and type definition once per run (one checker per run).
 *
 * @example
 * ```ts
 * import { ColumnLineageChecker } from "./column_mapping_check.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const checker = new ColumnLineageChecker(catalog);
 * // const { issues } = await checker.check({ processType: "Process", source, target, pairs: [...] });
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import type { LineageEnd } from "../catalog/lineage_builder.ts";
import { NotFoundError } from "../core/errors.ts";
import type { ColumnMappingEntry } from "./column_mapping_shape.ts";

/** Entities read in one bulk request. */
export const LOOKUP_CHUNK = 50;
/** Column names listed in a message at most. */
const MAX_LISTED_COLUMNS = 12;
/** Super types followed at most. */
const MAX_TYPE_DEPTH = 16;

/** Where a problem is: the CSV column (or payload field) it is about, and the file line when known. */
export type ColumnLineageField = "process_type" | "source_column" | "target_column" | "metadata";

/** One reason the column lineage would not render. */
export interface ColumnLineageIssue {
  field: ColumnLineageField;
  /** File line of the row it comes from, for CSV rows. */
  line?: number;
  /** What is wrong and the fix. */
  message: string;
}

/** A column pair, with the line it comes from. */
export interface ColumnPair {
  source: string;
  target: string;
  line?: number;
}

/** What one process would record as column lineage. */
export interface ColumnLineageRequest {
  processType: string;
  /** The row that named the process type, for CSV. */
  processTypeLine?: number;
  source: LineageEnd;
  target: LineageEnd;
  pairs: ColumnPair[];
  /** Mappings given whole (the CSV's `metadata.columnMapping`), with the line of each. */
  entries?: Array<{ entries: ColumnMappingEntry[]; line?: number }>;
}

/** What a check found. */
export interface ColumnLineageResult {
  issues: ColumnLineageIssue[];
  /** Ends whose catalog entry relates no columns, so their column names were not checked. */
  unchecked: string[];
}

type Ref = { guid?: string; displayText?: string; entityStatus?: string; relationshipStatus?: string };
const isRef = (value: unknown): value is Ref => typeof value === "object" && value !== null;
const refsOf = (value: unknown): Ref[] => (Array.isArray(value) ? value : value ? [value] : []).filter(isRef);
const active = (ref: Ref) => ref.entityStatus !== "DELETED" && ref.relationshipStatus !== "DELETED";

/** Reads the catalog for column lineage checks, each end, schema and type once per checker. */
export class ColumnLineageChecker {
  readonly #catalog: CatalogClient;
  /** Column names by end GUID (lower case); undefined when the end relates no columns. */
  readonly #columns = new Map<string, Promise<Set<string> | undefined>>();
  readonly #types = new Map<
    string,
    Promise<{ defined: boolean; attributes: Set<string>; isProcess: boolean }>
  >();

  constructor(catalog: CatalogClient) {
    this.#catalog = catalog;
  }

  /** Reads the columns of every end not read yet, in bulk requests made one after another. */
  load(guids: Iterable<string>, signal?: AbortSignal): Promise<void> {
    const wanted = [...new Set([...guids].map((g) => g.toLowerCase()))].filter((g) => !this.#columns.has(g));
    let previous: Promise<unknown> = Promise.resolve();
    const reads: Promise<unknown>[] = [];
    for (let i = 0; i < wanted.length; i += LOOKUP_CHUNK) {
      const chunk = wanted.slice(i, i + LOOKUP_CHUNK);
      // One request at a time however long the file; each end's promise is cached at once, so a check
      // asking for an end already on its way waits for that read instead of making another.
      const read = previous.catch(() => undefined).then(() => this.#readColumns(chunk, signal));
      previous = read;
      reads.push(read);
      for (const guid of chunk) {
        const one = read.then((all) => all.get(guid));
        this.#columns.set(guid, one);
        // A failed read must not stay cached: a later call may succeed.
        one.catch(() => this.#columns.delete(guid));
      }
    }
    return Promise.all(reads).then(() => undefined);
  }

  /** Every reason `request`'s column lineage would not render, and the ends that could not be checked. */
  async check(request: ColumnLineageRequest, signal?: AbortSignal): Promise<ColumnLineageResult> {
    const issues: ColumnLineageIssue[] = [];
    const typeIssue = await this.#processTypeIssue(request.processType, signal);
    if (typeIssue) issues.push({ field: "process_type", line: request.processTypeLine, message: typeIssue });
    await this.load([request.source.guid, request.target.guid], signal);
    const [sourceColumns, targetColumns] = await Promise.all([
      this.#columns.get(request.source.guid.toLowerCase()),
      this.#columns.get(request.target.guid.toLowerCase()),
    ]);
    const unchecked = [
      ...(sourceColumns ? [] : [request.source.guid]),
      ...(targetColumns ? [] : [request.target.guid]),
    ];
    const columnIssue = (field: ColumnLineageField, name: string, end: LineageEnd, known?: Set<string>) =>
      known && !known.has(name) ? notAColumn(field, name, end, known) : undefined;
    for (const pair of request.pairs) {
      for (
        const [field, name, end, known] of [
          ["source_column", pair.source, request.source, sourceColumns],
          ["target_column", pair.target, request.target, targetColumns],
        ] as const
      ) {
        const message = columnIssue(field, name, end, known);
        if (message) issues.push({ field, line: pair.line, message });
      }
    }
    for (const { entries, line } of request.entries ?? []) {
      entries.forEach((entry, i) => {
        const datasets = datasetIssue(entry, i, request.source, request.target);
        if (datasets) issues.push({ field: "metadata", line, message: datasets });
        entry.ColumnMapping.forEach((column, j) => {
          const where = `columnMapping[${i}].ColumnMapping[${j}]`;
          for (
            const [key, end, known] of [
              ["Source", request.source, sourceColumns],
              ["Sink", request.target, targetColumns],
            ] as const
          ) {
            const message = columnIssue("metadata", column[key], end, known);
            if (message) issues.push({ field: "metadata", line, message: `${where}.${key}: ${message}` });
          }
        });
      });
    }
    return { issues, unchecked };
  }

  /** Why `typeName` cannot hold column lineage, or undefined when it can. */
  async #processTypeIssue(typeName: string, signal?: AbortSignal): Promise<string | undefined> {
    const type = await this.#type(typeName, signal, 0);
    const fix = "use a process type with a columnMapping attribute (a type derived from Process with a " +
      'string attribute "columnMapping"; `govcat types createTypeDefs --payload-file=<file>` defines one), or ' +
      "record table-level lineage only (leave the columns empty)";
    if (!type.defined) return `process type ${typeName} is not defined in the catalog; ${fix}`;
    if (!type.attributes.has("columnMapping")) {
      return `process type ${typeName} has no columnMapping attribute${
        type.isProcess ? "" : " (nor is it derived from Process)"
      }, so Purview would not keep the column mapping and draws no column lineage; ${fix}`;
    }
    if (!type.isProcess) {
      return `process type ${typeName} is not derived from Process, so it records no lineage; ${fix}`;
    }
    return undefined;
  }

  #type(
    typeName: string,
    signal: AbortSignal | undefined,
    depth: number,
  ): Promise<{ defined: boolean; attributes: Set<string>; isProcess: boolean }> {
    let answer = this.#types.get(typeName);
    if (!answer) {
      answer = (async () => {
        const attributes = new Set<string>();
        if (depth > MAX_TYPE_DEPTH) return { defined: true, attributes, isProcess: false };
        try {
          const def = await this.#catalog.types.get("entity", { name: typeName }, signal);
          (def.attributeDefs ?? []).forEach((a) => a.name && attributes.add(a.name));
          let isProcess = typeName === "Process";
          for (const superType of def.superTypes ?? []) {
            const inherited = await this.#type(superType, signal, depth + 1);
            inherited.attributes.forEach((name) => attributes.add(name));
            isProcess ||= inherited.isProcess;
          }
          return { defined: true, attributes, isProcess };
        } catch (error) {
          if (error instanceof NotFoundError) return { defined: false, attributes, isProcess: false };
          throw error;
        }
      })();
      this.#types.set(typeName, answer);
      answer.catch(() => this.#types.delete(typeName));
    }
    return answer;
  }

  /** Column names of each end of `guids` (lower case), from its columns or its tabular schema's. */
  async #readColumns(guids: string[], signal?: AbortSignal): Promise<Map<string, Set<string> | undefined>> {
    const ends = await this.#readMany(guids, signal);
    const schemaOf = new Map<string, string>();
    for (const [guid, entity] of ends) {
      const schema = refsOf(entity?.relationshipAttributes?.tabular_schema).find(active);
      if (schema?.guid) schemaOf.set(guid, schema.guid.toLowerCase());
    }
    const schemas = schemaOf.size > 0
      ? await this.#readMany([...new Set(schemaOf.values())], signal)
      : new Map();
    const columnRefs = new Map<string, Ref[]>();
    for (const guid of guids) {
      const own = ends.get(guid);
      const schema = schemaOf.has(guid) ? schemas.get(schemaOf.get(guid)!) : undefined;
      const refs = [own, schema].flatMap((e) =>
        refsOf(e?.relationshipAttributes?.columns ?? e?.attributes?.columns).filter(active)
      );
      columnRefs.set(guid, refs);
    }
    // A related column shown without its name (a legacy reference) is read for it, in bulk too.
    const unnamed = [...columnRefs.values()].flat().flatMap((r) => !r.displayText && r.guid ? [r.guid] : []);
    const named = unnamed.length > 0 ? await this.#readMany(unnamed, signal) : new Map();
    const answer = new Map<string, Set<string> | undefined>();
    for (const [guid, refs] of columnRefs) {
      const names = refs.flatMap((ref) => {
        const name = ref.displayText ?? named.get(ref.guid?.toLowerCase() ?? "")?.attributes?.name;
        return typeof name === "string" && name !== "" ? [name] : [];
      });
      answer.set(guid, names.length > 0 ? new Set(names) : undefined);
    }
    return answer;
  }

  async #readMany(guids: string[], signal?: AbortSignal) {
    type Read = { attributes?: Record<string, unknown>; relationshipAttributes?: Record<string, unknown> };
    const found = new Map<string, Read>();
    for (let i = 0; i < guids.length; i += LOOKUP_CHUNK) {
      try {
        const result = await this.#catalog.entity.getMany(guids.slice(i, i + LOOKUP_CHUNK), {
          minExtInfo: true,
          signal,
        });
        for (const entity of result.entities ?? []) {
          if (entity.guid && entity.status !== "DELETED") found.set(entity.guid.toLowerCase(), entity);
        }
      } catch (error) {
        // Ends that are missing are reported by the end checks; here they simply have no columns.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    return found;
  }
}

function notAColumn(field: ColumnLineageField, name: string, end: LineageEnd, known: Set<string>): string {
  const role = field === "target_column" ? "target" : field === "source_column" ? "source" : "end";
  const sameButCase = [...known].find((column) => column.toLowerCase() === name.toLowerCase());
  const listed = [...known].slice(0, MAX_LISTED_COLUMNS).join(", ") +
    (known.size > MAX_LISTED_COLUMNS ? `, … (${known.size} in all)` : "");
  const fix = sameButCase
    ? `write it "${sameButCase}" (column names are matched exactly)`
    : `use one of its columns (${listed}), or add the column to its schema first`;
  return `"${name}" is not a column of the ${role} ${end.typeName} ${end.qualifiedName}, so Purview ` +
    `cannot draw it; ${fix}`;
}

function datasetIssue(entry: ColumnMappingEntry, i: number, source: LineageEnd, target: LineageEnd) {
  const wrong = [
    entry.DatasetMapping.Source !== source.qualifiedName &&
    `Source "${entry.DatasetMapping.Source}" is not the source's qualified name "${source.qualifiedName}"`,
    entry.DatasetMapping.Sink !== target.qualifiedName &&
    `Sink "${entry.DatasetMapping.Sink}" is not the target's qualified name "${target.qualifiedName}"`,
  ].filter(Boolean);
  if (wrong.length === 0) return undefined;
  return `columnMapping[${i}].DatasetMapping: ${wrong.join("; ")}; Purview matches the mapping to the ` +
    "process's inputs and outputs by qualified name — put those names there";
}
