/**
 * Operations of the `lineage` group: read the lineage of an entity (by GUID, or by type and qualified
 * name) and its next page of neighbours, analyse its impact and the path between two entities
 * (`lineage_impact_operations.ts`), record lineage between entities, and validate or import lineage
 * CSV files (`lineage_csv_operations.ts`).
 *
 * @module
 */
import {
  createLineage,
  createLineageCache,
  DEFAULT_PROCESS_TYPE,
  derivedProcessName,
  type LineageBuilderCache,
  type LineageEnd,
  lookupEnd,
  processQualifiedName,
} from "../catalog/lineage_builder.ts";
import type { AtlasObjectRef, LineageColumnMapping, LineageSpec } from "../catalog/lineage_types.ts";
import { z } from "../deps/zod.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";
import { confirmOverwrite, ifExistsField, overwriteConfirmField, overwriteHint } from "./if_exists.ts";
import { importLineageCsv, validateLineageCsv } from "./lineage_csv_operations.ts";
import { lineageImpact, lineagePath } from "./lineage_impact_operations.ts";
import { describeJson, isPlainObject, payloadError, readJsonFile } from "./payload_files.ts";
import { defineOperation, type Operation, type OperationContext, READ, UPSERT } from "./types.ts";
import { guidField, guidListField } from "./guid_fields.ts";
import { checkSpecColumns } from "../lineage/lineage_spec_check.ts";

const direction = z.enum(["INPUT", "OUTPUT", "BOTH"]).default("BOTH").describe(
  "INPUT (upstream: where the data comes from), OUTPUT (downstream: where it goes) or BOTH",
);

export const getLineage = defineOperation({
  id: "lineage.get",
  group: "lineage",
  command: "get",
  aliases: ["read"],
  summary: "Get the lineage of an entity, by GUID or by type name and qualified name",
  description: "One hop is data set → process → data set. The answer maps every entity in the graph by " +
    "GUID (guidEntityMap) and lists the edges (relations); widthCounts gives each node's full number of " +
    "neighbours, more than the answer holds when --width cut it (see lineage next-page).",
  input: z.object({
    guid: guidField("GUID of the entity").optional(),
    typeName: z.string().min(1).optional().describe("Type name, with --qualified-name instead of --guid"),
    qualifiedName: z.string().min(1).optional().describe("Qualified name, with --type-name"),
    depth: z.number().int().min(0).default(3).describe("Hops to walk"),
    direction,
    width: z.number().int().optional().describe("Neighbours each node expands at most (-1: no limit)"),
    includeParent: z.boolean().optional().describe("Also give each node's container (a column's table)"),
  }),
  annotations: READ,
  run: (ctx, input) => {
    const options = {
      depth: input.depth,
      direction: input.direction,
      width: input.width,
      includeParent: input.includeParent,
      signal: ctx.signal,
    };
    if (input.guid !== undefined && input.typeName === undefined && input.qualifiedName === undefined) {
      return ctx.catalog().lineage.get(input.guid, options);
    }
    if (input.guid === undefined && input.typeName !== undefined && input.qualifiedName !== undefined) {
      return ctx.catalog().lineage.getByUniqueAttribute(input.typeName, input.qualifiedName, options);
    }
    throw new UsageError(
      "lineage get: give --guid, or --type-name with --qualified-name (not both forms).",
      "E.g. govcat lineage get --guid=<guid> --direction=INPUT --depth=2",
    );
  },
});

export const getLineageNextPage = defineOperation({
  id: "lineage.next-page",
  group: "lineage",
  command: "next-page",
  aliases: ["readNext", "read-next"],
  summary: "Get one page of an entity's immediate lineage neighbours",
  description: "childrenCount in the answer is the number of neighbours in all; raise --offset by --limit " +
    "until it is reached.",
  input: z.object({
    guid: guidField("GUID of the entity"),
    direction,
    offset: z.number().int().min(0).optional().describe("Neighbours to skip"),
    limit: z.number().int().min(1).optional().describe("Neighbours in the page (all when absent)"),
  }),
  annotations: READ,
  run: (ctx, input) =>
    ctx.catalog().lineage.nextPage(input.guid, {
      direction: input.direction,
      offset: input.offset,
      limit: input.limit,
      signal: ctx.signal,
    }),
});

const columnMapping = z.object({
  source: z.string().min(1),
  target: z.string().min(1),
  sourceDataset: z.string().optional(),
  targetDataset: z.string().optional(),
});

const createInput = z.object({
  sourceGuid: guidListField("GUID of a source (upstream) entity").optional(),
  targetGuid: guidListField("GUID of a target (downstream) entity").optional(),
  processName: z.string().min(1).optional().describe(
    "Name of the process (derived from the ends when absent)",
  ),
  processType: z.string().min(1).optional().describe("Process entity type (default Process)"),
  description: z.string().optional().describe("Description of the process"),
  owner: z.string().optional().describe("Owner of the process"),
  confidenceScore: z.number().min(0).max(1).optional().describe(
    "0..1; stored when the process type defines confidenceScore",
  ),
  columnMapping: z.array(columnMapping).optional().describe(
    'Column lineage as JSON, e.g. [{"source":"OrderTotal","target":"total"}]; sourceDataset and ' +
      "targetDataset (GUID or qualified name) pick among several sources or targets",
  ),
  payloadFile: z.string().optional().describe(
    'JSON file: {"sources": [GUID | {guid} | {typeName, qualifiedName}], "targets": [...], "processName", ' +
      '"columnMappings": [...], ...}; options add to or override it',
  ),
  ifExists: ifExistsField,
  confirm: overwriteConfirmField,
});

export const createLineageOperation = defineOperation({
  id: "lineage.create",
  group: "lineage",
  command: "create",
  summary: "Record lineage: one process from source entities to target entities",
  description: "Every end is read first; a missing one fails the command before anything is written. " +
    "The process's qualified name is derived from its ends and name, so the same lineage always maps to " +
    "the same process. When that process exists already, nothing is changed and the command fails, " +
    "unless --if-exists=update: then its description, owner and column mapping are overwritten, once " +
    "confirmed (--confirm); it answers created: false.",
  input: createInput,
  // Repeating it creates nothing new. Not destructive by default; --if-exists=update overwrites, once
  // confirmed (if_exists.ts), and the MCP listing shows the operation as destructive.
  annotations: UPSERT,
  run: async (ctx, input) => {
    const { ifExists, confirm, ...fields } = input;
    const spec = await specFromInput(ctx, fields);
    const cache = createLineageCache();
    await checkSpecColumns(ctx.catalog(), spec, cache, ctx.signal);
    if (ifExists === "update") {
      await confirmOverwrite(
        ctx,
        `lineage create --if-exists=update ${spec.processName ?? ""}`.trim(),
        confirm,
      );
    } else {
      const existing = await existingProcess(ctx, spec, cache);
      if (existing) {
        throw new UsageError(
          `lineage process ${existing.qualifiedName} exists already (guid ${existing.guid}); nothing was ` +
            "changed.",
          `To overwrite its description, owner and column mapping, ${overwriteHint(ctx)}.`,
        );
      }
    }
    return createLineage(ctx.catalog(), spec, { signal: ctx.signal, cache });
  },
});

/**
 * The process `spec` would write, when it exists (not deleted). Its ends are read through `cache`, which
 * createLineage then reuses, so the check costs one read; an end that cannot be read is left for
 * createLineage to report (a 404 naming every missing end).
 */
async function existingProcess(
  ctx: OperationContext,
  spec: LineageSpec,
  cache: LineageBuilderCache,
): Promise<{ guid: string; qualifiedName: string } | undefined> {
  const resolve = async (refs: AtlasObjectRef[]): Promise<LineageEnd[] | undefined> => {
    const lookups = await Promise.all(refs.map((ref) => lookupEnd(ctx.catalog(), ref, cache, ctx.signal)));
    if (lookups.some((lookup) => "problem" in lookup)) return undefined;
    const ends = lookups.map((lookup) => (lookup as { end: LineageEnd }).end);
    return ends.filter((end, i) => ends.findIndex((other) => other.guid === end.guid) === i);
  };
  const [sources, targets] = [await resolve(spec.sources), await resolve(spec.targets)];
  if (!sources || !targets || sources.length === 0 || targets.length === 0) return undefined;
  const processName = spec.processName?.trim() || derivedProcessName(sources, targets);
  const qualifiedName = processQualifiedName(sources, targets, processName);
  const processType = spec.processType?.trim() || DEFAULT_PROCESS_TYPE;
  try {
    const { entity } = await ctx.catalog().entity.getByUniqueAttribute(processType, qualifiedName, {
      minExtInfo: true,
      ignoreRelationships: true,
      signal: ctx.signal,
    });
    return entity.status === "DELETED" || !entity.guid ? undefined : { guid: entity.guid, qualifiedName };
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function specFromInput(
  ctx: OperationContext,
  input: Omit<z.output<typeof createInput>, "ifExists" | "confirm">,
): Promise<LineageSpec> {
  const base = input.payloadFile
    ? specFromFile(await readJsonFile(ctx, input.payloadFile, "--payload-file"), input.payloadFile)
    : undefined;
  const spec: LineageSpec = {
    ...base,
    sources: [...(base?.sources ?? []), ...(input.sourceGuid ?? []).map((guid) => ({ guid }))],
    targets: [...(base?.targets ?? []), ...(input.targetGuid ?? []).map((guid) => ({ guid }))],
  };
  if (input.processName !== undefined) spec.processName = input.processName;
  if (input.processType !== undefined) spec.processType = input.processType;
  if (input.description !== undefined) spec.description = input.description;
  if (input.owner !== undefined) spec.owner = input.owner;
  if (input.confidenceScore !== undefined) spec.confidenceScore = input.confidenceScore;
  if (input.columnMapping !== undefined) spec.columnMappings = input.columnMapping as LineageColumnMapping[];
  const missing = [spec.sources.length === 0 && "--source-guid", spec.targets.length === 0 && "--target-guid"]
    .filter(Boolean);
  if (missing.length > 0) {
    throw new UsageError(
      `lineage create needs ${missing.join(" and ")}${
        input.payloadFile ? ` (or them in ${input.payloadFile})` : ""
      }.`,
      "E.g. govcat lineage create --source-guid=<guid> --target-guid=<guid> --process-name=nightly_load",
    );
  }
  return spec;
}

const SPEC_SHAPE = '{"sources": [...], "targets": [...], "processName": "…", "columnMappings": [...]}';

/** A lineage spec from a payload file; ends may be GUID strings, `{guid}` or `{typeName, qualifiedName}`. */
function specFromFile(value: unknown, file: string): LineageSpec {
  if (!isPlainObject(value)) throw payloadError(file, SPEC_SHAPE, describeJson(value));
  const ends = (key: "sources" | "targets"): AtlasObjectRef[] => {
    const list = value[key] ?? [];
    if (!Array.isArray(list)) throw payloadError(file, `${key} as an array`, describeJson(list));
    return list.map((end, i) => {
      if (typeof end === "string" && end.trim() !== "") return { guid: end.trim() };
      if (isPlainObject(end) && typeof end.guid === "string" && end.guid !== "") return { guid: end.guid };
      if (isPlainObject(end) && typeof end.typeName === "string" && typeof end.qualifiedName === "string") {
        return { typeName: end.typeName, qualifiedName: end.qualifiedName };
      }
      throw payloadError(
        file,
        `a GUID, {guid} or {typeName, qualifiedName} in ${key}`,
        `${describeJson(end)} at index ${i}`,
      );
    });
  };
  const text = (key: string): string | undefined => {
    const field = value[key];
    if (field === undefined || field === null) return undefined;
    if (typeof field !== "string") throw payloadError(file, `${key} as a string`, describeJson(field));
    return field;
  };
  const score = value.confidenceScore;
  if (score !== undefined && typeof score !== "number") {
    throw payloadError(file, "confidenceScore as a number from 0 to 1", describeJson(score));
  }
  const mappings = value.columnMappings ?? value.columnMapping;
  const parsedMappings = mappings === undefined ? undefined : z.array(columnMapping).safeParse(mappings);
  if (parsedMappings && !parsedMappings.success) {
    throw payloadError(file, 'columnMappings as [{"source": "…", "target": "…"}]', describeJson(mappings));
  }
  return {
    sources: ends("sources"),
    targets: ends("targets"),
    processName: text("processName"),
    processType: text("processType"),
    description: text("description"),
    owner: text("owner"),
    confidenceScore: score as number | undefined,
    columnMappings: parsedMappings?.data,
  };
}

/** Every operation of the `lineage` group. */
export const LINEAGE_OPERATIONS: Operation[] = [
  getLineage,
  getLineageNextPage,
  lineageImpact,
  lineagePath,
  createLineageOperation,
  validateLineageCsv,
  importLineageCsv,
];
