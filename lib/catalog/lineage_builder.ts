/**
 * Records lineage the way Purview keeps it: one `Process` entity whose `inputs` are the source data sets
 * and whose `outputs` are the targets, with column-level lineage as the process's `columnMapping` (a JSON
 * string of `[{DatasetMapping: {Source, Sink}, ColumnMapping: [{Source, Sink}]}]`).
 *
 * The process's qualified name is derived from the sorted qualified names of its ends and its name, and the
 * write is an upsert by that unique attribute: recording the same lineage again updates the one process
 * instead of adding another. Every end is read first, so a missing or deleted end fails the call (404,
 * naming each missing end) before anything is written.
 *
 * @example
 * ```ts
 * import { CatalogClient } from "./client.ts";
 * import { HttpClient } from "../http/client.ts";
 * import { createLineage } from "./lineage_builder.ts";
 * const catalog = new CatalogClient(new HttpClient({ baseUrls: { datamap: "http://127.0.0.1:8085" } }));
 * // const { processGuid, created } = await createLineage(catalog, {
 * //   sources: [{ guid: ordersGuid }],
 * //   targets: [{ typeName: "DataSet", qualifiedName: "dataset://analytics/orders_daily" }],
 * //   processName: "aggregate_orders_daily",
 * //   columnMappings: [{ source: "OrderTotal", target: "total" }],
 * // });
 * ```
 *
 * @module
 */
import { createHash } from "node:crypto";
import { NotFoundError, UsageError } from "../core/errors.ts";
import type { CatalogClient } from "./client.ts";
import type {
  AtlasObjectRef,
  CreateLineageResult,
  LineageColumnMapping,
  LineageSpec,
} from "./lineage_types.ts";
import type { AtlasEntity, AtlasEntityWithExtInfo } from "./atlas_model.ts";

export type { CreateLineageResult, LineageSpec } from "./lineage_types.ts";

/** The process type lineage is recorded with when the spec names none. */
export const DEFAULT_PROCESS_TYPE = "Process";

/** Attributes the builder owns; extra attributes never override them. */
const RESERVED_ATTRIBUTES = new Set(["qualifiedName", "name", "inputs", "outputs", "columnMapping"]);
/** Longest derived process name; names of many ends are cut here. */
const MAX_DERIVED_NAME = 200;

/** An end of the lineage as the catalog knows it. */
export interface LineageEnd {
  /** GUID of the data set entity. */
  guid: string;
  /** Its entity type name. */
  typeName: string;
  /** Its qualified name. */
  qualifiedName: string;
  /** Its name, used to derive a process name when none is given. */
  name?: string;
}

type EndLookup = { end: LineageEnd } | { problem: string };

/**
 * Reads shared across many {@link createLineage} calls (a CSV import): each end and each type definition
 * is read once.
 *
 * @internal
 */
export interface LineageBuilderCache {
  ends: Map<string, Promise<EndLookup>>;
  typeAttributes: Map<string, Promise<Set<string>>>;
}

/** A fresh, empty {@link LineageBuilderCache}. */
export function createLineageCache(): LineageBuilderCache {
  return { ends: new Map(), typeAttributes: new Map() };
}

/** Options of {@link createLineage}. */
export interface CreateLineageOptions {
  /** Aborts the requests. */
  signal?: AbortSignal;
  /** Reads shared across calls, so a CSV import reads each end and type once; see `createLineageCache`. */
  cache?: LineageBuilderCache;
}

/** Creates or updates the one process that records `spec`; see the module documentation. */
export async function createLineage(
  catalog: CatalogClient,
  spec: LineageSpec,
  options: CreateLineageOptions = {},
): Promise<CreateLineageResult> {
  checkSpec(spec);
  const cache = options.cache ?? createLineageCache();
  const [sources, targets] = await resolveEnds(catalog, spec, cache, options.signal);
  const processType = spec.processType?.trim() || DEFAULT_PROCESS_TYPE;
  const processName = spec.processName?.trim() || derivedProcessName(sources, targets);
  const qualifiedName = processQualifiedName(sources, targets, processName);
  const attributes: Record<string, unknown> = {
    qualifiedName,
    name: processName,
    inputs: sources.map((end) => ({ guid: end.guid, typeName: end.typeName })),
    outputs: targets.map((end) => ({ guid: end.guid, typeName: end.typeName })),
  };
  if (spec.description !== undefined) attributes.description = spec.description;
  if (spec.owner !== undefined) attributes.owner = spec.owner;
  if (spec.columnMappings?.length || spec.columnMappingEntries?.length) {
    attributes.columnMapping = columnMappingJson(
      spec.columnMappings ?? [],
      sources,
      targets,
      spec.columnMappingEntries,
    );
  }
  const extras: Record<string, unknown> = { ...spec.extraAttributes };
  if (spec.confidenceScore !== undefined) extras.confidenceScore = spec.confidenceScore;
  const attributesNotStored: string[] = [];
  if (Object.keys(extras).length > 0) {
    const defined = await typeAttributes(catalog, processType, cache, options.signal);
    for (const [name, value] of Object.entries(extras)) {
      if (defined.has(name) && !RESERVED_ATTRIBUTES.has(name)) attributes[name] = value;
      else attributesNotStored.push(name);
    }
  }

  // A placeholder guid makes the service report the process's guid even when nothing about it changed.
  const placeholder = "-1";
  const result = await catalog.entity.createOrUpdate(
    { guid: placeholder, typeName: processType, attributes },
    options.signal,
  );
  const isProcess = (h: { typeName?: string; attributes?: Record<string, unknown> }) =>
    h.typeName === processType && h.attributes?.qualifiedName === qualifiedName;
  const createdHeader = result.mutatedEntities?.CREATE?.find(isProcess);
  let processGuid = result.guidAssignments?.[placeholder] ?? createdHeader?.guid ??
    result.mutatedEntities?.UPDATE?.find(isProcess)?.guid;
  if (!processGuid) {
    const stored = await catalog.entity.getByUniqueAttribute(processType, qualifiedName, {
      minExtInfo: true,
      ignoreRelationships: true,
      signal: options.signal,
    });
    processGuid = stored.entity.guid!;
  }
  return { processGuid, qualifiedName, created: createdHeader !== undefined, attributesNotStored };
}

/**
 * The process's qualified name: readable from the process name, unique by a hash of the sorted source and
 * target qualified names and the name, so the same lineage always maps to the same process.
 */
export function processQualifiedName(
  sources: LineageEnd[],
  targets: LineageEnd[],
  processName: string,
): string {
  const key = JSON.stringify({
    sources: sources.map((e) => e.qualifiedName).sort(),
    targets: targets.map((e) => e.qualifiedName).sort(),
    process: processName,
  });
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 24);
  const slug = processName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `govcat://lineage/${slug || "process"}/${hash}`;
}

/**
 * Reads every end (through the cache) and reports all problems together, as one 404, before anything is
 * written.
 */
async function resolveEnds(
  catalog: CatalogClient,
  spec: LineageSpec,
  cache: LineageBuilderCache,
  signal?: AbortSignal,
): Promise<[LineageEnd[], LineageEnd[]]> {
  const roles = [["source", spec.sources], ["target", spec.targets]] as const;
  const lookups = await Promise.all(
    roles.map(([, refs]) => Promise.all(refs.map((ref) => lookupEnd(catalog, ref, cache, signal)))),
  );
  const problems = roles.flatMap(([role, refs], r) =>
    lookups[r].flatMap((lookup, i) =>
      "problem" in lookup ? [`${role} ${describeRef(refs[i])} ${lookup.problem}`] : []
    )
  );
  if (problems.length > 0) {
    throw new NotFoundError({
      status: 404,
      message: `Cannot record lineage: ${problems.join("; ")}. Nothing was written.`,
      hint: "Check the GUIDs or qualified names; search_entities (or `govcat search query`) finds entities.",
    });
  }
  // An end named twice (by GUID and by qualified name, say) is one input or output.
  const ends = (r: number) => {
    const found = lookups[r].map((lookup) => (lookup as { end: LineageEnd }).end);
    return found.filter((end, i) => found.findIndex((other) => other.guid === end.guid) === i);
  };
  return [ends(0), ends(1)];
}

/** Reads an end once per cache; a 404 or a deleted entity is a problem, any other failure is thrown. */
export function lookupEnd(
  catalog: CatalogClient,
  ref: AtlasObjectRef,
  cache: LineageBuilderCache,
  signal?: AbortSignal,
): Promise<EndLookup> {
  const key = "guid" in ref ? `guid:${ref.guid}` : `qn:${ref.typeName}\u0000${ref.qualifiedName}`;
  let lookup = cache.ends.get(key);
  if (!lookup) {
    lookup = readEnd(catalog, ref, signal);
    cache.ends.set(key, lookup);
    // A failure other than "not found" must not stay cached: a later call may succeed.
    lookup.catch(() => cache.ends.delete(key));
  }
  return lookup;
}

async function readEnd(
  catalog: CatalogClient,
  ref: AtlasObjectRef,
  signal?: AbortSignal,
): Promise<EndLookup> {
  const read = { minExtInfo: true, ignoreRelationships: true, signal };
  let found: AtlasEntityWithExtInfo;
  try {
    found = "guid" in ref
      ? await catalog.entity.get(ref.guid, read)
      : await catalog.entity.getByUniqueAttribute(ref.typeName, ref.qualifiedName, read);
  } catch (error) {
    if (error instanceof NotFoundError) return { problem: "not found (404)" };
    throw error;
  }
  const entity: AtlasEntity = found.entity;
  if (entity.status === "DELETED") return { problem: "is deleted" };
  const qualifiedName = entity.attributes?.qualifiedName;
  const name = entity.attributes?.name;
  return {
    end: {
      guid: entity.guid!,
      typeName: entity.typeName,
      qualifiedName: typeof qualifiedName === "string" ? qualifiedName : entity.guid!,
      name: typeof name === "string" && name !== "" ? name : undefined,
    },
  };
}

function describeRef(ref: AtlasObjectRef): string {
  return "guid" in ref ? ref.guid : `${ref.typeName} "${ref.qualifiedName}"`;
}

function checkSpec(spec: LineageSpec): void {
  if (!spec.sources?.length) throw new UsageError("Lineage needs at least one source entity.");
  if (!spec.targets?.length) throw new UsageError("Lineage needs at least one target entity.");
  for (const ref of [...spec.sources, ...spec.targets]) {
    const valid = "guid" in ref
      ? typeof ref.guid === "string" && ref.guid.trim() !== ""
      : typeof ref.typeName === "string" && ref.typeName !== "" && typeof ref.qualifiedName === "string" &&
        ref.qualifiedName !== "";
    if (!valid) {
      throw new UsageError(
        `Lineage end ${JSON.stringify(ref)} names no entity: give {guid} or {typeName, qualifiedName}.`,
      );
    }
  }
  const score = spec.confidenceScore;
  if (score !== undefined && !(Number.isFinite(score) && score >= 0 && score <= 1)) {
    throw new UsageError(`confidenceScore must be a number from 0 to 1, got ${score}.`);
  }
}

/** The name of a process recorded without one: its ends' names, sources then targets. */
export function derivedProcessName(sources: LineageEnd[], targets: LineageEnd[]): string {
  const names = (ends: LineageEnd[]) => ends.map((e) => e.name ?? e.qualifiedName).join(", ");
  return `${names(sources)} -> ${names(targets)}`.slice(0, MAX_DERIVED_NAME);
}

/**
 * Purview's `columnMapping`: one entry per (source data set, target data set) with its column pairs; the
 * pairs of `entries` (mappings given in that shape already) are merged in by their data sets.
 */
export function columnMappingJson(
  mappings: LineageColumnMapping[],
  sources: LineageEnd[],
  targets: LineageEnd[],
  entries: LineageSpec["columnMappingEntries"] = [],
): string {
  const pick = (ends: LineageEnd[], wanted: string | undefined, role: string): LineageEnd => {
    if (wanted === undefined || wanted === "") return ends[0];
    const end = ends.find((e) => e.guid === wanted || e.qualifiedName === wanted);
    if (!end) {
      throw new UsageError(
        `Column mapping names ${role} data set "${wanted}", which is not one of the lineage's ${role}s.`,
        `Give the GUID or qualified name of one of the ${role}s, or leave it out for the first one.`,
      );
    }
    return end;
  };
  const byDatasets = new Map<
    string,
    {
      DatasetMapping: { Source: string; Sink: string };
      ColumnMapping: Array<{ Source: string; Sink: string }>;
    }
  >();
  for (const mapping of mappings) {
    if (!mapping.source?.trim() || !mapping.target?.trim()) {
      throw new UsageError(
        `Column mapping ${JSON.stringify(mapping)} needs both a source and a target column.`,
      );
    }
    const source = pick(sources, mapping.sourceDataset, "source");
    const target = pick(targets, mapping.targetDataset, "target");
    const key = `${source.qualifiedName}\u0000${target.qualifiedName}`;
    const entry = byDatasets.get(key) ??
      { DatasetMapping: { Source: source.qualifiedName, Sink: target.qualifiedName }, ColumnMapping: [] };
    const column = { Source: mapping.source.trim(), Sink: mapping.target.trim() };
    if (!entry.ColumnMapping.some((c) => c.Source === column.Source && c.Sink === column.Sink)) {
      entry.ColumnMapping.push(column);
    }
    byDatasets.set(key, entry);
  }
  for (const given of entries) {
    const { Source, Sink } = given.DatasetMapping;
    const key = `${Source}\u0000${Sink}`;
    const entry = byDatasets.get(key) ?? { DatasetMapping: { Source, Sink }, ColumnMapping: [] };
    for (const column of given.ColumnMapping) {
      if (!entry.ColumnMapping.some((c) => c.Source === column.Source && c.Sink === column.Sink)) {
        entry.ColumnMapping.push({ Source: column.Source, Sink: column.Sink });
      }
    }
    byDatasets.set(key, entry);
  }
  return JSON.stringify([...byDatasets.values()]);
}

/** Names of every attribute the entity type defines, its super types' included (read once per cache). */
function typeAttributes(
  catalog: CatalogClient,
  typeName: string,
  cache: LineageBuilderCache,
  signal?: AbortSignal,
): Promise<Set<string>> {
  let names = cache.typeAttributes.get(typeName);
  if (!names) {
    names = (async () => {
      const def = await catalog.types.get("entity", { name: typeName }, signal);
      const all = new Set((def.attributeDefs ?? []).map((a) => a.name).filter((n): n is string => !!n));
      const inherited = await Promise.all(
        (def.superTypes ?? []).map((superType) => typeAttributes(catalog, superType, cache, signal)),
      );
      for (const set of inherited) set.forEach((name) => all.add(name));
      return all;
    })();
    cache.typeAttributes.set(typeName, names);
  }
  return names;
}
