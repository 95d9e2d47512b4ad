/**
 * The column lineage check (`column_mapping_check.ts`) for one lineage written by `lineage create` and the
 * `create_lineage` MCP tool: before the process is written, its type must have a `columnMapping` attribute
 * and every mapped column must be one of its end's columns. Every problem is listed in one refusal, naming
 * the mapping by its place in the list and the fix; nothing is written.
 *
 * @example
 * ```ts
 * import { checkSpecColumns } from "./lineage_spec_check.ts";
 * import { createLineageCache } from "../catalog/lineage_builder.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * await checkSpecColumns(catalog, { sources: [{ guid: "…" }], targets: [{ guid: "…" }] }, createLineageCache());
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import {
  DEFAULT_PROCESS_TYPE,
  type LineageBuilderCache,
  type LineageEnd,
  lookupEnd,
} from "../catalog/lineage_builder.ts";
import type { LineageSpec } from "../catalog/lineage_types.ts";
import { UsageError } from "../core/errors.ts";
import { ColumnLineageChecker, type ColumnPair } from "./column_mapping_check.ts";

/**
 * Refuses `spec` when its column mappings would not render. Ends are read through `cache` (shared with the
 * write that follows); a missing end, or a mapping naming a data set that is not one of the ends, is left
 * for the builder to report as it does.
 */
export async function checkSpecColumns(
  catalog: CatalogClient,
  spec: LineageSpec,
  cache: LineageBuilderCache,
  signal?: AbortSignal,
): Promise<void> {
  const mappings = spec.columnMappings ?? [];
  if (mappings.length === 0) return;
  const resolve = async (refs: LineageSpec["sources"]): Promise<LineageEnd[] | undefined> => {
    const lookups = await Promise.all(refs.map((ref) => lookupEnd(catalog, ref, cache, signal)));
    return lookups.every((l) => "end" in l) ? lookups.map((l) => (l as { end: LineageEnd }).end) : undefined;
  };
  const [sources, targets] = await Promise.all([resolve(spec.sources), resolve(spec.targets)]);
  if (!sources?.length || !targets?.length) return;
  const pick = (ends: LineageEnd[], wanted?: string) =>
    wanted ? ends.find((e) => e.guid === wanted || e.qualifiedName === wanted) : ends[0];

  const groups = new Map<string, { source: LineageEnd; target: LineageEnd; pairs: ColumnPair[] }>();
  mappings.forEach((mapping, i) => {
    const source = pick(sources, mapping.sourceDataset);
    const target = pick(targets, mapping.targetDataset);
    if (!source || !target) return;
    const key = `${source.guid}\u0000${target.guid}`;
    const group = groups.get(key) ?? { source, target, pairs: [] };
    // The pair's place in the list stands where a CSV row's line would.
    group.pairs.push({ source: mapping.source, target: mapping.target, line: i });
    groups.set(key, group);
  });

  const checker = new ColumnLineageChecker(catalog);
  await checker.load([...sources, ...targets].map((end) => end.guid), signal);
  const processType = spec.processType?.trim() || DEFAULT_PROCESS_TYPE;
  const problems = new Set<string>();
  for (const group of groups.values()) {
    const { issues } = await checker.check({ processType, ...group }, signal);
    for (const issue of issues) {
      const where = issue.field === "process_type" ? "processType" : `columnMapping[${issue.line}]`;
      problems.add(
        `${where} (${issue.field === "process_type" ? processType : issue.field}): ${issue.message}`,
      );
    }
  }
  if (problems.size > 0) {
    throw new UsageError(
      `The column lineage would not render in Purview; nothing was written:\n  ${[...problems].join("\n  ")}`,
      "Fix the mappings above and run it again; `govcat entity get --guid=<end>` shows an end's columns.",
    );
  }
}
