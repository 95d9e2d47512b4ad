/**
 * The ends of lineage rows, read once per run and checked: the process's qualified name is made from the
 * ends' qualified names, so a row naming a missing or deleted entity is always rejected, never sent. With
 * entity validation (the default) each end must also be a data set — `DataSet` or a type derived from it,
 * what a process's inputs and outputs take — checked on the type definitions before anything is written;
 * without it such rows are sent and the catalog's answer decides. Ends and type answers are kept for the
 * run: memory grows with the number of distinct entities. These are the entity checks the lineage
 * `import`, `process` and `validate` share.
 *
 * @example
 * ```ts
 * import { LineageEndChecker } from "./lineage_end_checker.ts";
 * import type { CatalogClient } from "../catalog/client.ts";
 * declare const catalog: CatalogClient;
 * const checker = new LineageEndChecker(catalog, true);
 * const found = await checker.check("9f8e7d6c-0000-4000-8000-000000000001");
 * if ("problem" in found) console.log(found.problem.message); // e.g. "is deleted"
 * ```
 *
 * @module
 */
import type { CatalogClient } from "../catalog/client.ts";
import { createLineageCache, type LineageEnd, lookupEnd } from "../catalog/lineage_builder.ts";
import { NotFoundError } from "../core/errors.ts";
import type { LineageProcessItem } from "./lineage_csv_rows.ts";

/** Super types followed at most when deciding whether a type is a data set. */
const MAX_TYPE_DEPTH = 16;

/** Why an end cannot be used: it is missing, deleted, or (with validation) not a data set. */
export interface EndProblem {
  kind: "missing" | "deleted" | "not-a-data-set";
  message: string;
}

/** Reads lineage ends once per run and checks them; shares the lineage builder's cache. */
export class LineageEndChecker {
  readonly cache = createLineageCache();
  readonly #dataSets = new Map<string, Promise<boolean>>();

  constructor(readonly catalog: CatalogClient, readonly validate: boolean) {}

  /** The end with this GUID, or why rows cannot name it. Failures other than "not found" are thrown. */
  async check(guid: string, signal?: AbortSignal): Promise<{ end: LineageEnd } | { problem: EndProblem }> {
    const lookup = await lookupEnd(this.catalog, { guid }, this.cache, signal);
    if ("problem" in lookup) {
      const deleted = lookup.problem === "is deleted";
      return { problem: { kind: deleted ? "deleted" : "missing", message: lookup.problem } };
    }
    if (this.validate && !await this.#isDataSet(lookup.end.typeName, signal, 0)) {
      return {
        problem: {
          kind: "not-a-data-set",
          message:
            `is a ${lookup.end.typeName}, not a data set: lineage runs between data sets (DataSet or ` +
            "a type derived from it), such as tables, files and folders",
        },
      };
    }
    return lookup;
  }

  /** The ends of a process, or why its rows are rejected (every bad end named). */
  async ends(
    item: LineageProcessItem,
    signal?: AbortSignal,
  ): Promise<{ source: LineageEnd; target: LineageEnd } | { reason: string }> {
    const [source, target] = await Promise.all([
      this.check(item.sourceGuid, signal),
      this.check(item.targetGuid, signal),
    ]);
    if ("end" in source && "end" in target) return { source: source.end, target: target.end };
    const reasons: string[] = [];
    if ("problem" in source) reasons.push(`source_entity_guid ${item.sourceGuid} ${source.problem.message}`);
    if ("problem" in target) reasons.push(`target_entity_guid ${item.targetGuid} ${target.problem.message}`);
    return { reason: reasons.join("; ") };
  }

  #isDataSet(typeName: string, signal: AbortSignal | undefined, depth: number): Promise<boolean> {
    if (typeName === "DataSet") return Promise.resolve(true);
    if (depth > MAX_TYPE_DEPTH) return Promise.resolve(false);
    let answer = this.#dataSets.get(typeName);
    if (!answer) {
      answer = (async () => {
        try {
          const def = await this.catalog.types.get("entity", { name: typeName }, signal);
          for (const superType of def.superTypes ?? []) {
            if (await this.#isDataSet(superType, signal, depth + 1)) return true;
          }
          return false;
        } catch (error) {
          // A type the catalog cannot show is left to the catalog to judge when the process is written.
          if (error instanceof NotFoundError) return true;
          throw error;
        }
      })();
      this.#dataSets.set(typeName, answer);
      answer.catch(() => this.#dataSets.delete(typeName));
    }
    return answer;
  }
}
