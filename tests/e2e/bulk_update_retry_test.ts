/**
 * Updates that the HTTP core sends again after a lost answer. A unified catalog term and a glossary term
 * are each updated with a PUT of the whole term (the stored term with the row's fields over it), which the
 * core repeats when the answer is lost after the service applied it. That is safe because a PUT of a whole
 * body is idempotent: the second write leaves the term exactly as the first did. Shown here against the
 * emulator for both: answers lost after the write, a term written once more for each, and each term
 * written several times holding what a term written once holds; the import counts each row once, as
 * updated.
 */
import assert from "node:assert/strict";
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import type { BulkImportSummary } from "../../lib/csv/engine.ts";
import type { BulkImport } from "../../lib/csv/types.ts";
import { runBulkImport } from "../../lib/csv/engine.ts";
import { templateNamed } from "../../lib/templates/template_choice.ts";
import type { FaultStep } from "../../lib/emulator/fault_settings.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";
import { batchTermsTemplate } from "../../lib/imports/glossary_csv.ts";
import { glossaryTermImport } from "../../lib/imports/glossary_term_import.ts";
import { UNIFIED_TERM_IMPORT_TEMPLATES, unifiedTermImport } from "../../lib/imports/unified_term_import.ts";
import { UnifiedCatalogClient } from "../../lib/catalog/unified_api.ts";
import { writeCounts } from "../support/fault_suite_kinds.ts";

const TERMS = 20;

interface Setup {
  emulator: RunningEmulator;
  catalog: CatalogClient;
  unified: UnifiedCatalogClient;
  dir: string;
}

async function withSetup(test: (setup: Setup) => Promise<void>): Promise<void> {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-update-retry-" });
  const config = loadConfig({
    CATALOG_ACCOUNT_NAME: "emulator",
    CATALOG_ENDPOINT: emulator.url,
    CATALOG_UNIFIED_ENDPOINT: emulator.url,
    CATALOG_RATE_LIMIT: "0",
    CATALOG_MAX_RETRIES: "3",
  });
  try {
    await test({
      emulator,
      catalog: CatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      unified: UnifiedCatalogClient.fromConfig(config, { retryBaseMs: 5 }),
      dir,
    });
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The first update of every other term (`path` followed by its id) is applied, then its answer cut off:
 * the HTTP core sends it again, and that write is answered. Each step names its term, so which writes
 * lose their answer does not depend on the order concurrent batches reach the emulator.
 */
function loseEveryOtherAnswer(emulator: RunningEmulator, path: string, ids: string[]): void {
  emulator.faults.script(
    ids.filter((_, i) => i % 2 === 0).map((id): FaultStep => ({
      method: "PUT",
      path: `${path}${id}`,
      drop: true,
      afterHandling: true,
    })),
  );
}

/**
 * The import counted each row once, as updated; each lost answer cost one more write; and every term written more than once holds what a term written once holds
 * (`own`: what a write sets, the fields the rows change aside).
 */
function assertResentSafely(
  summary: BulkImportSummary,
  writes: number[],
  stored: Array<Record<string, unknown>>,
  own: (term: Record<string, unknown>) => string,
): void {
  assert.equal(summary.updated, TERMS, "every row counted once, as updated");
  assert.equal(summary.created + summary.rejected + summary.recovered + summary.skipped, 0);
  assert.deepEqual(writes, writes.map((_, i) => i % 2 === 0 ? 2 : 1), "each lost answer cost one write");
  const once = own(stored[writes.indexOf(1)]);
  stored.forEach((term, i) => {
    if (writes[i] > 1) {
      assert.equal(own(term), once, `term ${i}, written ${writes[i]} times, as one write left it`);
    }
  });
}

/**
 * Imports `lines` with `plugin` while every other update to `path` loses its answer, and returns the
 * summary and how many times each of `ids` was written (`kind`'s write counts in the emulator).
 */
async function importLosingAnswers<T>(
  setup: Setup,
  kind: "uc-term" | "glossary-term",
  path: string,
  plugin: BulkImport<T>,
  lines: string[],
  ids: string[],
): Promise<{ summary: BulkImportSummary; writes: number[] }> {
  const { emulator, dir } = setup;
  const file = `${dir}/terms.csv`;
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  const before = await writeCounts(emulator, kind);
  loseEveryOtherAnswer(emulator, path, ids);
  const summary = await runBulkImport(plugin, { file, batchSize: 5, concurrency: 2, retryDelayMs: 1 });
  assert.equal(emulator.faults.pendingSteps().length, 0, "every scripted answer was given");
  const after = await writeCounts(emulator, kind);
  emulator.faults.reset();
  const key = (id: string) => id.toLowerCase();
  return { summary, writes: ids.map((id) => (after.get(key(id)) ?? 0) - (before.get(key(id)) ?? 0)) };
}

/** The fields as text, some left out (ids, times), some blanked (those each row sets to its own). */
function fieldsOf(term: Record<string, unknown>, omit: string[], blank: string[]): string {
  const fields = Object.entries(term).filter(([name]) => !omit.includes(name)).map((
    [name, value],
  ) => [name, blank.includes(name) ? "" : value]);
  return JSON.stringify(fields.sort(([a], [b]) => String(a).localeCompare(String(b))));
}

Deno.test("uc term updates re-sent after a lost answer leave each term as one write does, counted once", async () => {
  await withSetup(async (setup) => {
    const { unified } = setup;
    const domainId = (await unified.domains.create({ name: "Updates", type: "FunctionalUnit" })).id;
    const ids: string[] = [];
    for (let i = 0; i < TERMS; i++) {
      const term = await unified.terms.create({
        name: `Term ${i}`,
        description: `Old ${i}`,
        domain: domainId,
        status: "Draft",
      });
      ids.push(term.id);
    }
    const plugin = unifiedTermImport(unified, {
      domainId,
      template: templateNamed("uc-term-all-fields", UNIFIED_TERM_IMPORT_TEMPLATES),
      links: new Map(),
    });
    const lines = ["term_id,name,description", ...ids.map((_, i) => `,Term ${i},New ${i}`)];
    const { summary, writes } = await importLosingAnswers(setup, "uc-term", "/terms/", plugin, lines, ids);
    const stored = await Promise.all(ids.map((id) => unified.terms.get(id)));
    stored.forEach((term, i) => assert.equal(term.description, `New ${i}`));
    assertResentSafely(
      summary,
      writes,
      stored as unknown as Array<Record<string, unknown>>,
      (term) => fieldsOf(term, ["id", "systemData"], ["name", "description"]),
    );
  });
});

Deno.test("glossary term updates re-sent after a lost answer leave each term as one write does, counted once", async () => {
  await withSetup(async (setup) => {
    const { catalog } = setup;
    const glossaryGuid = (await catalog.glossary.create({ name: "Updates" })).guid!;
    const guids: string[] = [];
    for (let i = 0; i < TERMS; i++) {
      const term = await catalog.glossary.createTerm({
        name: `Term ${i}`,
        longDescription: `Old ${i}`,
        anchor: { glossaryGuid },
      });
      guids.push(term.guid!);
    }
    const plugin = glossaryTermImport(catalog, {
      glossaryGuid,
      mode: "batches",
      template: batchTermsTemplate(),
    });
    const lines = ["name,description", ...guids.map((_, i) => `Term ${i},New ${i}`)];
    const { summary, writes } = await importLosingAnswers(
      setup,
      "glossary-term",
      "/glossary/term/",
      plugin,
      lines,
      guids,
    );
    const stored = await Promise.all(guids.map((guid) => catalog.glossary.getTerm(guid)));
    stored.forEach((term, i) => assert.equal(term.longDescription, `New ${i}`));
    assertResentSafely(
      summary,
      writes,
      stored as unknown as Array<Record<string, unknown>>,
      // The anchor's relationship guid is each term's own, as its name is.
      (term) =>
        fieldsOf({ ...term, anchor: { ...term.anchor as object, relationGuid: "" } }, [
          "guid",
          "createTime",
          "updateTime",
          "version",
          "lastModifiedTS",
        ], ["name", "qualifiedName", "longDescription"]),
    );
  });
});
