/**
 * Updates that the HTTP core sends again after a lost answer. A unified catalog term is updated with a PUT of
 * its whole body (the stored term with the row's fields over it), which the core repeats when the answer
 * is lost after the service applied it. That is safe because a PUT of a whole body is idempotent: the
 * second write leaves the term exactly as the first did. Shown here against the emulator: answers lost
 * after the write, a term written once more for each, and each term written several times holding what a
 * term written once holds; the import counts each row once, as updated.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../lib/config.ts";
import { runBulkImport } from "../../lib/csv/engine.ts";
import { templateNamed } from "../../lib/csv/template_choice.ts";
import { startEmulator } from "../../lib/emulator/mod.ts";
import type { FaultStep } from "../../lib/emulator/fault_settings.ts";
import { UC_TERM_IMPORT_TEMPLATES, ucTermImport } from "../../lib/operations/uc_term_import.ts";
import { UnifiedCatalogClient } from "../../lib/unified/client.ts";
import { writeCounts } from "../support/fault_suite_kinds.ts";

const TERMS = 20;

/** What a term holds that a write sets (not its id, nor when it was changed). */
const written = (term: Record<string, unknown>) => {
  const { id: _id, systemData: _systemData, ...fields } = term;
  return JSON.stringify(Object.entries(fields).sort(([a], [b]) => a.localeCompare(b)));
};

Deno.test("uc term updates re-sent after a lost answer leave each term as one write does, counted once", async () => {
  const emulator = await startEmulator({ seed: false });
  const dir = await Deno.makeTempDir({ prefix: "govcat-update-retry-" });
  try {
    const unified = UnifiedCatalogClient.fromConfig(
      loadConfig({
        CATALOG_ACCOUNT_NAME: "emulator",
        CATALOG_ENDPOINT: emulator.url,
        CATALOG_UNIFIED_ENDPOINT: emulator.url,
        CATALOG_RATE_LIMIT: "0",
        CATALOG_MAX_RETRIES: "3",
      }),
      { retryBaseMs: 5 },
    );
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
    const path = `${dir}/terms.csv`;
    const lines = ["term_id,name,description"];
    for (let i = 0; i < TERMS; i++) lines.push(`,Term ${i},New ${i}`);
    await Deno.writeTextFile(path, lines.join("\n") + "\n");
    const before = await writeCounts(emulator, "uc-term");
    // Every other update is applied, then its answer cut off: the HTTP core sends the same PUT again.
    const lost: FaultStep = { method: "PUT", path: "/terms/", drop: true, afterHandling: true };
    const passes: FaultStep = { method: "PUT", path: "/terms/" };
    emulator.faults.script(Array.from({ length: TERMS }, (_, i) => i % 2 === 0 ? lost : passes));

    const plugin = ucTermImport(unified, {
      domainId,
      template: templateNamed("uc-term-all-fields", UC_TERM_IMPORT_TEMPLATES),
      links: new Map(),
    });
    const summary = await runBulkImport(plugin, {
      file: path,
      batchSize: 5,
      concurrency: 2,
      retryDelayMs: 1,
    });

    assert.equal(summary.updated, TERMS, "every row counted once, as updated");
    assert.equal(summary.created + summary.rejected + summary.recovered + summary.skipped, 0);
    assert.equal(emulator.faults.pendingSteps().length, 0, "every scripted answer was given");
    const after = await writeCounts(emulator, "uc-term");
    emulator.faults.reset();
    const writes = ids.map((id) => (after.get(id.toLowerCase()) ?? 0) - (before.get(id.toLowerCase()) ?? 0));
    // Each lost answer cost one more write (a write sent again may lose its answer too): 30 in all.
    assert.equal(writes.reduce((sum, count) => sum + count, 0), TERMS + TERMS / 2, `writes: ${writes}`);
    assert.ok(writes.every((count) => count >= 1), `writes per term: ${writes}`);
    // A term written twice holds what a term written once holds: the same fields, only its name and
    // description (its own) differing.
    const stored = await Promise.all(ids.map((id) => unified.terms.get(id)));
    stored.forEach((term, i) => assert.equal(term.description, `New ${i}`));
    const once = stored[writes.indexOf(1)] as unknown as Record<string, unknown>;
    const own = (term: Record<string, unknown>) => written({ ...term, name: "", description: "" });
    for (const [i, term] of stored.entries()) {
      if (writes[i] > 1) {
        assert.equal(
          own(term as unknown as Record<string, unknown>),
          own(once),
          `term ${i} as one write left it`,
        );
      }
    }
  } finally {
    await emulator.close();
    await Deno.remove(dir, { recursive: true });
  }
});
